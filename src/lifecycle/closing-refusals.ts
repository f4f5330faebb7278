import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { TICKET_API_PREFIX } from '../helpdesk/ticket-routes.js';
import { POS_UNAVAILABLE_DETAIL } from '../pos/api/pos-api-gates.js';
import { POS_API_PREFIX } from '../pos/api/pos-routes.js';

// What a closing process answers to a request it can no longer take (one that arrives on a kept-alive
// connection after the listeners closed): each API's own 503 `temporarily_unavailable`, never Fastify's
// `{"error":"Service Unavailable",…}`. Nothing of the request is read or applied.

/**
 * Seconds a ticket-API or admin client waits before sending again: long enough for a restarted single
 * process to listen again, short enough that in a fleet another process takes the ticket almost at once
 * (the ticket document leaves the value open: helpdesk-ticket-api.md, Errors, gaps).
 */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

/** The POS document gives one value for every 503 of its API (pos-data-api.md, Errors, 503). */
const POS_RETRY_AFTER_SECONDS = 60;

const TICKET_CLOSING_DETAIL =
  'This server is shutting down. Keep the ticket and resend it with the same external_id after the time in the Retry-After header.';

const ADMIN_CLOSING_DETAIL =
  'This server is shutting down and applied nothing of the request. Send it again after the time in the Retry-After header.';

/**
 * The public listener's refusal: the ticket API's and the POS API's 503 as their documents give it (with
 * `X-Request-Id`, which every answer of both APIs carries); null elsewhere (a plain 503).
 */
export function publicClosingRefusal(request: FastifyRequest): Problem | null {
  const path = request.url.split('?')[0] ?? '';
  const requestId = { 'x-request-id': request.id };
  if (path.startsWith(TICKET_API_PREFIX)) {
    return Problem.of(
      'temporarily_unavailable',
      { detail: TICKET_CLOSING_DETAIL },
      { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS), ...requestId },
    );
  }
  if (path.startsWith(POS_API_PREFIX)) {
    return Problem.of(
      'temporarily_unavailable',
      { detail: POS_UNAVAILABLE_DETAIL },
      { 'retry-after': String(POS_RETRY_AFTER_SECONDS), ...requestId },
    );
  }
  return null;
}

/** The admin listener's refusal: its problem+json 503, on every path. */
export function adminClosingRefusal(): Problem {
  return Problem.of(
    'temporarily_unavailable',
    { detail: ADMIN_CLOSING_DETAIL },
    { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS) },
  );
}
