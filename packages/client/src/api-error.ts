import type { RateLimit } from './rate-limit.js';

/** What a refusal means, from its status alone: how a client handles a `code` it does not know. */
export type ErrorKind =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'invalid_input'
  | 'rate_limited'
  | 'server_error'
  | 'not_implemented'
  | 'unavailable'
  | 'unexpected';

/** The kind of a status: the documents' rule that an unknown code is handled by its status. */
export function kindOfStatus(status: number): ErrorKind {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return 'forbidden';
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 422:
      return 'invalid_input';
    case 429:
      return 'rate_limited';
    case 501:
      return 'not_implemented';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'server_error' : 'unexpected';
  }
}

/** The problem+json body of a refusal, as far as it was sent. */
export interface ProblemBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  param?: string;
  reason?: string;
  required_scope?: string;
  required_permission?: string;
  [member: string]: unknown;
}

/** A refusal of either API: its status, its problem's members, and the headers that say what to do. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** The HTTP status. */
  readonly status: number;
  /** What the status means; decide by it when `code` is unknown or absent. */
  readonly kind: ErrorKind;
  /** The problem's code (open text); absent on the few refusals the documents list without one. */
  readonly code: string | undefined;
  /** The parameter or field at fault (a 422, a 404 of a place or event). */
  readonly param: string | undefined;
  /** Why a key that worked before no longer does (401: `revoked`, `expired`, `paused`, `replaced`). */
  readonly reason: string | undefined;
  /** The scope the partner system's key lacks (403 `forbidden_scope`). */
  readonly requiredScope: string | undefined;
  /** The permission the merchant's key lacks (403 `forbidden_permission`). */
  readonly requiredPermission: string | undefined;
  /** `X-Request-Id`: quote it to support. */
  readonly requestId: string | undefined;
  /** `Retry-After` in seconds (429, 503), or null when not sent. */
  readonly retryAfter: number | null;
  /** The rate-limit headers, or null when the limit was not measured on this call. */
  readonly rateLimit: RateLimit | null;
  /** The body as received (problem+json, or what else came). */
  readonly problem: ProblemBody | undefined;

  constructor(options: {
    status: number;
    problem: ProblemBody | undefined;
    requestId: string | undefined;
    retryAfter: number | null;
    rateLimit: RateLimit | null;
  }) {
    const { status, problem } = options;
    super(
      `${status}${problem?.code === undefined ? '' : ` ${problem.code}`}: ${problem?.detail ?? 'no problem details'}`,
    );
    this.status = status;
    this.kind = kindOfStatus(status);
    this.code = problem?.code;
    this.param = problem?.param;
    this.reason = problem?.reason;
    this.requiredScope = problem?.required_scope;
    this.requiredPermission = problem?.required_permission;
    this.requestId = options.requestId;
    this.retryAfter = options.retryAfter;
    this.rateLimit = options.rateLimit;
    this.problem = problem;
  }
}

/**
 * A ticket the service did not acknowledge after the bounded attempts (429, 503, a 5xx or no answer).
 * The ticket must be kept and resent later with the same `external_id`: resending never opens a
 * second ticket (the documents: "never discard it").
 */
export class TicketNotAcknowledgedError extends Error {
  override readonly name = 'TicketNotAcknowledgedError';
  /** The ticket's `external_id`, to resend it with. */
  readonly externalId: string | number;
  /** How many times it was sent. */
  readonly attempts: number;
  /** The last refusal, or undefined when the last attempt got no answer (see `cause`). */
  readonly lastError: ApiError | undefined;
  /** The wait the service asked for before the next attempt, in seconds, when it said one. */
  readonly retryAfter: number | null;

  constructor(options: { externalId: string | number; attempts: number; cause: unknown }) {
    const last = options.cause instanceof ApiError ? options.cause : undefined;
    super(
      `The ticket "${String(options.externalId)}" was not acknowledged after ${options.attempts} attempt(s)` +
        `${last === undefined ? '' : ` (last: ${last.message})`}: keep it and resend it later with the same external_id.`,
      { cause: options.cause },
    );
    this.externalId = options.externalId;
    this.attempts = options.attempts;
    this.lastError = last;
    this.retryAfter = last?.retryAfter ?? null;
  }
}
