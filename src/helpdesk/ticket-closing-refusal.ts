import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { CLOSING_RETRY_AFTER_SECONDS } from '../lifecycle/closing-refusals.js';

const TICKET_CLOSING_DETAIL =
  'This server is shutting down. Keep the ticket and resend it with the same external_id after the time in the Retry-After header.';

/**
 * The ticket API's answer to a request a closing process can no longer take: its 503
 * `temporarily_unavailable` (openapi/help-desk.json), with `X-Request-Id` as every answer of the API.
 * The app pairs it with the API's prefix (src/lib/api-registry.ts).
 */
export function ticketClosingRefusal(request: FastifyRequest): Problem {
  return Problem.of(
    'temporarily_unavailable',
    { detail: TICKET_CLOSING_DETAIL },
    { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS), 'x-request-id': request.id },
  );
}
