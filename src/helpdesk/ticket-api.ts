import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { passGates, send, type Gate } from '../http/gate.js';
import { pathMatcher } from '../http/route-path.js';
import { noteRequest } from '../observability/request-facts.js';
import { limitBodySize, rejectBlockedIp, rejectConflictingCredentials } from '../http/shared-gates.js';
import {
  answerMaintenance,
  answerOptions,
  authenticateKey,
  limitSystemRate,
  rejectContentCoding,
  rejectInactiveSystem,
  requireJsonContentType,
  requireJsonObjectBody,
  requireRouteMethod,
  requireScope,
  requireWebhookObjectBody,
} from './ticket-api-gates.js';
import type { AuthenticatedTicketCall, TicketApiDeps, TicketCall } from './ticket-call.js';
import { ticketRoutes } from './ticket-routes.js';

// The partner help-desk ticket API: its order of problems as an array of gates, over the route table of
// ticket-routes.ts.

const routes = pathMatcher(ticketRoutes);

/** 404 `not_found`: the path begins with the prefix but names no route. */
function findRoute(call: TicketCall): Problem | undefined {
  const found = routes.match(call.request.url.split('?')[0] ?? '');
  if (found === undefined) return Problem.of('not_found');
  call.route = found.route;
  noteRequest(call.request, { operation: found.route.operationId });
  if (found.params.system !== undefined) call.pathSystem = found.params.system;
  return undefined;
}

/**
 * The order in which problems are answered (docs/ticket-api.md, Authentication, and the webhook's
 * own rules): one problem at a time, the first gate that refuses answers. Gates before `authenticateKey`
 * neither need nor count the key; X-RateLimit-* headers appear from `limitSystemRate` on.
 */
export const ticketApiGates: readonly Gate<TicketCall>[] = [
  answerMaintenance, //              503 temporarily_unavailable
  rejectConflictingCredentials, //   400 conflicting_credentials
  findRoute, //                      404 not_found
  requireRouteMethod, //             405 method_not_allowed
  limitBodySize, //                  413 payload_too_large (all routes, the webhook too)
  requireJsonContentType, //         415 unsupported_media_type (ticket and lead routes)
  rejectContentCoding, //            415 unsupported_media_type, Accept-Encoding: identity (ticket and lead)
  requireJsonObjectBody, //          422 invalid_body (ticket and lead routes)
  rejectBlockedIp, //                429 rate_limited, IP block, no X-RateLimit-*
  authenticateKey, //                401 unauthorized
  rejectInactiveSystem, //           403 system_inactive
  limitSystemRate, //                429 rate_limited with X-RateLimit-*
  answerOptions, //                  200 OPTIONS with Allow
  requireScope, //                   403 forbidden_scope
  requireWebhookObjectBody, //       400 without code, 422 invalid_body (webhook)
  // then the route itself: field 422s, misconfigured_system 503, 201/200, 501
];

/** Answers one request under the ticket API's prefix: the gates in order, then the route. */
export function createTicketApiHandler(deps: TicketApiDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('x-request-id', request.id);
    const call: TicketCall = {
      request,
      reply,
      now: deps.clock.now(),
      deps,
      ipBlock: deps.ipBlock,
      body: Buffer.alloc(0),
    };
    if (!(await passGates(call, ticketApiGates))) return reply;
    const passed = call as AuthenticatedTicketCall;
    return send(reply, await passed.route.handle(passed));
  };
}
