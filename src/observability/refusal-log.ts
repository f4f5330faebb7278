import type { Clock } from '../clock.js';
import { redactKeys } from '../lib/redact-keys.js';
import { codePointLength, truncateCodePoints } from '../lib/unicode-text.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { ApiName, Subject } from './request-facts.js';

// The last refusals of a partner system or a merchant account (docs/operations.md, Why did my call fail), so that
// support can answer "why did my call fail" from a request id without reading logs. Kept in the
// rate-limit store: Redis when a fleet shares one (every process writes and reads the same lists), the
// process's memory otherwise. Writing is never awaited by a request, and a failure to write is counted,
// never raised: a refusal log that cannot be written never changes an answer.

/** How many refusals are kept per system or account, newest first. */
export const REFUSALS_KEPT = 100;
/** The longest `detail` kept, in code points; a longer one is cut and ends with `…`. */
const REFUSAL_DETAIL_MAX = 500;
/** The longest `param` kept, in code points (the APIs' own are short: `limit`, `requester.name`). */
const REFUSAL_PARAM_MAX = 100;
/** A subject's list is dropped this long after its last refusal (Redis; in memory, the oldest lists go). */
const REFUSALS_TTL_MS = 30 * 24 * 3_600_000;

/** One refused call, as the admin API shows it. */
export interface Refusal {
  /** When it was answered (RFC 3339, UTC). */
  at: string;
  /** The `X-Request-Id` of its answer. */
  request_id: string;
  api: ApiName;
  /** The operation's name in its API's document. */
  operation: string;
  status: number;
  /** The problem code; null for a problem without one. */
  code: string | null;
  /** The merchant key's id, or `current`/`previous` for a system's key. */
  credential: string | null;
  /** The field or query parameter the answer named in `param`; null when it named none (or an older entry). */
  param: string | null;
  /** The answer's `detail`, key-shaped text redacted and cut; null for an older entry. */
  detail: string | null;
}

/** Text as kept: anything shaped like a key redacted, then cut to `max` code points. */
function kept(text: string | null | undefined, max: number): string | null {
  if (text === null || text === undefined) return null;
  const redacted = redactKeys(text);
  return codePointLength(redacted) <= max ? redacted : `${truncateCodePoints(redacted, max - 1)}…`;
}

/** An entry as read: the fields an older entry lacks read as null. */
function refusalOf(entry: Omit<Refusal, 'param' | 'detail'> & Partial<Refusal>): Refusal {
  return { ...entry, param: entry.param ?? null, detail: entry.detail ?? null };
}

/** The refusal log over a store, with the clock that dates entries and a counter of its failures. */
export function createRefusalLog(deps: {
  store: Pick<RateLimitStore, 'pushRecent' | 'recent'>;
  clock: Clock;
  onError: (error: unknown) => void;
}) {
  const { store, clock, onError } = deps;
  const keyOf = (subject: Subject) => `refusals:${subject.kind}:${subject.id}`;
  return {
    /** Records one refusal of a subject, in the background. */
    record(
      subject: Subject,
      refusal: Omit<Refusal, 'at' | 'param' | 'detail'> & Partial<Pick<Refusal, 'param' | 'detail'>>,
    ): void {
      const entry = JSON.stringify({
        at: new Date(clock.now()).toISOString(),
        ...refusal,
        // Never a key: details carry none today, but what is kept for a month is redacted all the same.
        param: kept(refusal.param, REFUSAL_PARAM_MAX),
        detail: kept(refusal.detail, REFUSAL_DETAIL_MAX),
      });
      store.pushRecent(keyOf(subject), entry, REFUSALS_KEPT, REFUSALS_TTL_MS).catch(onError);
    },
    /** The subject's last refusals, newest first, at most `limit`. */
    async list(subject: Subject, limit = REFUSALS_KEPT): Promise<Refusal[]> {
      const entries = await store.recent(keyOf(subject), Math.min(limit, REFUSALS_KEPT));
      return entries.flatMap((entry) => {
        try {
          return [refusalOf(JSON.parse(entry) as Refusal)];
        } catch {
          return [];
        }
      });
    },
  };
}

export type RefusalLog = ReturnType<typeof createRefusalLog>;
