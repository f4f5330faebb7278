import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { createSignInLimit, emailKeyHash } from '../../src/identity/sign-in-limit.js';
import { describeEachDialect, ManualClock, redisUrl, testApp, type TestApp } from '../helper.js';

// What the shared rate-limit store learns from the faces' identity limits (issue 20, item 10): key names
// carry a keyed hash (HMAC-SHA-256 with the session secret) of an e-mail address, never the address.

const SECRET = 'test-session-secret-0123456789abcdef';
const ADDRESS = 'Ana.Souza@Acme.example';

/** The store with the keys of every window it was asked about recorded. */
function recording(store: RateLimitStore): { store: RateLimitStore; keys: string[] } {
  const keys: string[] = [];
  const recorded: RateLimitStore = {
    ...store,
    take: (key, ...rest) => {
      keys.push(key);
      return store.take(key, ...rest);
    },
    takeAll: (windows, ...rest) => {
      keys.push(...windows.map((window) => window.key));
      return store.takeAll(windows, ...rest);
    },
  };
  return { store: recorded, keys };
}

/** True when `key` shows any part of the address. */
const showsAddress = (key: string) => /ana|souza|acme|example|@/i.test(key);

describeEachDialect('web faces: the sign-in limits’ key names', (dialect) => {
  let t: TestApp | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('sign-in and reset requests of the panel name their counters by a keyed hash of the address', async () => {
    const opened = await dialect.open();
    drop = () => opened.drop();
    const { store, keys } = recording(await dialect.openStore());
    t = testApp({ db: opened.db, rateLimits: store, config: { SESSION_SECRET: SECRET } });
    const page = await t.call({ method: 'GET', url: '/panel/sign-in' });
    const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    for (const [url, form] of [
      ['/panel/sign-in', { email: ADDRESS, password: 'not the password at all' }],
      ['/panel/password-reset', { email: ADDRESS }],
    ] as const) {
      await t.call({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ ...form, _csrf: csrf }).toString(),
      });
    }
    expect(keys.filter(showsAddress)).toEqual([]);
    const hash = emailKeyHash(SECRET, 'ana.souza@acme.example');
    expect(keys.filter((key) => key.includes(hash))).toHaveLength(2);
  });
});

describe.skipIf(redisUrl === undefined)('web faces: the sign-in limits’ keys in Redis', () => {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  let store: RateLimitStore | undefined;
  let redis: Redis | undefined;
  afterEach(async () => {
    await store?.close();
    redis?.disconnect();
  });

  it('Redis holds no e-mail address in a key name; one address counts as one however it is written', async () => {
    store = await connectRedisRateLimitStore({
      url: redisUrl ?? '',
      keyPrefix: prefix,
      commandTimeoutMs: 2000,
    });
    const limit = createSignInLimit({
      store,
      clock: new ManualClock(Date.UTC(2026, 10, 27)),
      face: 'panel',
      secret: SECRET,
      limits: { perEmail: 2 },
    });
    expect(await limit.admit(ADDRESS, '198.51.100.1')).toEqual({ ok: true });
    expect(await limit.admit(' ana.souza@acme.EXAMPLE ', '198.51.100.2')).toEqual({ ok: true });
    expect((await limit.admit(ADDRESS.toLowerCase(), '198.51.100.3')).ok).toBe(false);
    redis = new Redis(redisUrl ?? '');
    expect((await redis.keys(`${prefix}*`)).filter(showsAddress)).toEqual([]);
    await limit.admitReset(ADDRESS, '198.51.100.1');
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    expect(keys.filter(showsAddress)).toEqual([]);
    expect(keys.filter((key) => key.includes(emailKeyHash(SECRET, ADDRESS)))).toHaveLength(2);
  });
});
