import type { FastifyReply, FastifyRequest } from 'fastify';
import { passGates, send, type Answer, type Gate } from '../http/gate.js';
import { Problem } from '../errors/problem.js';
import { limitBodySize, rejectBlockedIp, rejectConflictingCredentials } from '../http/shared-gates.js';
import { ticketOptions } from './catalog-repository.js';
import {
  answerMaintenance,
  answerOptions,
  authenticateKey,
  limitSystemRate,
  rejectInactiveSystem,
  requireJsonContentType,
  requireJsonObjectBody,
  requireRouteMethod,
  requireScope,
  requireWebhookObjectBody,
  type AuthenticatedTicketCall,
  type TicketApiDeps,
  type TicketCall,
  type TicketRoute,
} from './ticket-api-gates.js';
import { readLeadRequest } from './ticket-request.js';
import { ticketResponseBody, type TicketOutcome } from './ticket-service.js';

/** Path prefix of the partner help-desk ticket API. */
export const TICKET_API_PREFIX = '/v1/api-external-system/';

/** 404 `not_found`: the path begins with the prefix but names no route. */
function findRoute(call: TicketCall): Problem | undefined {
  const path = call.request.url.split('?')[0] ?? '';
  const rest = path.slice(TICKET_API_PREFIX.length);
  const webhook = /^webhook\/([a-z0-9_-]{1,40})$/.exec(rest);
  const route = webhook === null ? routes.get(rest) : webhookRoute;
  if (route === undefined) return Problem.of('not_found');
  call.route = route;
  if (webhook?.[1] !== undefined) call.pathSystem = webhook[1];
  return undefined;
}

/**
 * The order in which problems are answered (helpdesk-ticket-api.md, Authentication, and the webhook's
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

function ticketAnswer(outcome: TicketOutcome): Problem | Answer {
  if (outcome.kind === 'refused') return outcome.problem;
  const duplicate = outcome.kind === 'duplicate';
  return {
    status: duplicate ? 200 : 201,
    body: ticketResponseBody(outcome.ticket, duplicate, outcome.warnings),
  };
}

const bodyOf = (call: AuthenticatedTicketCall) => call.json ?? '{}';

const ticketRoute: TicketRoute = {
  operation: 'createHelpDeskTicket',
  method: 'POST',
  scope: 'help-desk-ticket.create',
  body: 'json',
  handle: async (call) => ticketAnswer(await call.deps.tickets.open(call.system, bodyOf(call), 'api')),
};

const webhookRoute: TicketRoute = {
  operation: 'createHelpDeskTicketByWebhook',
  method: 'POST',
  scope: 'help-desk-ticket.create',
  body: 'webhook',
  handle: async (call) => ticketAnswer(await call.deps.tickets.open(call.system, bodyOf(call), 'webhook')),
};

const routes = new Map<string, TicketRoute>([
  [
    'help-desk-ticket-options',
    {
      operation: 'getHelpDeskTicketOptions',
      method: 'GET',
      scope: 'help-desk-ticket.create',
      body: 'none',
      handle: async (call) => ({ status: 200, body: await ticketOptions(call.deps.db, call.system) }),
    },
  ],
  ['help-desk-ticket', ticketRoute],
  [
    'lead',
    {
      operation: 'createLead',
      method: 'POST',
      scope: 'lead.create',
      body: 'json',
      handle: (call) => {
        const lead = readLeadRequest(bodyOf(call));
        return Promise.resolve(
          lead.ok
            ? Problem.of('not_implemented', { detail: 'The lead route is planned; nothing was stored.' })
            : lead.problem,
        );
      },
    },
  ],
]);

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
