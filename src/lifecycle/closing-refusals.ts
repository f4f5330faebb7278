import type { FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { isUnder, type ApiEntry } from '../lib/api-registry.js';

// What a closing process answers to a request it can no longer take (one that arrives on a kept-alive
// connection after the listeners closed): each API's own 503 `temporarily_unavailable`, never Fastify's
// `{"error":"Service Unavailable",…}`. Nothing of the request is read or applied. Each API supplies its
// own refusal; the app pairs them with the registry's prefixes (`refusalByApi`).

/**
 * Seconds a ticket-API or admin client waits before sending again: long enough for a restarted single
 * process to listen again, short enough that in a fleet another process takes the ticket almost at once.
 */
export const CLOSING_RETRY_AFTER_SECONDS = 5;

const ADMIN_CLOSING_DETAIL =
  'This server is shutting down and applied nothing of the request. Send it again after the time in the Retry-After header.';

/** An API of the registry and its own answer to a request that comes while its process closes. */
export interface ApiClosingRefusal {
  readonly api: ApiEntry;
  readonly refuse: (request: FastifyRequest) => Problem;
}

/**
 * A listener's refusal from its APIs' own: the first API whose prefix the path is under answers; null
 * elsewhere (a plain 503).
 */
export function refusalByApi(
  apis: readonly ApiClosingRefusal[],
): (request: FastifyRequest) => Problem | null {
  return (request) => {
    const path = request.url.split('?')[0] ?? '';
    const owner = apis.find(({ api }) => isUnder(api, path));
    return owner === undefined ? null : owner.refuse(request);
  };
}

/** The admin listener's refusal: its problem+json 503, on every path. */
export function adminClosingRefusal(): Problem {
  return Problem.of(
    'temporarily_unavailable',
    { detail: ADMIN_CLOSING_DETAIL },
    { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS) },
  );
}
