import { describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';

// What every RateLimitStore does, run on each implementation: exact sliding windows (docs/api-conventions.md:
// "a call counts for 60 seconds after it was admitted"; "a call refused with 429 does not consume
// balance"), the counting behind the IP block (docs/ticket-api.md, Settled details: 20 refusals within 60
// seconds block the IP for the rest of that minute), and the operations of the POS data API's limits: several
// windows taken at once (a key's quota and its account's ceiling), a window where refused calls count too
// (the absolute ceiling), and lease sets (calls in progress).

export const WINDOW = 60_000;
export const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);

/**
 * Declares the contract tests for the stores `openStore` makes. Each test opens a store of its own, with
 * keys no other test sees; closing and cleaning up are the caller's.
 */
export function describeRateLimitStoreContract(openStore: () => Promise<RateLimitStore>): void {
  describe('pushRecent and recent', () => {
    it('keeps the newest entries, newest first, up to `keep` (docs/operations.md, Why did my call fail)', async () => {
      const store = await openStore();
      expect(await store.recent('list', 10)).toEqual([]);
      for (let i = 1; i <= 5; i += 1) await store.pushRecent('list', `entry ${i}`, 3, WINDOW);
      expect(await store.recent('list', 10)).toEqual(['entry 5', 'entry 4', 'entry 3']);
      expect(await store.recent('list', 2)).toEqual(['entry 5', 'entry 4']);
      expect(await store.recent('list', 0)).toEqual([]);
      expect(await store.recent('another list', 10)).toEqual([]);
    });
  });

  describe('take', () => {
    it('admits up to the limit, then refuses (Limits, calls per system)', async () => {
      const store = await openStore();
      expect(await store.take('k', 3, WINDOW, T0)).toEqual({ allowed: true, count: 1, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 10)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 20)).toEqual({ allowed: true, count: 3, oldestAt: T0 });
      expect(await store.take('k', 3, WINDOW, T0 + 30)).toEqual({ allowed: false, count: 3, oldestAt: T0 });
    });

    it('a refused take does not consume balance (docs/api-conventions.md)', async () => {
      const store = await openStore();
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
      const store = await openStore();
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
      const store = await openStore();
      await store.take('a', 1, WINDOW, T0);
      expect((await store.take('a', 1, WINDOW, T0)).allowed).toBe(false);
      expect((await store.take('b', 1, WINDOW, T0)).allowed).toBe(true);
    });

    it('concurrent takes never overspend the balance', async () => {
      const store = await openStore();
      const takes = await Promise.all(Array.from({ length: 50 }, () => store.take('k', 7, WINDOW, T0)));
      expect(takes.filter((take) => take.allowed)).toHaveLength(7);
    });

    it('an empty window reports now as the oldest call', async () => {
      const store = await openStore();
      expect(await store.take('k', 0, WINDOW, T0)).toEqual({ allowed: false, count: 0, oldestAt: T0 });
    });
  });

  describe('add and waitBelow (IP block)', () => {
    it('add records events without limit and returns the count in the window', async () => {
      const store = await openStore();
      for (let i = 1; i <= 25; i += 1) expect(await store.add('ip', WINDOW, T0 + i)).toBe(i);
      expect(await store.add('ip', WINDOW, T0 + WINDOW + 5)).toBe(21);
    });

    it('waitBelow is 0 below the threshold and blocks at it (docs/ticket-api.md, IP block)', async () => {
      const store = await openStore();
      for (let i = 0; i < 19; i += 1) await store.add('ip', WINDOW, T0);
      expect(await store.waitBelow('ip', 20, WINDOW, T0)).toBe(0);
      await store.add('ip', WINDOW, T0);
      expect(await store.waitBelow('ip', 20, WINDOW, T0)).toBe(WINDOW);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 25_000)).toBe(35_000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + WINDOW)).toBe(0);
    });

    it('waitBelow is the real wait until fewer than threshold events remain', async () => {
      const store = await openStore();
      // 25 events, one a second: below 20 once the 6th (at T0 + 5 s) leaves, at T0 + 65 s.
      for (let i = 0; i < 25; i += 1) await store.add('ip', WINDOW, T0 + i * 1000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 30_000)).toBe(35_000);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 64_999)).toBe(1);
      expect(await store.waitBelow('ip', 20, WINDOW, T0 + 65_000)).toBe(0);
    });

    it('waitBelow does not record anything', async () => {
      const store = await openStore();
      for (let i = 0; i < 100; i += 1) expect(await store.waitBelow('ip', 1, WINDOW, T0)).toBe(0);
      expect(await store.add('ip', WINDOW, T0)).toBe(1);
    });

    it('take and add on one key share its window', async () => {
      const store = await openStore();
      await store.add('k', WINDOW, T0);
      expect(await store.take('k', 2, WINDOW, T0)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
      expect((await store.take('k', 2, WINDOW, T0)).allowed).toBe(false);
    });
  });

  describe('takeAll', () => {
    it('counts the call in every window when each has room', async () => {
      const store = await openStore();
      const limits = [
        { key: '{A}:key', limit: 2 },
        { key: '{A}:account', limit: 3 },
      ];
      expect(await store.takeAll(limits, WINDOW, T0)).toEqual({
        allowed: true,
        windows: [
          { allowed: true, count: 1, oldestAt: T0 },
          { allowed: true, count: 1, oldestAt: T0 },
        ],
      });
      expect((await store.take('{A}:account', 3, WINDOW, T0 + 1)).count).toBe(2);
    });

    it('a call refused by one window spends no other window', async () => {
      const store = await openStore();
      await store.take('{A}:account', 1, WINDOW, T0);
      expect(
        await store.takeAll(
          [
            { key: '{A}:key', limit: 5 },
            { key: '{A}:account', limit: 1 },
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
      expect(await store.take('{A}:key', 1, WINDOW, T0 + 20)).toEqual({
        allowed: true,
        count: 1,
        oldestAt: T0 + 20,
      });
    });

    it('the window slides in every key at once', async () => {
      const store = await openStore();
      const limits = [
        { key: '{A}:key', limit: 1 },
        { key: '{A}:account', limit: 2 },
      ];
      await store.takeAll(limits, WINDOW, T0);
      expect((await store.takeAll(limits, WINDOW, T0 + WINDOW - 1)).allowed).toBe(false);
      expect(await store.takeAll(limits, WINDOW, T0 + WINDOW)).toEqual({
        allowed: true,
        windows: [
          { allowed: true, count: 1, oldestAt: T0 + WINDOW },
          { allowed: true, count: 1, oldestAt: T0 + WINDOW },
        ],
      });
    });

    it('concurrent takeAll calls never overspend either window', async () => {
      const store = await openStore();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          store.takeAll(
            [
              { key: `{A}:key-${i % 2}`, limit: 4 },
              { key: '{A}:account', limit: 6 },
            ],
            WINDOW,
            T0,
          ),
        ),
      );
      expect(results.filter((result) => result.allowed)).toHaveLength(6);
    });

    it('refuses the same key twice in one call, counting nothing', async () => {
      const store = await openStore();
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
      expect((await store.take('k', 1, WINDOW, T0)).allowed).toBe(true);
    });

    it('ends the lease it is given in the same operation, whether the call is admitted or refused', async () => {
      const store = await openStore();
      const limits = [
        { key: '{A}:key', limit: 1 },
        { key: '{A}:account', limit: 5 },
      ];
      const lease = async (): Promise<string> => {
        const taken = await store.acquire('checks', 2, WINDOW, T0);
        if (!taken.acquired) throw new Error('no lease');
        return taken.token;
      };
      const [first, second] = [await lease(), await lease()];
      expect((await store.acquire('checks', 2, WINDOW, T0)).acquired).toBe(false);

      // Admitted: the window counts the call and the lease is gone.
      const admitted = await store.takeAll(limits, WINDOW, T0, { key: 'checks', token: first });
      expect(admitted.allowed).toBe(true);
      expect(await store.acquire('checks', 2, WINDOW, T0 + 1)).toMatchObject({ acquired: true, held: 2 });

      // Refused by the key's window: nothing counted, the lease ended all the same.
      const refused = await store.takeAll(limits, WINDOW, T0 + 2, { key: 'checks', token: second });
      expect(refused).toEqual({
        allowed: false,
        windows: [
          { allowed: false, count: 1, oldestAt: T0 },
          { allowed: true, count: 1, oldestAt: T0 },
        ],
      });
      expect(await store.acquire('checks', 2, WINDOW, T0 + 3)).toMatchObject({ acquired: true, held: 2 });

      // A lease already gone (or never held) changes nothing but the take.
      const again = await store.takeAll([{ key: '{B}:key', limit: 1 }], WINDOW, T0 + 4, {
        key: 'checks',
        token: first,
      });
      expect(again.allowed).toBe(true);
      expect(await store.acquire('checks', 2, WINDOW, T0 + 5)).toMatchObject({ acquired: false, held: 2 });
    });
  });

  describe('hit (refused calls count too)', () => {
    it('admits below the limit and counts refused calls, so a steady flood stays refused', async () => {
      const store = await openStore();
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
      const store = await openStore();
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

    it('counts only the calls still in the window, and reports the oldest of them', async () => {
      const store = await openStore();
      await store.hit('k', 3, WINDOW, T0);
      await store.hit('k', 3, WINDOW, T0 + 30_000);
      expect(await store.hit('k', 3, WINDOW, T0 + WINDOW)).toEqual({
        allowed: true,
        count: 2,
        oldestAt: T0 + 30_000,
      });
    });

    it('with a limit of 0 refuses everything and keeps nothing', async () => {
      const store = await openStore();
      await store.hit('k', 2, WINDOW, T0);
      expect(await store.hit('k', 0, WINDOW, T0 + 1)).toEqual({ allowed: false, count: 0, oldestAt: T0 + 1 });
      expect(await store.hit('k', 2, WINDOW, T0 + 2)).toEqual({ allowed: true, count: 1, oldestAt: T0 + 2 });
    });
  });

  describe('acquire and release (leases)', () => {
    it('grants leases up to the limit and refuses the next', async () => {
      const store = await openStore();
      const first = await store.acquire('q', 2, 30_000, T0);
      const second = await store.acquire('q', 2, 30_000, T0);
      expect(first).toMatchObject({ acquired: true, held: 1 });
      expect(second).toMatchObject({ acquired: true, held: 2 });
      expect(await store.acquire('q', 2, 30_000, T0)).toEqual({ acquired: false, held: 2 });
      if (!first.acquired || !second.acquired) throw new Error('unreachable');
      expect(first.token).not.toBe(second.token);
    });

    it('a released lease frees its place; releasing twice or an unknown token does nothing', async () => {
      const store = await openStore();
      const lease = await store.acquire('q', 1, 30_000, T0);
      if (!lease.acquired) throw new Error('not acquired');
      await store.release('q', lease.token);
      await store.release('q', lease.token);
      await store.release('q', 'unknown');
      await store.release('never-used', 'unknown');
      expect(await store.acquire('q', 1, 30_000, T0)).toMatchObject({ acquired: true, held: 1 });
    });

    it('a lease not released expires after leaseMs (a process that died)', async () => {
      const store = await openStore();
      await store.acquire('q', 1, 30_000, T0);
      expect((await store.acquire('q', 1, 30_000, T0 + 29_999)).acquired).toBe(false);
      expect((await store.acquire('q', 1, 30_000, T0 + 30_000)).acquired).toBe(true);
    });

    it('release with keep keeps the lease counting until that instant', async () => {
      const store = await openStore();
      const lease = await store.acquire('q', 1, 1000, T0);
      if (!lease.acquired) throw new Error('not acquired');
      await store.release('q', lease.token, { until: T0 + 60_000, now: T0 });
      expect((await store.acquire('q', 1, 1000, T0 + 59_999)).acquired).toBe(false);
      expect((await store.acquire('q', 1, 1000, T0 + 60_000)).acquired).toBe(true);
    });

    it('release with keep of a token the set no longer holds counts it until then (a failure without a lease)', async () => {
      const store = await openStore();
      const lease = await store.acquire('q', 2, 30_000, T0);
      if (!lease.acquired) throw new Error('not acquired');
      await store.release('q', lease.token);
      await store.release('q', 'failure', { until: T0 + WINDOW, now: T0 });
      expect(await store.acquire('q', 2, 30_000, T0 + 1)).toMatchObject({ acquired: true, held: 2 });
      expect(await store.acquire('q', 2, 30_000, T0 + 2)).toEqual({ acquired: false, held: 2 });
      expect(await store.acquire('q', 1, 30_000, T0 + WINDOW)).toMatchObject({ acquired: true, held: 1 });
    });

    it('release with keep on a key never used creates its lease set', async () => {
      const store = await openStore();
      await store.release('q', 'failure', { until: T0 + WINDOW, now: T0 });
      expect(await store.acquire('q', 1, 1000, T0)).toEqual({ acquired: false, held: 1 });
      expect(await store.acquire('q', 1, 1000, T0 + WINDOW)).toMatchObject({ acquired: true, held: 1 });
    });

    it('concurrent acquires never exceed the limit', async () => {
      const store = await openStore();
      const leases = await Promise.all(Array.from({ length: 30 }, () => store.acquire('q', 3, 30_000, T0)));
      expect(leases.filter((lease) => lease.acquired)).toHaveLength(3);
    });
  });

  describe('admitInOrder (the limits before a key, in one operation)', () => {
    const block = { op: 'waitBelow', key: 'block', threshold: 2, windowMs: WINDOW } as const;
    const ceiling = { op: 'hit', key: 'ceiling', limit: 2, windowMs: WINDOW } as const;
    const checks = { op: 'acquire', key: 'checks', limit: 1, leaseMs: WINDOW } as const;

    it('runs every step when none refuses, each answering as its own operation', async () => {
      const store = await openStore();
      const results = await store.admitInOrder([block, ceiling, checks], T0);
      expect(results.slice(0, 2)).toEqual([
        { op: 'waitBelow', waitMs: 0 },
        { op: 'hit', take: { allowed: true, count: 1, oldestAt: T0 } },
      ]);
      expect(results[2]).toMatchObject({ op: 'acquire', lease: { acquired: true, held: 1 } });
      // The lease is real: the set is full, and releasing its token frees it.
      expect((await store.acquire('checks', 1, WINDOW, T0 + 1)).acquired).toBe(false);
      const lease = results[2];
      if (lease?.op !== 'acquire' || !lease.lease.acquired) throw new Error('no lease');
      await store.release('checks', lease.lease.token);
      expect((await store.acquire('checks', 1, WINDOW, T0 + 2)).acquired).toBe(true);
    });

    it('stops after the first step that refuses: the later steps count nothing', async () => {
      const store = await openStore();
      await store.add('block', WINDOW, T0);
      await store.add('block', WINDOW, T0 + 1_000);
      expect(await store.admitInOrder([block, ceiling, checks], T0 + 2_000)).toEqual([
        { op: 'waitBelow', waitMs: WINDOW - 2_000 },
      ]);
      // Neither the ceiling nor the lease set was touched.
      expect(await store.hit('ceiling', 2, WINDOW, T0 + 2_000)).toEqual({
        allowed: true,
        count: 1,
        oldestAt: T0 + 2_000,
      });
      expect(await store.acquire('checks', 1, WINDOW, T0 + 2_000)).toMatchObject({ acquired: true });

      // A refused hit still counts (as `hit` does), and the lease after it is not taken.
      const other = await openStore();
      await other.hit('ceiling', 2, WINDOW, T0);
      await other.hit('ceiling', 2, WINDOW, T0);
      expect(await other.admitInOrder([block, ceiling, checks], T0 + 10)).toEqual([
        { op: 'waitBelow', waitMs: 0 },
        { op: 'hit', take: { allowed: false, count: 2, oldestAt: T0 } },
      ]);
      expect(await other.acquire('checks', 1, WINDOW, T0 + 20)).toMatchObject({ acquired: true, held: 1 });
      // A refusing last step is answered too.
      expect(await other.admitInOrder([checks], T0 + 30)).toEqual([
        { op: 'acquire', lease: { acquired: false, held: 1 } },
      ]);
    });
  });

  it('ping resolves while the store answers', async () => {
    const store = await openStore();
    await expect(store.ping()).resolves.toBeUndefined();
  });
}
