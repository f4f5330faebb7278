import type { ProblemCode } from '../errors/problem-catalogue.js';
import { Problem } from '../errors/problem.js';
import type { Answer } from '../http/gate.js';
import { TICKET_API } from '../lib/api-registry.js';
import {
  leadRequestBody,
  ticketOptionsBody,
  ticketRequestBody,
  ticketResponseBody as ticketResponseSchema,
} from './ticket-api-schemas.js';
import type { AuthenticatedTicketCall, TicketRoute } from './ticket-call.js';
import { readLeadRequest, type Refusal } from './ticket-request.js';
import { ticketResponseBody, type TicketOutcome } from './ticket-service.js';

// The route table of the partner help-desk ticket API (docs/ticket-api.md, the table of operations):
// every operation once, as data. The gates of ticket-api.ts read it (method, scope, body kind), the
// OpenAPI document is generated from it, and the tests hold every answer to its schemas and codes.

/** Path prefix of the partner help-desk ticket API, as the registry gives it. */
export const TICKET_API_PREFIX = TICKET_API.prefix;

/** Problems every route can answer, from the gates (docs/ticket-api.md, Authentication, order). */
const GATE_PROBLEMS: readonly ProblemCode[] = [
  'temporarily_unavailable',
  'conflicting_credentials',
  // Every route's list of statuses has 404: the route's path in another version or without one.
  'not_found',
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

/**
 * What OPTIONS on a route can answer: the gates up to the rate check, then 200 with `Allow` and no body
 * (docs/ticket-api.md, Method handling). No body rule applies to it but the size.
 */
export const TICKET_OPTIONS_PROBLEMS: readonly ProblemCode[] = [
  'temporarily_unavailable',
  'conflicting_credentials',
  'not_found',
  'payload_too_large',
  'rate_limited',
  'unauthorized',
  'system_inactive',
  'internal_error',
];

/** The two ticket routes answer alike (docs/ticket-api.md, the ticket POST routes). */
const TICKET_SUCCESSES = {
  201: 'Ticket created: the ticket response with `duplicate: false`.',
  200: 'The same `external_id` was sent before by this system: the existing ticket as created (`duplicate: true`, its own `applied`), never a second ticket. The body was still validated (the 422 rules apply).',
};

/** Retry-After of `misconfigured_system`: the operator needs time to fix the system. */
const MISCONFIGURED_RETRY_AFTER_SECONDS = 300;

/** The field 422 of a refused field of the request. */
const fieldRefusal = (refusal: Refusal): Problem =>
  Problem.of(refusal.reason, { detail: refusal.detail, param: refusal.param });

function ticketAnswer(outcome: TicketOutcome): Problem | Answer {
  if (!outcome.ok) {
    if (outcome.reason !== 'misconfigured_system') return fieldRefusal(outcome);
    return Problem.of(
      'misconfigured_system',
      {},
      { 'retry-after': String(MISCONFIGURED_RETRY_AFTER_SECONDS) },
    );
  }
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
    description:
      'No parameters, no body. Cache the response for a few hours; refetch on receiving `category_fallback`, `priority_fallback` or `invalid_nature`.',
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
    description:
      'Body: the ticket request, `Content-Type` `application/json` (with `; charset=utf-8`, or a type with suffix `+json`, accepted). The type must be lowercase: `Application/JSON` gets 415. Missing or other type: 415 `unsupported_media_type`. `category`, `priority` and `support_level` never reject the ticket. Field 422s come last, in the order of the ticket request table (`external_id`, `company`, `description`, `nature`, `requester`), with `param` and `X-RateLimit-*`: fix the body before resending. 503 `misconfigured_system` (with `Retry-After`): the system cannot open tickets because of its own configuration; keep the ticket and resend, as for any 503.',
    successDescriptions: TICKET_SUCCESSES,
    requestBody: ticketRequestBody,
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
    description:
      'Same ticket, same body shape, same responses (200, 201, with `applied`) as the direct route; the key in `Authorization` is also required. `system`: the system identifier given by support; an identifier outside the pattern is not a route (404 `not_found`); an unknown identifier, or the key of another system, gives 401 `unauthorized`. Any `Content-Type` is accepted (no 415). The 65,536-byte limit (413) applies before the key; the body shape is checked only after the key and the rate-limit check. With a JSON `Content-Type` (`application/json` or a `+json` suffix), a body that is not a JSON object or list (broken JSON, invalid UTF-8, or a lone value) gets 400 in problem+json **without** `code`, with `X-RateLimit-*`; a JSON list gets 422 `invalid_body`; with any other `Content-Type`, every non-object body gets 422 `invalid_body`. Resending the same body does not help.',
    successDescriptions: TICKET_SUCCESSES,
    requestBody: ticketRequestBody,
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
    description:
      'Authenticates and checks the minimal shape (a JSON object with `external_id`), stores nothing: 501 `not_implemented`. Without the `lead.create` scope: 403 `forbidden_scope`.',
    requestBody: leadRequestBody,
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
          : fieldRefusal(lead),
      );
    },
  },
];
