import type { RateLimitStore, WindowTake } from './rate-limit-store.js';

/** The in-process RateLimitStore: exact sliding windows, for a single process. */
export function createMemoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, number[]>();
  let operations = 0;

  /** The live timestamps of `key`, with those older than the window dropped. */
  function live(key: string, windowMs: number, now: number): number[] {
    let times = windows.get(key);
    if (times === undefined) {
      times = [];
      windows.set(key, times);
    }
    let expired = 0;
    while (expired < times.length && (times[expired] ?? 0) <= now - windowMs) expired += 1;
    if (expired > 0) times.splice(0, expired);
    if (++operations % 10_000 === 0) sweep(now, windowMs);
    return times;
  }

  // Drops keys whose windows are empty, so that a stream of one-off IPs does not grow the map for ever.
  function sweep(now: number, windowMs: number): void {
    for (const [key, times] of windows) {
      if (times.length === 0 || (times.at(-1) ?? 0) <= now - windowMs) windows.delete(key);
    }
  }

  return {
    take(key, limit, windowMs, now): Promise<WindowTake> {
      const times = live(key, windowMs, now);
      const allowed = times.length < limit;
      if (allowed) times.push(now);
      return Promise.resolve({ allowed, count: times.length, oldestAt: times[0] ?? now });
    },
    add(key, windowMs, now) {
      const times = live(key, windowMs, now);
      times.push(now);
      return Promise.resolve(times.length);
    },
    waitBelow(key, threshold, windowMs, now) {
      const times = live(key, windowMs, now);
      if (times.length < threshold) return Promise.resolve(0);
      const leaving = times[times.length - threshold] ?? now;
      return Promise.resolve(Math.max(1, leaving + windowMs - now));
    },
    close() {
      windows.clear();
      return Promise.resolve();
    },
  };
}
