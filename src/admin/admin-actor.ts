import type { FastifyRequest } from 'fastify';
import type { Actor } from '../audit/actor.js';

// Who calls the back office, for the key audit trail (docs/back-office.md, Audit trail and last use): the role of the
// credential (ADMIN_TOKEN: the operator, SUPPORT_TOKEN: support), the face (`X-Admin-Client: cli` when the
// CLI sends the call, the admin API otherwise) and the client's address.

/** The header the CLI sends on every admin call, so that the trail says a change came through it. */
const ADMIN_CLIENT_HEADER = 'x-admin-client';

/** The actor of an admin call, once its token has been checked. */
export function adminActor(request: FastifyRequest): Actor {
  const client = request.headers[ADMIN_CLIENT_HEADER];
  const cli = typeof client === 'string' && client.trim().toLowerCase() === 'cli';
  return { role: request.adminRole, channel: cli ? 'cli' : 'admin_api', ip: request.ip };
}
