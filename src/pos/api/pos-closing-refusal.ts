import type { FastifyRequest } from 'fastify';
import { Problem } from '../../errors/problem.js';
import { POS_UNAVAILABLE_DETAIL } from './pos-api-gates.js';

/** The POS document gives one Retry-After for every 503 of its API (openapi/pos.json). */
const POS_RETRY_AFTER_SECONDS = 60;

/**
 * The POS API's answer to a request a closing process can no longer take: its 503
 * `temporarily_unavailable`, with `X-Request-Id` as every answer of the API. The app pairs it with the
 * API's prefix (src/lib/api-registry.ts).
 */
export function posClosingRefusal(request: FastifyRequest): Problem {
  return Problem.of(
    'temporarily_unavailable',
    { detail: POS_UNAVAILABLE_DETAIL },
    { 'retry-after': String(POS_RETRY_AFTER_SECONDS), 'x-request-id': request.id },
  );
}
