import type { ProblemCode } from '../errors/problem-catalogue.js';
import { Problem } from '../errors/problem.js';
import type { Answer } from '../http/gate.js';
import { ticketOptionsBody, ticketResponseBody as ticketResponseSchema } from './ticket-api-schemas.js';
import type { AuthenticatedTicketCall, TicketRoute } from './ticket-call.js';
import { readLeadRequest } from './ticket-request.js';
import { ticketResponseBody, type TicketOutcome } from './ticket-service.js';

// The route table of the partner help-desk ticket API (helpdesk-ticket-api.md, the table of operations):
// every operation once, as data. The gates of ticket-api.ts read it (method, scope, body kind), the
// OpenAPI document is generated from it, and the tests hold every answer to its schemas and codes.

/** Path prefix of the partner help-desk ticket API. */
export const TICKET_API_PREFIX = '/v1/api-external-system/';

/** Problems every route can answer, from the gates (helpdesk-ticket-api.md, Authentication, order). */
const GATE_PROBLEMS: readonly ProblemCode[] = [
  'temporarily_unavailable',
  'conflicting_credentials',
  'method_not_allowed',
  'payload_too_large',
  'rate_limited',
  'unauthorized',
  'system_inactive',
  'forbidden_scope',
  'internal_error',
];

/** The field 422s of a ticket request, in the order of the document's table. */
const TICKET_FIELD_PROBLEMS: readonly ProblemCode[] = [
  'missing_external_id',
  'missing_company',
  'invalid_company',
  'missing_description',
  'invalid_nature',
  'invalid_field',
  'field_too_long',
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

export const ticketRoutes: readonly TicketRoute[] = [
  {
    operationId: 'getHelpDeskTicketOptions',
    method: 'GET',
    path: `${TICKET_API_PREFIX}help-desk-ticket-options`,
    summary: 'The companies, categories, priorities, support levels and natures this system may choose.',
    scope: 'help-desk-ticket.create',
    body: 'none',
    responses: { 200: ticketOptionsBody },
    problems: GATE_PROBLEMS,
    handle: async (call) => ({ status: 200, body: await call.deps.catalog.ticketOptions(call.system) }),
  },
  {
    operationId: 'createHelpDeskTicket',
    method: 'POST',
    path: `${TICKET_API_PREFIX}help-desk-ticket`,
    summary: 'Opens a ticket; the same external_id again answers the stored ticket as a duplicate.',
    scope: 'help-desk-ticket.create',
    body: 'json',
    responses: { 201: ticketResponseSchema, 200: ticketResponseSchema },
    problems: [
      ...GATE_PROBLEMS,
      'unsupported_media_type',
      'invalid_body',
      ...TICKET_FIELD_PROBLEMS,
      'misconfigured_system',
    ],
    handle: async (call) => ticketAnswer(await call.deps.tickets.open(call.system, bodyOf(call), 'api')),
  },
  {
    operationId: 'createHelpDeskTicketByWebhook',
    method: 'POST',
    path: `${TICKET_API_PREFIX}webhook/{system}`,
    pathParams: { system: '[a-z0-9_-]{1,40}' },
    summary: "Opens a ticket through the system's webhook: any Content-Type, the body read as JSON.",
    scope: 'help-desk-ticket.create',
    body: 'webhook',
    responses: { 201: ticketResponseSchema, 200: ticketResponseSchema },
    problems: [...GATE_PROBLEMS, 'invalid_body', ...TICKET_FIELD_PROBLEMS, 'misconfigured_system'],
    uncodedStatuses: [400],
    handle: async (call) => ticketAnswer(await call.deps.tickets.open(call.system, bodyOf(call), 'webhook')),
  },
  {
    operationId: 'createLead',
    method: 'POST',
    path: `${TICKET_API_PREFIX}lead`,
    summary: 'Planned: checks the request as the document says, stores nothing and answers 501.',
    planned: true,
    scope: 'lead.create',
    body: 'json',
    responses: {},
    problems: [
      ...GATE_PROBLEMS,
      'unsupported_media_type',
      'invalid_body',
      'missing_external_id',
      'invalid_field',
      'field_too_long',
      'not_implemented',
    ],
    handle: (call) => {
      const lead = readLeadRequest(bodyOf(call));
      return Promise.resolve(
        lead.ok
          ? Problem.of('not_implemented', { detail: 'The lead route is planned; nothing was stored.' })
          : lead.problem,
      );
    },
  },
];
