import type { FastifyRequest } from 'fastify';
import { ADMIN_API, CONSOLE_PAGES, DOCS_PAGES, POS_API, TICKET_API } from '../lib/api-registry.js';

// What a request turned out to be, noted by the gates and routes as they learn it (which API and
// operation, which system or account, which limit refused it, which problem code it got) and read once
// when its answer has gone: by the metrics, the request's log line and the refusal log. Never a key, a
// key hash, a body or a requester's name or contact: only identifiers an operator already sees.

/**
 * The listener's parts a request can reach: the public APIs, the documentation pages, the back office
 * (its API, its console), anything else. A list, so that what counts by API (the traffic table) knows every label it may store.
 */
export const API_NAMES = [
  TICKET_API.label,
  POS_API.label,
  DOCS_PAGES.label,
  ADMIN_API.label,
  CONSOLE_PAGES.label,
  'other',
] as const;

/** The listener's part a request reached: one of the public APIs, the documentation pages, the back office. */
export type ApiName = (typeof API_NAMES)[number];

/**
 * Which limit refused a call (docs/operations.md, Metrics): a system's rate, a merchant key's quota, an account's
 * ceiling, sales queries in progress, an IP blocked after wrong keys, too many unauthenticated calls from
 * an IP, the absolute ceiling of a key text, the documentation pages of an IP, or the shared store being
 * unreachable where the contract answers 503.
 */
export type LimitKind =
  | 'system'
  | 'key'
  | 'account'
  | 'concurrency'
  | 'ip_block'
  | 'unauthenticated'
  | 'absolute_ceiling'
  | 'docs_pages'
  | 'store_unavailable';

/** Whose call it was: a partner system (ticket API) or a merchant account (POS API). */
export interface Subject {
  readonly kind: 'system' | 'account';
  /** The system's identifier or the account's id. */
  readonly id: string;
}

/** What is known of a request once it is answered. */
export interface RequestFacts {
  /** The operation's name in its route table and OpenAPI document (`createTicket`, `ping`…). */
  operation?: string;
  /** The problem code of a refusal; null for a problem without one (the POS API's 415). */
  code?: string | null;
  /** The refusal's `param` (the field or query parameter to fix), when its answer named one. */
  param?: string;
  /** The refusal's `detail`, as its answer said it (English, the text the caller read). */
  detail?: string;
  /** The limit that refused the call, if one did. */
  limit?: LimitKind;
  /** The system or account whose key was presented, once the key was recognized. */
  subject?: Subject;
  /** The credential used: the merchant key's id, or `current`/`previous` for a system's key. */
  credential?: string;
}

/**
 * Where a request keeps its facts: a property of its own, so that they end with it. (A WeakMap keyed by
 * the request cost a look-up at every note and work for the garbage collector at every request.)
 */
const FACTS = Symbol('request facts');

/** The facts noted on a request so far (an empty record when none). */
export function factsOf(request: FastifyRequest): RequestFacts {
  const holder = request as FastifyRequest & { [FACTS]?: RequestFacts };
  return (holder[FACTS] ??= {});
}

/** Notes what a gate or route learned of a request. */
export function noteRequest(request: FastifyRequest, learned: RequestFacts): void {
  Object.assign(factsOf(request), learned);
}
