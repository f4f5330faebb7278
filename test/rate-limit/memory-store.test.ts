import { describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import { describeRateLimitStoreContract, T0, WINDOW } from './store-contract.js';

// The in-process RateLimitStore: the contract every store keeps, then what only this one does (sweeping
// idle keys so that a stream of one-off IPs does not grow the process for ever; forgetting on close).

describe('memory rate-limit store', () => {
  describeRateLimitStoreContract(() => Promise.resolve(createMemoryRateLimitStore()));

  describe('sweep of idle keys', () => {
    it('stays exact across the periodic sweep of idle keys', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('kept', 2, WINDOW, T0);
      // Enough one-off keys to trigger the sweep (every 10,000 operations) while `kept` is still live.
      for (let i = 0; i < 10_050; i += 1) await store.add(`one-off-${i}`, WINDOW, T0 + 1000);
      expect(await store.take('kept', 2, WINDOW, T0 + 2000)).toEqual({
        allowed: true,
        count: 2,
        oldestAt: T0,
      });
      expect((await store.take('kept', 2, WINDOW, T0 + 2000)).allowed).toBe(false);
      // After the window, a swept key starts empty.
      expect(await store.add('one-off-1', WINDOW, T0 + 1000 + WINDOW)).toBe(1);
    });

    it('lease sets survive the periodic sweep while live, and are dropped once expired', async () => {
      const store = createMemoryRateLimitStore();
      await store.acquire('kept', 1, 120_000, T0);
      await store.acquire('gone', 1, 1000, T0);
      for (let i = 0; i < 10_050; i += 1) await store.add(`one-off-${i}`, WINDOW, T0 + 5000);
      expect((await store.acquire('kept', 1, 120_000, T0 + 5000)).acquired).toBe(false);
      expect((await store.acquire('gone', 1, 1000, T0 + 5000)).acquired).toBe(true);
    });

    it('a call made on the operation that triggers the sweep is not lost', async () => {
      const store = createMemoryRateLimitStore();
      // 9,999 operations, then the 10,000th (which sweeps) takes on a fresh key.
      for (let i = 0; i < 9_999; i += 1) await store.add(`one-off-${i}`, WINDOW, T0);
      expect((await store.take('fresh', 1, WINDOW, T0 + WINDOW)).allowed).toBe(true);
      expect((await store.take('fresh', 1, WINDOW, T0 + WINDOW)).allowed).toBe(false);
    });
  });

  describe('close', () => {
    it('close forgets every window', async () => {
      const store = createMemoryRateLimitStore();
      await store.take('k', 1, WINDOW, T0);
      await store.close();
      expect((await store.take('k', 1, WINDOW, T0)).allowed).toBe(true);
    });

    it('close forgets every lease', async () => {
      const store = createMemoryRateLimitStore();
      await store.acquire('q', 1, 30_000, T0);
      await store.close();
      expect((await store.acquire('q', 1, 30_000, T0)).acquired).toBe(true);
    });
  });
});
