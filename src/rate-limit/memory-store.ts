import { randomUUID } from 'node:crypto';
import {
  refusesAdmission,
  type AdmissionResult,
  type AdmissionStep,
  type LeaseAcquire,
  type MultiWindowTake,
  type RateLimitStore,
  type WindowTake,
} from './rate-limit-store.js';

/**
 * The most short histories kept at once: in one process there is no expiry by time, so the lists pushed
 * to least recently are dropped past this bound.
 */
const MAX_LISTS = 10_000;

/**
 * The in-process RateLimitStore: exact sliding windows and lease sets, for a single process. Every
 * operation runs synchronously to its end before its promise resolves, so each is atomic in the process.
 */
export function createMemoryRateLimitStore(): RateLimitStore {
  const windows = new Map<string, number[]>();
  /** Lease sets: token → expiry (ms). */
  const leases = new Map<string, Map<string, number>>();
  const recentLists = createRecentLists();
  let operations = 0;

  /**
   * Counts an operation, sweeping idle keys every 10,000. Called once at the start of each operation,
   * before its look-ups: a sweep after them could drop a looked-up (empty) array or set while the
   * operation still writes to it, losing the call.
   */
  function tick(now: number, windowMs: number | undefined): void {
    if (++operations % 10_000 !== 0) return;
    if (windowMs !== undefined) sweepWindows(now, windowMs);
    sweepLeases(now);
  }

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
    return times;
  }

  // Drops keys whose windows are empty, so that a stream of one-off IPs does not grow the map for ever.
  function sweepWindows(now: number, windowMs: number): void {
    for (const [key, times] of windows) {
      if (times.length === 0 || (times.at(-1) ?? 0) <= now - windowMs) windows.delete(key);
    }
  }

  // The same for lease sets whose leases all expired.
  function sweepLeases(now: number): void {
    for (const [key, set] of leases) {
      for (const [token, expiresAt] of set) if (expiresAt <= now) set.delete(token);
      if (set.size === 0) leases.delete(key);
    }
  }

  /** The live leases of `key`, with expired ones dropped. */
  function liveLeases(key: string, now: number): Map<string, number> {
    let set = leases.get(key);
    if (set === undefined) {
      set = new Map();
      leases.set(key, set);
    }
    for (const [token, expiresAt] of set) if (expiresAt <= now) set.delete(token);
    return set;
  }

  // The operations that `admitInOrder` chains, synchronous so that a chain is atomic in the process.
  function hit(key: string, limit: number, windowMs: number, now: number): WindowTake {
    tick(now, windowMs);
    const times = live(key, windowMs, now);
    const allowed = times.length < limit;
    times.push(now);
    if (times.length > limit) times.splice(0, times.length - limit);
    return { allowed, count: times.length, oldestAt: times[0] ?? now };
  }

  function waitBelow(key: string, threshold: number, windowMs: number, now: number): number {
    tick(now, windowMs);
    const times = live(key, windowMs, now);
    if (times.length < threshold) return 0;
    const leaving = times[times.length - threshold] ?? now;
    return Math.max(1, leaving + windowMs - now);
  }

  function acquire(key: string, limit: number, leaseMs: number, now: number): LeaseAcquire {
    tick(now, undefined);
    const set = liveLeases(key, now);
    if (set.size >= limit) return { acquired: false, held: set.size };
    const token = randomUUID();
    set.set(token, now + leaseMs);
    return { acquired: true, held: set.size, token };
  }

  return {
    take(key, limit, windowMs, now): Promise<WindowTake> {
      tick(now, windowMs);
      const times = live(key, windowMs, now);
      const allowed = times.length < limit;
      if (allowed) times.push(now);
      return Promise.resolve({ allowed, count: times.length, oldestAt: times[0] ?? now });
    },
    takeAll(limits, windowMs, now, ending): Promise<MultiWindowTake> {
      if (new Set(limits.map((window) => window.key)).size !== limits.length)
        return Promise.reject(new Error('takeAll needs distinct keys'));
      if (ending !== undefined) leases.get(ending.key)?.delete(ending.token);
      tick(now, windowMs);
      const all = limits.map(({ key, limit }) => ({ times: live(key, windowMs, now), limit }));
      const allowed = all.every(({ times, limit }) => times.length < limit);
      return Promise.resolve({
        allowed,
        windows: all.map(({ times, limit }) => {
          const room = times.length < limit;
          if (allowed) times.push(now);
          return { allowed: room, count: times.length, oldestAt: times[0] ?? now };
        }),
      });
    },
    hit: (key, limit, windowMs, now) => Promise.resolve(hit(key, limit, windowMs, now)),
    add(key, windowMs, now) {
      tick(now, windowMs);
      const times = live(key, windowMs, now);
      times.push(now);
      return Promise.resolve(times.length);
    },
    waitBelow: (key, threshold, windowMs, now) => Promise.resolve(waitBelow(key, threshold, windowMs, now)),
    acquire: (key, limit, leaseMs, now) => Promise.resolve(acquire(key, limit, leaseMs, now)),
    admitInOrder(steps, now) {
      const results: AdmissionResult[] = [];
      for (const step of steps) {
        const result = admit({ hit, waitBelow, acquire }, step, now);
        results.push(result);
        if (refusesAdmission(result)) break;
      }
      return Promise.resolve(results);
    },
    release(key, token, keep) {
      const set = leases.get(key);
      if (keep === undefined) {
        set?.delete(token);
      } else if (set === undefined) {
        leases.set(key, new Map([[token, keep.until]]));
      } else {
        set.set(token, keep.until);
      }
      return Promise.resolve();
    },
    ...recentLists,
    ping() {
      return Promise.resolve();
    },
    close() {
      windows.clear();
      leases.clear();
      recentLists.clear();
      return Promise.resolve();
    },
  };
}

/** The short histories (`pushRecent`, `recent`) of the in-process store. */
function createRecentLists(): Pick<RateLimitStore, 'pushRecent' | 'recent'> & { clear(): void } {
  /** Newest entry first, the most recently pushed list last. */
  const lists = new Map<string, string[]>();
  return {
    pushRecent(key, entry, keep) {
      const list = lists.get(key) ?? [];
      list.unshift(entry);
      if (list.length > keep) list.length = keep;
      // Moved to the end: the lists pushed to least recently are the first dropped past the bound.
      lists.delete(key);
      lists.set(key, list);
      if (lists.size > MAX_LISTS) {
        const oldest = lists.keys().next();
        if (oldest.done !== true) lists.delete(oldest.value);
      }
      return Promise.resolve();
    },
    recent(key, count) {
      return Promise.resolve((lists.get(key) ?? []).slice(0, Math.max(0, count)));
    },
    clear: () => {
      lists.clear();
    },
  };
}

/** One step of `admitInOrder`, by the store's synchronous operations. */
function admit(
  operations: {
    hit(key: string, limit: number, windowMs: number, now: number): WindowTake;
    waitBelow(key: string, threshold: number, windowMs: number, now: number): number;
    acquire(key: string, limit: number, leaseMs: number, now: number): LeaseAcquire;
  },
  step: AdmissionStep,
  now: number,
): AdmissionResult {
  if (step.op === 'waitBelow')
    return { op: step.op, waitMs: operations.waitBelow(step.key, step.threshold, step.windowMs, now) };
  if (step.op === 'hit')
    return { op: step.op, take: operations.hit(step.key, step.limit, step.windowMs, now) };
  return { op: step.op, lease: operations.acquire(step.key, step.limit, step.leaseMs, now) };
}
