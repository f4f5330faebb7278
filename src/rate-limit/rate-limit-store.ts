/** The outcome of asking a sliding window to admit one call. */
export interface WindowTake {
  allowed: boolean;
  /** Calls counted in the window after this one (a refused call is not counted). */
  count: number;
  /** Admission time (ms) of the oldest call still in the window; `now` when the window was empty. */
  oldestAt: number;
}

/**
 * Sliding windows of timestamped calls, kept per key (a system, a key, an IP). Every operation is atomic
 * per key, so that concurrent calls never overspend a balance. The in-process store serves one process;
 * a shared store lets a fleet of processes spend one balance.
 */
export interface RateLimitStore {
  /** Admits a call at `now` if fewer than `limit` calls were admitted in the last `windowMs`. */
  take(key: string, limit: number, windowMs: number, now: number): Promise<WindowTake>;
  /** Records an event at `now` with no limit (a wrong-key failure); returns the count in the window. */
  add(key: string, windowMs: number, now: number): Promise<number>;
  /**
   * Milliseconds until fewer than `threshold` events remain in the window of `key`; 0 when there
   * already are fewer.
   */
  waitBelow(key: string, threshold: number, windowMs: number, now: number): Promise<number>;
  close(): Promise<void>;
}
