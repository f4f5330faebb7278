import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services.js';
import type { AdminAnswer, AdminInput, AdminRoute } from './admin-route.js';
import { parseInput } from './parse-input.js';

// Registers the route tables on the admin listener: each route's path, its access level (read by the
// listener's onRequest hook), and one handler that parses the call's parts in the order path → body →
// query and sends what the route's handler answers.

/** The Fastify form of a table path: `/accounts/{account}/keys` → `/accounts/:account/keys`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Parses the path, then the body (JSON, or the NDJSON stream as it is), then the query. */
function inputOf(
  route: AdminRoute,
  request: FastifyRequest,
  log: FastifyBaseLogger,
  stream?: Readable,
): AdminInput {
  const params = route.params === undefined ? undefined : parseInput(route.params, request.params, 'path');
  let body: unknown;
  if (stream !== undefined) body = { kind: 'ndjson', stream };
  else if (route.body?.kind === 'json')
    body = parseInput(route.body.schema, request.body ?? route.body.absent, 'body');
  else if (route.body?.kind === 'json-or-ndjson')
    body = { kind: 'json', value: parseInput(route.body.schema, request.body, 'body') };
  const query = route.query === undefined ? undefined : parseInput(route.query, request.query, 'query');
  return { params, query, body, log };
}

async function answer(
  route: AdminRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  log: FastifyBaseLogger,
): Promise<AdminAnswer> {
  const body = request.body;
  if (route.body?.kind === 'json-or-ndjson' && body instanceof Readable) {
    try {
      return await route.handle(inputOf(route, request, log, body), services);
    } catch (error) {
      // The rest of the body is not read: discard it and close the connection after the answer.
      reply.header('connection', 'close');
      body.resume();
      throw error;
    }
  }
  return route.handle(inputOf(route, request, log), services);
}

/** Registers every route of the tables on the admin listener, answering from `services`. */
export function registerAdminRoutes(
  app: FastifyInstance,
  routes: readonly AdminRoute[],
  services: Services,
): void {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      config: { adminAccess: route.access },
      handler: async (request, reply) => {
        const { status, body, type } = await answer(route, request, reply, services, app.log);
        reply.code(status);
        if (type !== undefined) reply.type(type);
        return reply.send(body);
      },
    });
  }
}
