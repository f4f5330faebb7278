import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createLifecycle } from '../../src/lifecycle/lifecycle.js';
import {
  createHealthProbe,
  HEALTH_PROBE_TIMEOUT_MS,
  type HealthReport,
} from '../../src/lifecycle/health-probe.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { describeEachDialect, ManualClock, redisUrl, testApp, testConfig, useTestApp } from '../helper.js';
import { freePort } from '../support/server-process.js';
import { startTcpProxy } from '../support/tcp-proxy.js';

// The database's and Redis's health for the console's dashboard (issue 14): the questions of GET /readyz,
// timed, each within a short time limit (a dependency that does not answer leaves the page slower by that
// much at most), the reason of a failure in words, never a password.

/** A password with a character written encoded in a URL (`%40` is `@`): both spellings must stay hidden. */
const PASSWORD_IN_URL = 'hunter2%40vault';
const PASSWORD = 'hunter2@vault';

/** The probe's report and how long it took (ms). */
async function timedProbe(probe: () => Promise<HealthReport>) {
  const started = performance.now();
  const report = await probe();
  return { report, ms: performance.now() - started };
}

/** A migrated SQLite database in memory, for the suites that do not need the dialects. */
async function sqliteDb(): Promise<Db> {
  const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
  await migrateToLatest(db);
  return db;
}

const lifecycle = () => createLifecycle({ clock: new ManualClock() });

describeEachDialect('health probe', (dialect) => {
  const t = useTestApp(dialect);

  it('a healthy service: the database answers, with its dialect and latency; no Redis configured; not draining', async () => {
    const report = await t.services.health.probe();
    expect(report).toEqual({
      database: { ok: true, latencyMs: expect.any(Number) as number, dialect: dialect.name },
      redis: { configured: false },
      draining: false,
    });
    expect(report.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(report.database.latencyMs).toBeLessThan(HEALTH_PROBE_TIMEOUT_MS);
  });

  it('a shutdown shows at once: draining, as GET /readyz says it', async () => {
    t.services.lifecycle.startDraining();
    expect((await t.services.health.probe()).draining).toBe(true);
    expect((await t.app.admin.inject({ url: '/readyz' })).json()).toMatchObject({ status: 'draining' });
  });

  it.skipIf(redisUrl === undefined)('with REDIS_URL: Redis answers, with its latency', async () => {
    const probe = createHealthProbe({
      db: t.db,
      rateLimits: t.rateLimits,
      lifecycle: t.services.lifecycle,
      config: testConfig({ REDIS_URL: redisUrl ?? '' }),
    });
    const { redis } = await probe.probe();
    expect(redis).toEqual({ configured: true, ok: true, latencyMs: expect.any(Number) as number });
  });
});

describe('health probe, a dependency down (no Redis or PostgreSQL needed)', () => {
  it('Redis refusing connections (a closed port): answers at once, ok false with the reason, never the password', async () => {
    const url = `redis://gateway:${PASSWORD_IN_URL}@127.0.0.1:${await freePort()}`;
    // The store's own time limit is long: the probe must not wait for it.
    const rateLimits = await connectRedisRateLimitStore({ url, keyPrefix: 'probe:', commandTimeoutMs: 5000 });
    const db = await sqliteDb();
    const t = testApp({ db, rateLimits, config: { REDIS_URL: url } });
    try {
      const { report, ms } = await timedProbe(() => t.services.health.probe());
      expect(ms).toBeLessThan(HEALTH_PROBE_TIMEOUT_MS);
      expect(report.database).toMatchObject({ ok: true, dialect: 'sqlite' });
      expect(report.redis).toEqual({
        configured: true,
        ok: false,
        latencyMs: expect.any(Number) as number,
        error: expect.stringMatching(
          /^Redis is not connected \((reconnecting|connecting|close|end)\)$/,
        ) as string,
      });
      expect(JSON.stringify(report)).not.toMatch(/hunter2/);
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });

  it('a store that never answers: ok false once the time limit has passed, not later', async () => {
    const silent: Pick<RateLimitStore, 'ping'> = { ping: () => new Promise(() => undefined) };
    const db = await sqliteDb();
    try {
      const probe = createHealthProbe({
        db,
        rateLimits: silent,
        lifecycle: lifecycle(),
        config: { database: { kind: 'sqlite', path: ':memory:' }, redisUrl: 'redis://127.0.0.1:6379' },
        timeoutMs: 100,
      });
      const { report, ms } = await timedProbe(() => probe.probe());
      expect(ms).toBeGreaterThanOrEqual(95);
      expect(ms).toBeLessThan(600);
      expect(report.redis).toEqual({
        configured: true,
        ok: false,
        latencyMs: expect.any(Number) as number,
        error: 'no answer within 100 ms',
      });
      expect(report.database.ok).toBe(true);
    } finally {
      await db.destroy();
    }
  });

  it('PostgreSQL that accepts and never answers: ok false within the probe’s 1 s, not the driver’s longer limit', async () => {
    const silent = await startTcpProxy({ targetHost: '127.0.0.1', targetPort: await freePort() });
    silent.blackhole();
    const url = silent.url(`postgres://gateway:${PASSWORD_IN_URL}@127.0.0.1:5432/gateway`);
    const db = openDatabase({ kind: 'postgres', url }, { connectTimeoutMs: 5000, poolSize: 1 });
    try {
      const probe = createHealthProbe({
        db,
        rateLimits: createMemoryRateLimitStore(),
        lifecycle: lifecycle(),
        config: { database: { kind: 'postgres', url }, redisUrl: null },
      });
      const { report, ms } = await timedProbe(() => probe.probe());
      expect(ms).toBeGreaterThanOrEqual(HEALTH_PROBE_TIMEOUT_MS - 5);
      expect(ms).toBeLessThan(HEALTH_PROBE_TIMEOUT_MS + 500);
      expect(report).toEqual({
        database: {
          ok: false,
          latencyMs: expect.any(Number) as number,
          dialect: 'postgres',
          error: `no answer within ${HEALTH_PROBE_TIMEOUT_MS} ms`,
        },
        redis: { configured: false },
        draining: false,
      });
    } finally {
      // Closing the proxy fails the pending connection, so the pool ends without waiting for its limit.
      await silent.close();
      await db.destroy();
    }
  });

  it('PostgreSQL refusing connections: the reason in words, never the password', async () => {
    const url = `postgres://gateway:${PASSWORD_IN_URL}@127.0.0.1:${await freePort()}/gateway`;
    const db = openDatabase({ kind: 'postgres', url }, { connectTimeoutMs: 5000, poolSize: 1 });
    try {
      const probe = createHealthProbe({
        db,
        rateLimits: createMemoryRateLimitStore(),
        lifecycle: lifecycle(),
        config: { database: { kind: 'postgres', url }, redisUrl: null },
      });
      const { database } = await probe.probe();
      expect(database).toMatchObject({ ok: false, dialect: 'postgres' });
      expect(database.error).toMatch(/ECONNREFUSED/);
      expect(database.error).not.toMatch(/hunter2/);
    } finally {
      await db.destroy();
    }
  });

  it('a driver’s message quoting a URL or the password itself: the password is shown as ***', async () => {
    const db = await sqliteDb();
    const redis = `redis://gateway:${PASSWORD_IN_URL}@cache:6379`;
    const quoting: Pick<RateLimitStore, 'ping'> = {
      ping: () =>
        Promise.reject(
          new Error(
            `cannot reach ${redis}/0 nor rediss://other:${PASSWORD_IN_URL}@replica:6380; AUTH ${PASSWORD} refused`,
          ),
        ),
    };
    try {
      const probe = createHealthProbe({
        db,
        rateLimits: quoting,
        lifecycle: lifecycle(),
        config: { database: { kind: 'sqlite', path: ':memory:' }, redisUrl: redis },
      });
      const { redis: health } = await probe.probe();
      expect(health).toMatchObject({
        ok: false,
        error:
          'cannot reach redis://gateway:***@cache:6379/0 nor rediss://other:***@replica:6380; AUTH *** refused',
      });
    } finally {
      await db.destroy();
    }
  });

  it('a database that fails: ok false with its reason', async () => {
    const db = await sqliteDb();
    await db.destroy();
    const probe = createHealthProbe({
      db,
      rateLimits: createMemoryRateLimitStore(),
      lifecycle: lifecycle(),
      config: { database: { kind: 'sqlite', path: ':memory:' }, redisUrl: null },
    });
    const { database } = await probe.probe();
    expect(database).toMatchObject({ ok: false, dialect: 'sqlite', error: expect.any(String) as string });
    expect(database.error).not.toBe('');
  });
});

describe.skipIf(redisUrl === undefined)('health probe, Redis that stops answering [redis]', () => {
  it('a Redis that was answering and stalls: ok false within the probe’s 1 s, not the store’s longer limit', async () => {
    const base = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
    const proxy = await startTcpProxy({ targetHost: base.hostname, targetPort: Number(base.port || 6379) });
    const url = proxy.url(base.toString());
    const rateLimits = await connectRedisRateLimitStore({ url, keyPrefix: 'probe:', commandTimeoutMs: 5000 });
    const db = await sqliteDb();
    try {
      const probe = createHealthProbe({
        db,
        rateLimits,
        lifecycle: lifecycle(),
        config: { database: { kind: 'sqlite', path: ':memory:' }, redisUrl: url },
      });
      expect((await probe.probe()).redis).toMatchObject({ configured: true, ok: true });
      proxy.freeze();
      const { report, ms } = await timedProbe(() => probe.probe());
      expect(ms).toBeLessThan(HEALTH_PROBE_TIMEOUT_MS + 500);
      expect(report.redis).toEqual({
        configured: true,
        ok: false,
        latencyMs: expect.any(Number) as number,
        error: `no answer within ${HEALTH_PROBE_TIMEOUT_MS} ms`,
      });
    } finally {
      await proxy.close();
      await rateLimits.close();
      await db.destroy();
    }
  });
});
