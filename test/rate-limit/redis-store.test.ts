import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore, type RedisStoreOptions } from '../../src/rate-limit/redis-store.js';
import { freePort } from '../support/server-process.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { timeUntil } from '../support/timing.js';
import { describeRateLimitStoreContract, T0, WINDOW } from './store-contract.js';

// The Redis RateLimitStore, which a fleet of processes shares (issue "Run as a fleet"): the contract every
// store keeps, the same results as the in-process store for any sequence of operations, no overspending
// across processes, keys under the service's prefix, and failing fast while Redis is unreachable or
// silent (docs/api-conventions.md: the callers then go on unmeasured), recovering by itself when it returns.

const redisUrl = process.env.TEST_REDIS_URL;
const skipped = redisUrl === undefined;

/** A key prefix no other test or run shares. */
const newPrefix = () => `test:${randomBytes(6).toString('hex')}:`;

/** Whether the store answers a ping now. */
const answers = (store: RateLimitStore): Promise<boolean> =>
  store.ping().then(
    () => true,
    () => false,
  );

/** A log that keeps what the store reports. */
function recordingLog() {
  const warnings: string[] = [];
  const infos: string[] = [];
  return {
    warnings,
    infos,
    warn(_obj: object, msg: string) {
      warnings.push(msg);
    },
    info(_obj: object, msg: string) {
      infos.push(msg);
    },
  };
}

/** How long `operation` took to settle, and what it failed with. */
async function timed(operation: () => Promise<unknown>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  try {
    await operation();
    return { ms: performance.now() - started, error: undefined };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

/** One call of every operation, each on keys of its own kind. */
function everyOperation(store: RateLimitStore): Record<string, () => Promise<unknown>> {
  return {
    take: () => store.take('w', 1, WINDOW, T0),
    takeAll: () => store.takeAll([{ key: '{a}:w', limit: 1 }], WINDOW, T0),
    hit: () => store.hit('h', 1, WINDOW, T0),
    add: () => store.add('w', WINDOW, T0),
    waitBelow: () => store.waitBelow('w', 1, WINDOW, T0),
    acquire: () => store.acquire('l', 1, 30_000, T0),
    release: () => store.release('l', 'token'),
    'release with keep': () => store.release('l', 'token', { until: T0 + WINDOW, now: T0 }),
    ping: () => store.ping(),
  };
}

/** A proxy in front of the test Redis, to hang it (`freeze`) without touching the Redis others use. */
function startRedisProxy(base: string): Promise<TcpProxy> {
  const target = new URL(base);
  return startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 6379) });
}

describe('Redis rate-limit store, Redis unreachable (no Redis needed)', () => {
  const COMMAND_TIMEOUT_MS = 200;

  it('refused connections: the store connects within 2 s anyway, every operation fails at once, one warning per outage', async () => {
    const log = recordingLog();
    // A port of 127.0.0.1 that nothing listens on: connections are refused.
    const url = `redis://127.0.0.1:${await freePort()}`;
    const started = performance.now();
    const store = await connectRedisRateLimitStore({
      url,
      keyPrefix: newPrefix(),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      log,
    });
    try {
      expect(performance.now() - started).toBeLessThan(2000);
      for (const [name, operation] of Object.entries(everyOperation(store))) {
        const { ms, error } = await timed(operation);
        expect(error, name).toBeInstanceOf(Error);
        expect(ms, name).toBeLessThan(COMMAND_TIMEOUT_MS);
      }
      // Several reconnection attempts later (50, 100, 200, 400 ms apart), still one warning.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await expect(store.take('w', 1, WINDOW, T0)).rejects.toThrow(Error);
      expect(log.warnings).toHaveLength(1);
      expect(log.infos).toEqual([]);
    } finally {
      const closing = await timed(() => store.close());
      expect(closing.error).toBeUndefined();
      expect(closing.ms).toBeLessThan(1000);
    }
  });

  it('a server that accepts but never answers: the store connects within 2 s anyway, every operation fails within the command timeout', async () => {
    // Nothing behind it: blackholed, the proxy accepts connections and never answers them.
    const silent = await startTcpProxy({ targetHost: '127.0.0.1', targetPort: await freePort() });
    silent.blackhole();
    const log = recordingLog();
    const started = performance.now();
    const store = await connectRedisRateLimitStore({
      url: silent.url('redis://127.0.0.1:6379'),
      keyPrefix: newPrefix(),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      log,
    });
    try {
      expect(performance.now() - started).toBeLessThan(2000);
      for (const [name, operation] of Object.entries(everyOperation(store))) {
        const { ms, error } = await timed(operation);
        expect(error, name).toBeInstanceOf(Error);
        expect(ms, name).toBeLessThan(COMMAND_TIMEOUT_MS + 300);
      }
      expect(log.warnings).toHaveLength(1);
    } finally {
      const closing = await timed(() => store.close());
      expect(closing.error).toBeUndefined();
      expect(closing.ms).toBeLessThan(COMMAND_TIMEOUT_MS + 1000);
      await silent.close();
    }
  });
});

describe.skipIf(skipped)(
  `Redis rate-limit store${skipped ? ' (skipped, TEST_REDIS_URL is not set)' : ''}`,
  () => {
    /** A plain client, without prefix, that reads and deletes the raw keys. */
    let admin: Redis;
    const opened: RateLimitStore[] = [];
    const prefixes: string[] = [];

    /** A store of the test's own (a prefix of its own unless given), closed and cleaned up after it. */
    async function open(options: Partial<RedisStoreOptions> = {}): Promise<RateLimitStore> {
      const keyPrefix = options.keyPrefix ?? newPrefix();
      prefixes.push(keyPrefix);
      const store = await connectRedisRateLimitStore({
        url: redisUrl ?? '',
        commandTimeoutMs: 2000,
        ...options,
        keyPrefix,
      });
      opened.push(store);
      return store;
    }

    async function rawKeys(prefix: string): Promise<string[]> {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        keys.push(...found);
        cursor = next;
      } while (cursor !== '0');
      return keys.sort();
    }

    beforeAll(() => {
      admin = new Redis(redisUrl ?? '', { lazyConnect: false });
    });

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
      for (const prefix of prefixes.splice(0)) {
        const keys = await rawKeys(prefix);
        if (keys.length > 0) await admin.unlink(...keys);
      }
    });

    afterAll(async () => {
      await admin.quit();
    });

    describeRateLimitStoreContract(() => open());

    describe('shared by a fleet', () => {
      it('50 concurrent takes from two processes on one key with limit 7 admit exactly 7', async () => {
        const keyPrefix = newPrefix();
        const [one, two] = [await open({ keyPrefix }), await open({ keyPrefix })];
        const takes = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).take('k', 7, WINDOW, T0)),
        );
        expect(takes.filter((take) => take.allowed)).toHaveLength(7);
        expect(await one.take('k', 7, WINDOW, T0)).toEqual({ allowed: false, count: 7, oldestAt: T0 });
      });

      it('50 concurrent acquires from two processes with limit 2 grant exactly 2 leases', async () => {
        const keyPrefix = newPrefix();
        const [one, two] = [await open({ keyPrefix }), await open({ keyPrefix })];
        const leases = await Promise.all(
          Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? one : two).acquire('q', 2, 30_000, T0)),
        );
        expect(leases.filter((lease) => lease.acquired)).toHaveLength(2);
        expect(await rawKeys(keyPrefix)).toEqual([`${keyPrefix}q`]);
        expect(await admin.zcard(`${keyPrefix}q`)).toBe(2);
      });

      it('50 concurrent takeAll from two processes never overspend the account ceiling nor a key quota', async () => {
        const keyPrefix = newPrefix();
        const [one, two] = [await open({ keyPrefix }), await open({ keyPrefix })];
        const results = await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            (i % 2 === 0 ? one : two).takeAll(
              [
                { key: `{A}:key-${i % 3}`, limit: 3 },
                { key: '{A}:account', limit: 7 },
              ],
              WINDOW,
              T0,
            ),
          ),
        );
        expect(results.filter((result) => result.allowed)).toHaveLength(7);
        const perKey = [0, 1, 2].map(
          (k) => results.filter((result, i) => result.allowed && i % 3 === k).length,
        );
        for (const admitted of perKey) expect(admitted).toBeLessThanOrEqual(3);
        expect(await admin.zcard(`${keyPrefix}{A}:account`)).toBe(7);
      });

      it('every key carries the prefix, and expires by itself', async () => {
        const keyPrefix = newPrefix();
        const store = await open({ keyPrefix });
        await store.take('w', 1, WINDOW, T0);
        await store.takeAll([{ key: '{A}:key', limit: 1 }], WINDOW, T0);
        await store.hit('h', 1, WINDOW, T0);
        await store.add('ip', WINDOW, T0);
        await store.waitBelow('ip', 1, WINDOW, T0);
        const lease = await store.acquire('l', 1, 30_000, T0);
        await store.release('kept', 'failure', { until: T0 + WINDOW, now: T0 });
        const names = ['w', '{A}:key', 'h', 'ip', 'l', 'kept'];
        expect(await rawKeys(keyPrefix)).toEqual(names.map((name) => `${keyPrefix}${name}`).sort());
        expect(await admin.type(`${keyPrefix}w`)).toBe('zset');
        expect(await admin.type(`${keyPrefix}h`)).toBe('list');
        for (const name of names) {
          const ttl = await admin.pttl(`${keyPrefix}${name}`);
          expect(ttl, name).toBeGreaterThan(0);
          expect(ttl, name).toBeLessThanOrEqual(WINDOW);
        }
        // A lease kept after its call (a wrong-key failure, for a minute) keeps its key that long.
        if (!lease.acquired) throw new Error('not acquired');
        expect(await admin.pttl(`${keyPrefix}l`)).toBeLessThanOrEqual(30_000);
        await store.release('l', lease.token, { until: T0 + WINDOW, now: T0 });
        expect(await admin.pttl(`${keyPrefix}l`)).toBeGreaterThan(30_000);
      });

      it('the scripts survive a SCRIPT FLUSH (as after a Redis restart)', async () => {
        const store = await open();
        await store.take('k', 2, WINDOW, T0);
        await admin.script('FLUSH');
        expect(await store.take('k', 2, WINDOW, T0 + 1)).toEqual({ allowed: true, count: 2, oldestAt: T0 });
        expect(await store.acquire('q', 1, 30_000, T0)).toMatchObject({ acquired: true, held: 1 });
      });
    });

    describe('same results as the in-process store', () => {
      const WINDOW_KEYS = ['{a}:w1', '{a}:w2', 'w3'] as const;
      const HIT_KEYS = ['h1', 'h2'] as const;
      const LEASE_KEYS = ['l1', 'l2'] as const;
      // Windows and leases long enough that no key expires in Redis's time while a run lasts, whatever the
      // run's own clock does. Steps mostly on a grid of 500 ms, so that calls often land exactly on the
      // boundary of a window or the expiry of a lease; sometimes one millisecond either side, or anything.
      const windowMs = fc.constantFrom(2000, 3000, WINDOW);
      const limit = fc.integer({ min: 0, max: 4 });
      const step = fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(0, 500, 1000) },
        { weight: 2, arbitrary: fc.constantFrom(1, 1999, 2000, 2001, 30_000, 60_000) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 70_000 }) },
      );
      const operation = fc.oneof(
        fc.record({
          kind: fc.constant('take' as const),
          step,
          key: fc.constantFrom(...WINDOW_KEYS),
          limit,
          windowMs,
        }),
        fc.record({
          kind: fc.constant('takeAll' as const),
          step,
          windows: fc.array(fc.record({ key: fc.constantFrom(...WINDOW_KEYS), limit }), { maxLength: 3 }),
          windowMs,
        }),
        fc.record({
          kind: fc.constant('hit' as const),
          step,
          key: fc.constantFrom(...HIT_KEYS),
          limit,
          windowMs,
        }),
        fc.record({
          kind: fc.constant('add' as const),
          step,
          key: fc.constantFrom(...WINDOW_KEYS),
          windowMs,
        }),
        fc.record({
          kind: fc.constant('waitBelow' as const),
          step,
          key: fc.constantFrom(...WINDOW_KEYS),
          threshold: limit,
          windowMs,
        }),
        fc.record({
          kind: fc.constant('acquire' as const),
          step,
          key: fc.constantFrom(...LEASE_KEYS),
          limit: fc.integer({ min: 0, max: 3 }),
          leaseMs: fc.constantFrom(2000, 3000, 30_000),
        }),
        fc.record({
          kind: fc.constant('admitInOrder' as const),
          step,
          steps: fc.array(
            fc.oneof(
              fc.record({
                op: fc.constant('waitBelow' as const),
                key: fc.constantFrom(...WINDOW_KEYS),
                threshold: limit,
                windowMs,
              }),
              fc.record({
                op: fc.constant('hit' as const),
                key: fc.constantFrom(...HIT_KEYS),
                limit,
                windowMs,
              }),
              fc.record({
                op: fc.constant('acquire' as const),
                key: fc.constantFrom(...LEASE_KEYS),
                limit: fc.integer({ min: 0, max: 3 }),
                leaseMs: fc.constantFrom(2000, 3000, 30_000),
              }),
            ),
            { minLength: 1, maxLength: 3 },
          ),
        }),
        fc.record({
          kind: fc.constant('release' as const),
          step,
          key: fc.constantFrom(...LEASE_KEYS),
          lease: fc.nat(),
          keepFor: fc.option(fc.constantFrom(-1000, 0, 1000, 2000, WINDOW), { nil: undefined }),
        }),
      );
      type Operation = typeof operation extends fc.Arbitrary<infer O> ? O : never;

      /** Runs `op` on `store`; what it answered, tokens left out (they are random), or 'rejected'. */
      async function apply(
        store: RateLimitStore,
        op: Operation,
        now: number,
        tokens: string[],
      ): Promise<unknown> {
        try {
          switch (op.kind) {
            case 'take':
              return await store.take(op.key, op.limit, op.windowMs, now);
            case 'takeAll':
              return await store.takeAll(op.windows, op.windowMs, now);
            case 'hit':
              return await store.hit(op.key, op.limit, op.windowMs, now);
            case 'add':
              return await store.add(op.key, op.windowMs, now);
            case 'waitBelow':
              return await store.waitBelow(op.key, op.threshold, op.windowMs, now);
            case 'acquire': {
              const lease = await store.acquire(op.key, op.limit, op.leaseMs, now);
              if (lease.acquired) tokens.push(lease.token);
              return { acquired: lease.acquired, held: lease.held };
            }
            case 'admitInOrder': {
              const results = await store.admitInOrder(op.steps, now);
              return results.map((result) => {
                if (result.op !== 'acquire') return result;
                if (result.lease.acquired) tokens.push(result.lease.token);
                return { op: result.op, acquired: result.lease.acquired, held: result.lease.held };
              });
            }
            case 'release': {
              // A lease of any key, or (one time in length + 1) a token never granted.
              const token = tokens[op.lease % (tokens.length + 1)] ?? 'unknown';
              await store.release(
                op.key,
                token,
                op.keepFor === undefined ? undefined : { until: now + op.keepFor, now },
              );
              return 'released';
            }
          }
        } catch {
          return 'rejected';
        }
      }

      it('random sequences of every operation answer exactly as in the in-process store (property)', async () => {
        const runs = newPrefix();
        let run = 0;
        await fc.assert(
          fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 60, size: 'max' }), async (ops) => {
            const memory = createMemoryRateLimitStore();
            const redis = await open({ keyPrefix: `${runs}${run++}:` });
            // The run's clock starts at the real time (the store's and the caller's clocks agree, as in
            // service) and moves on by random steps.
            let now = Date.now();
            const memoryTokens: string[] = [];
            const redisTokens: string[] = [];
            try {
              for (const [i, op] of ops.entries()) {
                now += op.step;
                const expected = await apply(memory, op, now, memoryTokens);
                const actual = await apply(redis, op, now, redisTokens);
                expect(actual, `operation ${i}: ${JSON.stringify(op)}`).toEqual(expected);
              }
            } finally {
              await redis.close();
            }
          }),
          { numRuns: 200 },
        );
        prefixes.push(runs);
      });
    });

    it('a command that fails while Redis is up (a key of the wrong type) is logged, once a minute at most', async () => {
      const log = recordingLog();
      const store = await open({ log });
      await store.hit('clash', 5, WINDOW, T0); // a list
      await expect(store.take('clash', 5, WINDOW, T0)).rejects.toThrow(/WRONGTYPE/);
      await expect(store.add('clash', WINDOW, T0)).rejects.toThrow(/WRONGTYPE/);
      expect(log.warnings).toEqual(['Redis rate-limit command failed: the call goes on unmeasured']);
    });

    describe('Redis hung or gone (fail fast, recover by itself)', () => {
      const COMMAND_TIMEOUT_MS = 200;

      it('Redis stops answering: operations fail after about the command timeout; the store recovers within a second or two once it answers', async () => {
        const proxy = await startRedisProxy(redisUrl ?? '');
        const log = recordingLog();
        try {
          const store = await open({
            url: proxy.url(redisUrl ?? ''),
            commandTimeoutMs: COMMAND_TIMEOUT_MS,
            log,
          });
          expect(await store.take('k', 5, WINDOW, T0)).toEqual({ allowed: true, count: 1, oldestAt: T0 });

          proxy.freeze();
          const hung = await timed(() => store.take('k', 5, WINDOW, T0));
          expect(hung.error).toBeInstanceOf(Error);
          expect(hung.ms).toBeGreaterThanOrEqual(COMMAND_TIMEOUT_MS * 0.8);
          expect(hung.ms).toBeLessThan(COMMAND_TIMEOUT_MS * 5);
          await expect(store.ping()).rejects.toThrow(Error);
          // The silent connection is dropped (its commands never reach Redis) and reported once.
          await timeUntil(() => Promise.resolve(log.warnings.length > 0), 5000);

          await proxy.restore();
          const took = await timeUntil(() => answers(store), 5000);
          expect(took).toBeLessThan(2000);
          // Measured again. The call that timed out may still have run once Redis resumed (as with a Redis
          // that was stopped, then continued): a timeout says the answer is unknown, not that nothing happened.
          const after = await store.take('k', 5, WINDOW, T0 + 1);
          expect(after).toMatchObject({ allowed: true, oldestAt: T0 });
          expect([2, 3]).toContain(after.count);
          expect(log.warnings).toHaveLength(1);
          expect(log.infos).toHaveLength(1);
        } finally {
          await proxy.close();
        }
      });

      it('Redis not answering at start: the store connects anyway, fails fast, and starts measuring once Redis answers', async () => {
        const proxy = await startRedisProxy(redisUrl ?? '');
        proxy.freeze();
        const log = recordingLog();
        try {
          const started = performance.now();
          const store = await open({
            url: proxy.url(redisUrl ?? ''),
            commandTimeoutMs: COMMAND_TIMEOUT_MS,
            log,
          });
          expect(performance.now() - started).toBeLessThan(2000);
          for (const [name, operation] of Object.entries(everyOperation(store))) {
            const { ms, error } = await timed(operation);
            expect(error, name).toBeInstanceOf(Error);
            expect(ms, name).toBeLessThan(COMMAND_TIMEOUT_MS * 5);
          }

          await proxy.restore();
          const took = await timeUntil(() => answers(store), 5000);
          expect(took).toBeLessThan(2000);
          expect(await store.take('k', 1, WINDOW, T0)).toEqual({ allowed: true, count: 1, oldestAt: T0 });
          expect(log.warnings).toHaveLength(1);
          expect(log.infos).toHaveLength(1);
        } finally {
          await proxy.close();
        }
      });
    });
  },
);
