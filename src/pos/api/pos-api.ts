import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../errors/problem.js';
import { passGates, send, type Gate } from '../../http/gate.js';
import { pathMatcher } from '../../http/route-path.js';
import { noteRequest } from '../../observability/request-facts.js';
import { rejectConflictingCredentials } from '../../http/shared-gates.js';
import {
  authenticateKey,
  guardUnauthenticatedCalls,
  limitAbsoluteCeiling,
  limitKeyRate,
  readQueryParameters,
  rejectBlockedIp,
  rejectEncodedBody,
  rejectNonJsonBody,
  rejectOtherVersionAccept,
  requireGet,
  requirePermission,
} from './pos-api-gates.js';
import type { AuthenticatedPosCall, PosApiDeps, PosCall } from './pos-call.js';
import { posRoutes } from './pos-routes.js';

// The point-of-sale data API: its order of problems as an array of gates, over the route table of
// pos-routes.ts.

const routes = pathMatcher(posRoutes);

/** 404 `not_found` without `param`: the path begins with the prefix but names no route. */
function findRoute(call: PosCall): Problem | undefined {
  const found = routes.match(call.request.url.split('?')[0] ?? '');
  if (found === undefined) return Problem.of('not_found');
  call.route = found.route;
  noteRequest(call.request, { operation: found.route.operationId });
  return undefined;
}

/**
 * The order in which problems are answered (docs/pos-api.md, Authentication, Errors and Limits): one
 * problem at a time. Nothing before `authenticateKey` reads the key, and only the key-related limits count
 * before it; `X-RateLimit-*` appear from `limitKeyRate` on, `Deprecation`/`Sunset` from `authenticateKey`.
 */
export const posApiGates: readonly Gate<PosCall>[] = [
  rejectConflictingCredentials, //   400 conflicting_credentials, not counted
  findRoute, //                      404 not_found (nonexistent address), neither counted nor blocked
  requireGet, //                     405 method_not_allowed, Allow: GET, not counted
  rejectOtherVersionAccept, //       404 not_found for a versioned Accept of another version
  rejectBlockedIp, //                429 IP blocked after wrong keys
  limitAbsoluteCeiling, //           429 absolute ceiling of the presented key text (refused calls count)
  guardUnauthenticatedCalls, //      429 too many unauthenticated calls from the IP
  authenticateKey, //                401 invalid_token (reason when the key worked before)
  limitKeyRate, //                   429 key quota / account ceiling; X-RateLimit-* from here on
  rejectNonJsonBody, //              415 without code: a GET with a non-JSON body
  rejectEncodedBody, //              415 without code, Accept-Encoding: identity: a GET with a coded body
  requirePermission, //              403 forbidden_permission
  readQueryParameters, //            422 invalid_parameter
  // then the route itself: 404 place/event (param), 422 cursor, 429 concurrency, 503 time limit, 501
];

/** Answers one request under the POS API's prefix: the gates in order, then the route. */
export function createPosApiHandler(deps: PosApiDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('x-request-id', request.id);
    const call: PosCall = { request, reply, now: deps.clock.now(), deps };
    try {
      if (await passGates(call, posApiGates)) {
        const authenticated = call as AuthenticatedPosCall;
        send(reply, await authenticated.route.handle(authenticated));
      }
    } finally {
      // A call refused before its key was known still ends its key check.
      await call.keyCheck?.end(false);
    }
    return reply;
  };
}
