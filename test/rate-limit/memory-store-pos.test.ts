import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';

// The operations the POS data API's limits add to the RateLimitStore port: several windows taken at once
// (a key's quota and its account's ceiling), a window where refused calls count too (the absolute
// ceiling), and lease sets (calls in progress).

const WINDOW = 60_000;
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

describe('memory rate-limit store, POS operations', () => {
  describe('takeAll', () => {
    it('counts the call in every window when each has room', async () => {
      const store = createMemoryRateLimitStore();
      const limits = [
        { key: 'key', limit: 2 },
        { key: 'account', limit: 3 },
      ];
      expect(await store.takeAll(limits, WINDOW, T0)).toEqual({
        allowed: true,
        windows: [
          { allowed: true, count: 1, oldestAt: T0 },
          { allowed: true, count: 1, oldestAt: T0 },
        ],
      });
      expect((await store.take('account', 3, WINDOW, T0 + 1)).count).toBe(2);
    });

    it('a call refused by one window spends no other window', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('account', 1, WINDOW, T0);
      expect(
        await store.takeAll(
          [
            { key: 'key', limit: 5 },
            { key: 'account', limit: 1 },
          ],
          WINDOW,
          T0 + 10,
        ),
      ).toEqual({
        allowed: false,
        windows: [
          { allowed: true, count: 0, oldestAt: T0 + 10 },
          { allowed: false, count: 1, oldestAt: T0 },
        ],
      });
      expect(await store.take('key', 1, WINDOW, T0 + 20)).toEqual({
        allowed: true,
        count: 1,
        oldestAt: T0 + 20,
      });
    });

    it('concurrent takeAll calls never overspend either window', async () => {
      const store = createMemoryRateLimitStore();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.takeAll(
            [
              { key: `key-${i % 2}`, limit: 4 },
              { key: 'account', limit: 6 },
            ],
            WINDOW,
            T0,
          ),
        ),
      );
      expect(results.filter((result) => result.allowed)).toHaveLength(6);
    });

    it('refuses the same key twice in one call', async () => {
      const store = createMemoryRateLimitStore();
      await expect(
        store.takeAll(
          [
            { key: 'k', limit: 1 },
            { key: 'k', limit: 1 },
          ],
          WINDOW,
          T0,
        ),
      ).rejects.toThrow();
    });
  });

  describe('hit (refused calls count too)', () => {
    it('admits below the limit and counts refused calls, so a steady flood stays refused', async () => {
      const store = createMemoryRateLimitStore();
      for (let i = 0; i < 3; i += 1) expect((await store.hit('k', 3, WINDOW, T0 + i)).allowed).toBe(true);
      // A refused call every 10 s: the admitted ones leave the window, the refused ones keep it full.
      for (let t = 10_000; t <= 180_000; t += 10_000)
        expect((await store.hit('k', 3, WINDOW, T0 + t)).allowed).toBe(false);
      // Just before 210 s the refused calls at 150 to 180 s fill the window; this refusal counts too.
      // At 230 s two calls remain (180 s and 209.999 s): admitted.
      expect((await store.hit('k', 3, WINDOW, T0 + 209_999)).allowed).toBe(false);
      expect((await store.hit('k', 3, WINDOW, T0 + 230_000)).allowed).toBe(true);
    });

    it('keeps at most limit timestamps per key', async () => {
      const store = createMemoryRateLimitStore();
      for (let i = 0; i < 1000; i += 1) await store.hit('k', 5, WINDOW, T0 + i);
      expect(await store.hit('k', 5, WINDOW, T0 + 1000)).toEqual({
        allowed: false,
        count: 5,
        oldestAt: T0 + 996,
      });
      // The newest five decide, as an exact window would: five calls in (T0 + 995, T0 + 995 + 60 s].
      expect((await store.hit('k', 5, WINDOW, T0 + 995 + WINDOW)).allowed).toBe(false);
      expect((await store.hit('k', 5, WINDOW, T0 + 1001 + WINDOW)).allowed).toBe(true);
    });
  });

  describe('acquire and release (leases)', () => {
    it('grants leases up to the limit and refuses the next', async () => {
      const store = createMemoryRateLimitStore();
      const first = await store.acquire('q', 2, 30_000, T0);
      const second = await store.acquire('q', 2, 30_000, T0);
      expect(first).toMatchObject({ acquired: true, held: 1 });
      expect(second).toMatchObject({ acquired: true, held: 2 });
      expect(await store.acquire('q', 2, 30_000, T0)).toEqual({ acquired: false, held: 2 });
      if (!first.acquired || !second.acquired) throw new Error('unreachable');
      expect(first.token).not.toBe(second.token);
    });

    it('a released lease frees its place; releasing twice or an unknown token does nothing', async () => {
      const store = createMemoryRateLimitStore();
      const lease = await store.acquire('q', 1, 30_000, T0);
      if (!lease.acquired) throw new Error('not acquired');
      await store.release('q', lease.token);
      await store.release('q', lease.token);
      await store.release('q', 'unknown');
      expect(await store.acquire('q', 1, 30_000, T0)).toMatchObject({ acquired: true, held: 1 });
    });

    it('a lease not released expires after leaseMs (a process that died)', async () => {
      const store = createMemoryRateLimitStore();
      await store.acquire('q', 1, 30_000, T0);
      expect((await store.acquire('q', 1, 30_000, T0 + 29_999)).acquired).toBe(false);
      expect((await store.acquire('q', 1, 30_000, T0 + 30_000)).acquired).toBe(true);
    });

    it('release with keepUntil keeps the lease counting until that instant', async () => {
      const store = createMemoryRateLimitStore();
      const lease = await store.acquire('q', 1, 1000, T0);
      if (!lease.acquired) throw new Error('not acquired');
      await store.release('q', lease.token, T0 + 60_000);
      expect((await store.acquire('q', 1, 1000, T0 + 59_999)).acquired).toBe(false);
      expect((await store.acquire('q', 1, 1000, T0 + 60_000)).acquired).toBe(true);
    });

    it('concurrent acquires never exceed the limit', async () => {
      const store = createMemoryRateLimitStore();
      const leases = await Promise.all(Array.from({ length: 30 }, () => store.acquire('q', 3, 30_000, T0)));
      expect(leases.filter((lease) => lease.acquired)).toHaveLength(3);
    });

    it('lease sets survive the periodic sweep while live, and are dropped once expired', async () => {
      const store = createMemoryRateLimitStore();
      await store.acquire('kept', 1, 120_000, T0);
      await store.acquire('gone', 1, 1000, T0);
      for (let i = 0; i < 10_050; i += 1) await store.add(`one-off-${i}`, WINDOW, T0 + 5000);
      expect((await store.acquire('kept', 1, 120_000, T0 + 5000)).acquired).toBe(false);
      expect((await store.acquire('gone', 1, 1000, T0 + 5000)).acquired).toBe(true);
    });
  });

  it('a call made on the operation that triggers the sweep is not lost', async () => {
    const store = createMemoryRateLimitStore();
    // 9,999 operations, then the 10,000th (which sweeps) takes on a fresh key.
    for (let i = 0; i < 9_999; i += 1) await store.add(`one-off-${i}`, WINDOW, T0);
    expect((await store.take('fresh', 1, WINDOW, T0 + WINDOW)).allowed).toBe(true);
    expect((await store.take('fresh', 1, WINDOW, T0 + WINDOW)).allowed).toBe(false);
  });

  it('close forgets every lease', async () => {
    const store = createMemoryRateLimitStore();
    await store.acquire('q', 1, 30_000, T0);
    await store.close();
    expect((await store.acquire('q', 1, 30_000, T0)).acquired).toBe(true);
  });
});
