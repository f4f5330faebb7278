import type { Clock } from '../clock.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { ApiName, Subject } from './request-facts.js';

// The last refusals of a partner system or a merchant account (docs/operations.md, Why did my call fail), so that
// support can answer "why did my call fail" from a request id without reading logs. Kept in the
// rate-limit store: Redis when a fleet shares one (every process writes and reads the same lists), the
// process's memory otherwise. Writing is never awaited by a request, and a failure to write is counted,
// never raised: a refusal log that cannot be written never changes an answer.

/** How many refusals are kept per system or account, newest first. */
export const REFUSALS_KEPT = 100;
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
    record(subject: Subject, refusal: Omit<Refusal, 'at'>): void {
      const entry = JSON.stringify({ at: new Date(clock.now()).toISOString(), ...refusal });
      store.pushRecent(keyOf(subject), entry, REFUSALS_KEPT, REFUSALS_TTL_MS).catch(onError);
    },
    /** The subject's last refusals, newest first, at most `limit`. */
    async list(subject: Subject, limit = REFUSALS_KEPT): Promise<Refusal[]> {
      const entries = await store.recent(keyOf(subject), Math.min(limit, REFUSALS_KEPT));
      return entries.flatMap((entry) => {
        try {
          return [JSON.parse(entry) as Refusal];
        } catch {
          return [];
        }
      });
    },
  };
}

export type RefusalLog = ReturnType<typeof createRefusalLog>;
