import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';

// The in-process RateLimitStore: exact sliding windows (DECISIONS, Both APIs: "a call counts for 60 seconds
// after it was admitted"; "a call refused with 429 does not consume balance"), and the counting behind the
// IP block (DECISIONS, Ticket API: 20 refusals within 60 seconds block the IP for the rest of that minute).

const WINDOW = 60_000;
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

describe('memory rate-limit store', () => {
  describe('take', () => {
    it('admits up to the limit, then refuses (Limits, calls per system)', async () => {
      const store = createMemoryRateLimitStore();
      expect(await store.take('k', 3, WINDOW, T0)).toEqual({ allowed: true, count: 1, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 10)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 20)).toEqual({ allowed: true, count: 3, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 30)).toEqual({ allowed: false, count: 3, oldestAt: T0 });
    });

    it('a refused take does not consume balance (DECISIONS, Both APIs)', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('k', 1, WINDOW, T0);
      for (let i = 1; i <= 100; i += 1)
        expect((await store.take('k', 1, WINDOW, T0 + i * 500)).allowed).toBe(false);
      expect(await store.take('k', 1, WINDOW, T0 + WINDOW)).toEqual({
        allowed: true,
        count: 1,
        oldestAt: T0 + WINDOW,
      });
    });

    it('the window slides: a call stops counting exactly windowMs after it was admitted', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('k', 2, WINDOW, T0);
      await store.take('k', 2, WINDOW, T0 + 30_000);
      expect(await store.take('k', 2, WINDOW, T0 + WINDOW - 1)).toEqual({
        allowed: false,
        count: 2,
        oldestAt: T0,
      });
      expect(await store.take('k', 2, WINDOW, T0 + WINDOW)).toEqual({
        allowed: true,
        count: 2,
        oldestAt: T0 + 30_000,
      });
    });

    it('keys are independent', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('a', 1, WINDOW, T0);
      expect((await store.take('a', 1, WINDOW, T0)).allowed).toBe(false);
      expect((await store.take('b', 1, WINDOW, T0)).allowed).toBe(true);
    });

    it('concurrent takes never overspend the balance', async () => {
      const store = createMemoryRateLimitStore();
      const takes = await Promise.all(Array.from({ length: 50 }, () => store.take('k', 7, WINDOW, T0)));
      expect(takes.filter((take) => take.allowed)).toHaveLength(7);
    });

    it('an empty window reports now as the oldest call', async () => {
      const store = createMemoryRateLimitStore();
      expect((await store.take('k', 0, WINDOW, T0)).oldestAt).toBe(T0);
    });
  });

  describe('add and waitBelow (IP block)', () => {
    it('add records events without limit and returns the count in the window', async () => {
      const store = createMemoryRateLimitStore();
      for (let i = 1; i <= 25; i += 1) expect(await store.add('ip', WINDOW, T0 + i)).toBe(i);
      expect(await store.add('ip', WINDOW, T0 + WINDOW + 5)).toBe(21);
    });

    it('waitBelow is 0 below the threshold and blocks at it (DECISIONS, Ticket API, IP block)', async () => {
      const store = createMemoryRateLimitStore();
      for (let i = 0; i < 19; i += 1) await store.add('ip', WINDOW, T0);
      expect(await store.waitBelow('ip', 20, WINDOW, T0)).toBe(0);
      await store.add('ip', WINDOW, T0);
      expect(await store.waitBelow('ip', 20, WINDOW, T0)).toBe(WINDOW);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 25_000)).toBe(35_000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + WINDOW)).toBe(0);
    });

    it('waitBelow is the real wait until fewer than threshold events remain', async () => {
      const store = createMemoryRateLimitStore();
      // 25 events, one a second: below 20 once the 6th (at T0 + 5 s) leaves, at T0 + 65 s.
      for (let i = 0; i < 25; i += 1) await store.add('ip', WINDOW, T0 + i * 1000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 30_000)).toBe(35_000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 64_999)).toBe(1);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 65_000)).toBe(0);
    });

    it('waitBelow does not record anything', async () => {
      const store = createMemoryRateLimitStore();
      for (let i = 0; i < 100; i += 1) expect(await store.waitBelow('ip', 1, WINDOW, T0)).toBe(0);
      expect(await store.add('ip', WINDOW, T0)).toBe(1);
    });

    it('take and add on one key share its window', async () => {
      const store = createMemoryRateLimitStore();
      await store.add('k', WINDOW, T0);
      expect(await store.take('k', 2, WINDOW, T0)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
      expect((await store.take('k', 2, WINDOW, T0)).allowed).toBe(false);
    });
  });

  it('stays exact across the periodic sweep of idle keys', async () => {
    const store = createMemoryRateLimitStore();
    await store.take('kept', 2, WINDOW, T0);
    // Enough one-off keys to trigger the sweep (every 10,000 operations) while `kept` is still live.
    for (let i = 0; i < 10_050; i += 1) await store.add(`one-off-${i}`, WINDOW, T0 + 1000);
    expect(await store.take('kept', 2, WINDOW, T0 + 2000)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
    expect((await store.take('kept', 2, WINDOW, T0 + 2000)).allowed).toBe(false);
    // After the window, a swept key starts empty.
    expect(await store.add('one-off-1', WINDOW, T0 + 1000 + WINDOW)).toBe(1);
  });

  it('close forgets every window', async () => {
    const store = createMemoryRateLimitStore();
    await store.take('k', 1, WINDOW, T0);
    await store.close();
    expect((await store.take('k', 1, WINDOW, T0)).allowed).toBe(true);
  });
});
