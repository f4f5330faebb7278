import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { attempt, type LeaseToEnd, type RateLimitStore } from '../../rate-limit/rate-limit-store.js';

// What a limit of the POS data API decides (pos-limits.ts): pass with headers to send, or refuse with the
// status, the reason and the exact headers of the refusal (docs/pos-api.md, Limits, the 429 table).

/** Headers to send, lower-case names. */
export type LimitHeaders = Readonly<Record<string, string>>;

/** Which limit refused a call. */
export type PosLimitReason =
  | 'ip_blocked'
  | 'unauthenticated_calls'
  | 'absolute_ceiling'
  | 'key_quota'
  | 'account_ceiling'
  | 'account_sales_in_progress'
  | 'api_sales_in_progress'
  | 'documentation_pages'
  | 'store_unavailable';

/** A refusal: 429 `rate_limited`, or 503 `temporarily_unavailable` when the shared store is unreachable. */
export interface LimitRefusal {
  ok: false;
  status: 429 | 503;
  reason: PosLimitReason;
  /** Seconds, also in the `retry-after` header. */
  retryAfter: number;
  headers: LimitHeaders;
}

export type LimitDecision = { ok: true; headers: LimitHeaders } | LimitRefusal;

export function refuse(
  reason: PosLimitReason,
  retryAfter: number,
  rate: LimitHeaders = {},
  status: 429 | 503 = 429,
): LimitRefusal {
  return { ok: false, status, reason, retryAfter, headers: { 'retry-after': String(retryAfter), ...rate } };
}

export function rateHeaders(limit: number, remaining: number, reset?: number): LimitHeaders {
  const headers: Record<string, string> = {
    'x-ratelimit-limit': String(limit),
    'x-ratelimit-remaining': String(remaining),
  };
  if (reset !== undefined) headers['x-ratelimit-reset'] = String(reset);
  return headers;
}

/** A limit that passes without headers. */
export const PASS: LimitDecision = { ok: true, headers: {} };

/** An admitted key check: `end` it once the key is known (or refused). */
export interface KeyCheck {
  ok: true;
  headers: LimitHeaders;
  /**
   * Ends the check. `countsTowardIpBlock`: the key was absent, malformed or unknown (or from two
   * rotations back); the failure then counts for the IP block and, for the next 60 s, toward the IP's
   * unauthenticated calls. Never throws; a second call changes nothing and resolves with the first.
   */
  end(countsTowardIpBlock: boolean): Promise<void>;
  /**
   * Ends the check of a right key by handing its lease over to the operation that releases it with its
   * own work (the quota's take, in one round trip to a shared store): `end` then does nothing. Undefined
   * when there is no lease to release (the store was unreachable at the start, or the check has ended).
   */
  handOver(): LeaseToEnd | undefined;
}

/** How long a wrong key's failure goes on counting toward its IP's unauthenticated calls. */
const FAILURE_COUNTS_MS = 60_000;

/**
 * A key check holding the lease `token` of the lease set `key` (none when the store was unreachable).
 * `end` is idempotent: a second call returns the first's promise, so a caller that did not wait for the
 * release (a right key's call going on) can wait for it later.
 */
export function startedKeyCheck(
  key: string,
  token: string | undefined,
  recordFailure: (now: number) => Promise<void>,
  { store, clock }: { store: RateLimitStore; clock: Clock },
): KeyCheck {
  let ending: Promise<void> | undefined;
  const end = async (countsTowardIpBlock: boolean) => {
    const now = clock.now();
    if (countsTowardIpBlock) {
      await attempt(() => recordFailure(now));
      // Without a lease (store unreachable at the start) the failure still counts from now on.
      await attempt(() =>
        store.release(key, token ?? `failure:${randomUUID()}`, { until: now + FAILURE_COUNTS_MS, now }),
      );
    } else if (token !== undefined) {
      await attempt(() => store.release(key, token));
    }
  };
  return {
    ok: true,
    headers: {},
    end(countsTowardIpBlock) {
      ending ??= end(countsTowardIpBlock);
      return ending;
    },
    handOver() {
      if (ending !== undefined) return undefined;
      ending = Promise.resolve();
      return token === undefined ? undefined : { key, token };
    },
  };
}
