/** The outcome of asking a sliding window to admit one call. */
export interface WindowTake {
  allowed: boolean;
  /** Calls counted in the window after this one (a refused call is not counted). */
  count: number;
  /** Admission time (ms) of the oldest call still in the window; `now` when the window was empty. */
  oldestAt: number;
}

/** One window of a `takeAll`: its key and how many calls it admits per window. */
export interface WindowLimit {
  key: string;
  limit: number;
}

/** A lease to end (as `release` without `keep`) in the same operation as a `takeAll`. */
export interface LeaseToEnd {
  key: string;
  token: string;
}

/** The outcome of `takeAll`: admitted by every window, or by none. */
export interface MultiWindowTake {
  /** True when every window had room; the call was then counted in all of them. */
  allowed: boolean;
  /**
   * One entry per window, in the order asked. `allowed` says whether that window had room; `count` is
   * the calls in it after this call when it was admitted, else the calls already there.
   */
  windows: WindowTake[];
}

/** One step of `admitInOrder`: the operation of the same name, on its key, with its arguments. */
export type AdmissionStep =
  | { op: 'waitBelow'; key: string; threshold: number; windowMs: number }
  | { op: 'hit'; key: string; limit: number; windowMs: number }
  | { op: 'acquire'; key: string; limit: number; leaseMs: number };

/** What a step of `admitInOrder` answered: what its operation of the same name returns. */
export type AdmissionResult =
  | { op: 'waitBelow'; waitMs: number }
  | { op: 'hit'; take: WindowTake }
  | { op: 'acquire'; lease: LeaseAcquire };

/** Whether a step's answer refuses the call: a wait above 0, a hit not allowed, a lease not acquired. */
export function refusesAdmission(result: AdmissionResult): boolean {
  if (result.op === 'waitBelow') return result.waitMs > 0;
  if (result.op === 'hit') return !result.take.allowed;
  return !result.lease.acquired;
}

/** The outcome of asking a lease set for one lease. */
export type LeaseAcquire =
  | { acquired: true; /** Live leases after this one. */ held: number; token: string }
  | { acquired: false; /** Live leases, all held by others. */ held: number };

/**
 * Sliding windows of timestamped calls, kept per key (a system, a key, an IP), and lease sets (calls in
 * progress). Every operation is atomic per key, so that concurrent calls never overspend a balance; the
 * one operation on several keys (`takeAll`) is atomic over all of them. The in-process store serves one
 * process; a shared store lets a fleet of processes spend one balance. A key is used either as a window
 * or as a lease set, never as both.
 *
 * How a Redis store maps each operation (one Lua script each, so atomic on the server; `now` comes from
 * the caller, like here):
 * - a window is a sorted set of call ids scored by admission time (ms); every script first runs
 *   `ZREMRANGEBYSCORE key -inf now-windowMs`, and ends with `PEXPIRE key windowMs`;
 * - `take`, `add`, `waitBelow`: ZCARD, then ZADD when admitted (`add`: always), `ZRANGE key 0 0
 *   WITHSCORES` for `oldestAt` (`waitBelow`: `ZRANGE key -threshold -threshold WITHSCORES`);
 * - `takeAll`: the same ZREMRANGEBYSCORE + ZCARD on every KEYS[i], then ZADD on all of them only when
 *   each had room. A Lua script may touch several keys only if they share a cluster slot: the caller
 *   names them with one hash tag (`{account}`), which a single Redis instance ignores. With a lease to
 *   end, its ZREM comes first, in the same script (its key then comes first in KEYS);
 * - `admitInOrder`: one script holding the scripts of `waitBelow`, `hit` and `acquire` as functions,
 *   run over KEYS[i] in order until one refuses; like `takeAll`, its keys must share a cluster slot on a
 *   Redis cluster (a single instance, which the service connects to, has no slots);
 * - `hit`: a list of admission times, newest first: the times that left the window are popped from its
 *   tail, then `LINDEX key limit-1` decides (admitted when absent), then `LPUSH key now`, `LTRIM key 0
 *   limit-1`, `PEXPIRE key windowMs`. Being a list, a `hit` window never shares its key with the others;
 * - a lease set is a sorted set of tokens scored by expiry: `acquire` runs `ZREMRANGEBYSCORE key -inf
 *   now`, ZCARD, then `ZADD key now+leaseMs token` when below the limit, and `PEXPIRE` to the latest
 *   score; `release` is ZREM, or with `keep` a ZADD of the new score (the token then counts until
 *   that instant) and a PEXPIRE that lengthens the key's life by as much as `keep.until` passes its
 *   latest score (a new key lives `keep.until − keep.now`). Tokens are random ids made by the client
 *   and passed in ARGV.
 *
 * The PEXPIREs only collect idle keys: what counts is decided by the scores and `now`, so a caller's
 * clock ahead of or behind the server's never changes a result.
 */
export interface RateLimitStore {
  /** Admits a call at `now` if fewer than `limit` calls were admitted in the last `windowMs`. */
  take(key: string, limit: number, windowMs: number, now: number): Promise<WindowTake>;
  /**
   * Admits a call at `now` into several windows at once (a key's quota and its account's ceiling):
   * counted in all of them if each has fewer than its limit in the last `windowMs`, else in none, so a
   * call refused by one window never spends another's balance. Keys must be distinct. With `ending`,
   * that lease is released first, in the same atomic operation, whether or not the call is admitted: a
   * right key's check ends with its quota's take, one round trip to a shared store instead of two.
   */
  takeAll(
    windows: readonly WindowLimit[],
    windowMs: number,
    now: number,
    ending?: LeaseToEnd,
  ): Promise<MultiWindowTake>;
  /**
   * Records a call at `now` whether or not it is admitted (refused calls count too, as for an absolute
   * ceiling): admitted if fewer than `limit` calls, admitted or refused, were recorded in the last
   * `windowMs`. Only the newest `limit` calls are kept, which is all the decision needs, so a flood on
   * one key costs bounded memory. `count` is at most `limit`.
   */
  hit(key: string, limit: number, windowMs: number, now: number): Promise<WindowTake>;
  /** Records an event at `now` with no limit (a wrong-key failure); returns the count in the window. */
  add(key: string, windowMs: number, now: number): Promise<number>;
  /**
   * Milliseconds until fewer than `threshold` events remain in the window of `key`; 0 when there
   * already are fewer.
   */
  waitBelow(key: string, threshold: number, windowMs: number, now: number): Promise<number>;
  /**
   * Takes a lease (a call in progress) if fewer than `limit` live leases are held on `key`. A lease
   * lives until released, or `leaseMs` after `now` when never released (its process died).
   */
  acquire(key: string, limit: number, leaseMs: number, now: number): Promise<LeaseAcquire>;
  /**
   * Ends a lease; nothing happens when it already expired. With `keep` the lease is not removed but
   * kept until `keep.until` (ms), as seen at `keep.now` (a finished call that must go on counting, such
   * as a wrong-key failure for the next minute).
   */
  release(key: string, token: string, keep?: { until: number; now: number }): Promise<void>;
  /**
   * Runs `steps` at `now`, in order and as one atomic operation, each exactly as its operation of the
   * same name would, and stops after the first that refuses (`refusesAdmission`): the steps after it do
   * not run. Returns the answers of the steps that ran. A shared store answers in one round trip what
   * would take one per step (the POS API's three limits before the key is read).
   */
  admitInOrder(steps: readonly AdmissionStep[], now: number): Promise<AdmissionResult[]>;
  /**
   * Prepends `entry` to the list `key` and keeps its newest `keep` entries; the list is dropped `ttlMs`
   * after its last push (Redis: LPUSH, LTRIM, PEXPIRE in one pipeline). For short histories such as a
   * system's last refusals; a list key is never used as a window or a lease set.
   */
  pushRecent(key: string, entry: string, keep: number, ttlMs: number): Promise<void>;
  /** The newest `count` entries of the list `key`, newest first (Redis: LRANGE). */
  recent(key: string, count: number): Promise<string[]>;
  /** Resolves when the store answers; rejects when it is unreachable. The readiness check calls it. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Runs a store operation; `undefined` when the store failed (a shared store unreachable or too slow).
 * The callers then go on without measuring, and without `X-RateLimit-*` headers, except the sales
 * queries, which answer 503 (docs/pos-api.md, Settled details). The store reports its own outages in the log.
 */
export async function attempt<T>(operation: () => Promise<T>): Promise<T | undefined> {
  try {
    return await operation();
  } catch {
    return undefined;
  }
}
