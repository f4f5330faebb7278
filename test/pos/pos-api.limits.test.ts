import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { describeEachDialect, testApp, useTestApp, type TestApp } from '../helper.js';
import { posGet, publicRequest } from '../request.js';
import { SALES_URL as SALES } from './fixtures.js';

// The limits of the point-of-sale data API over HTTP, through the real app (docs/pos-api.md, "Limits",
// both tables and every bullet; docs/api-conventions.md; docs/pos-api.md, Settled details). Every limit is
// written here as a number, not imported from the code, so that a change of the policy shows up as a failing
// test. Windows are moved with the manual clock (`t.clock`); calls "in progress" are held deterministically
// by taking leases in the app's own store (`t.rateLimits`) under the key names of src/pos/api/pos-limits.ts.

const P = '/admin/v1/pos/accounts';
const API = '/v1/api-public';
const SALES_SUMMARY = `${API}/sales/summary?from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00`;
const ALL_PERMISSIONS = ['event.view', 'sale-by-payment-method.view'];

// Limits of docs/pos-api.md ("Limits") and docs/pos-api.md ("Settled details"), given explicitly.
const DEFAULT_QUOTA = 60;
const HEAVY_QUOTA = 10;
const DEFAULT_ACCOUNT_CEILING = 180;
const HEAVY_ACCOUNT_CEILING = 30;
const DEFAULT_ABSOLUTE_CEILING = 600;
const HEAVY_ABSOLUTE_CEILING = 100;
const SALES_IN_PROGRESS_PER_ACCOUNT = 2;
const SALES_IN_PROGRESS_API = 50;
const IP_BLOCK_THRESHOLD = 20;
const UNAUTHENTICATED_PER_IP = 40;
const MINUTE = 60_000;

/** A key text of the right shape that belongs to no credential. */
const WRONG_KEY = `gtpk_${'A'.repeat(43)}`;

/** A distinct IPv4 address per index, so that wrong-key failures of different calls never share an IP. */
const ipNo = (i: number) => `10.${100 + Math.floor(i / 62500)}.${Math.floor(i / 250) % 250}.${(i % 250) + 1}`;

/** What the seeding helpers need: the operator's admin calls. */
type Admin = Pick<TestApp, 'admin'>;

async function createAccount(t: Admin, account: string): Promise<void> {
  await t.admin('PUT', `${P}/${account}`, { name: `Account ${account}` });
  await t.admin('PUT', `${P}/${account}/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${P}/${account}/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('POST', `${P}/${account}/receipts`, {
    receipts: [
      {
        id: 'R1',
        place: 'P1',
        occurred_at: '2026-11-19T10:00:00-03:00',
        payment_method: 'cash',
        amount: '30.00',
        kind: 'sale',
      },
    ],
  });
}

async function createKey(
  t: Admin,
  account = 'acme',
  permissions: string[] = ALL_PERMISSIONS,
): Promise<{ id: string; key: string }> {
  const created = await t.admin('POST', `${P}/${account}/keys`, { name: 'ERP', permissions });
  return JSON.parse(created.body) as { id: string; key: string };
}

async function rotateKey(t: TestApp, id: string, account = 'acme'): Promise<string> {
  const rotated = await t.admin('POST', `${P}/${account}/keys/${id}/rotate`);
  return (JSON.parse(rotated.body) as { key: string }).key;
}

/** `n` calls in a row; every one must answer `status`. Returns the last response. */
async function repeat(
  n: number,
  status: number,
  send: (i: number) => Promise<LightMyRequestResponse>,
): Promise<LightMyRequestResponse> {
  let last: LightMyRequestResponse | undefined;
  for (let i = 0; i < n; i += 1) {
    last = await send(i);
    expect(last.statusCode, `call ${i + 1} of ${n}: ${last.body}`).toBe(status);
  }
  return last!;
}

const code = (response: LightMyRequestResponse) => (JSON.parse(response.body) as { code?: string }).code;

/** X-RateLimit-Limit and -Remaining as numbers (NaN when absent). */
function rate(response: LightMyRequestResponse): { limit: number; remaining: number } {
  return {
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
  };
}

/** An authenticated response: status, and all three X-RateLimit-* with the given limit and remaining. */
function expectMeasured(
  response: LightMyRequestResponse,
  status: number,
  limit: number,
  remaining: number,
): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(rate(response)).toEqual({ limit, remaining });
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

/** A 429 `rate_limited` with Retry-After and the X-RateLimit-Limit / Remaining of its row of the table. */
function expectRateLimited(
  response: LightMyRequestResponse,
  retryAfter: number,
  limit: number,
  remaining: number,
): void {
  expect(response.statusCode, response.body).toBe(429);
  expect(code(response)).toBe('rate_limited');
  expect(response.headers['retry-after']).toBe(String(retryAfter));
  expect(rate(response)).toEqual({ limit, remaining });
}

function expectUnmeasured(response: LightMyRequestResponse): void {
  expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  expect(response.headers['x-ratelimit-reset']).toBeUndefined();
}

describeEachDialect('POS API, limits', (dialect) => {
  const t = useTestApp(dialect);

  it('X-RateLimit-* on every authenticated response, success and errors (422, 404 place, 403, 415, 501), each counted in its route class (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const { key: bare } = await createKey(t, 'acme', []);
    const t0 = t.clock.now();

    // Reset: Unix seconds, an upper bound: the first call of an empty window leaves it 60 s later.
    const ping = await posGet(t, `${API}/ping`, key);
    expectMeasured(ping, 200, DEFAULT_QUOTA, 59);
    expect(ping.headers['x-ratelimit-reset']).toBe(String(t0 / 1000 + 60));

    expectMeasured(await posGet(t, `${API}/events?place=P1&color=red`, key), 422, DEFAULT_QUOTA, 58);
    const missingPlace = await posGet(t, `${API}/events?place=P9`, key);
    expectMeasured(missingPlace, 404, DEFAULT_QUOTA, 57);
    expect(JSON.parse(missingPlace.body)).toMatchObject({ code: 'not_found', param: 'place' });
    expectMeasured(await posGet(t, `${API}/orders/123`, key), 501, DEFAULT_QUOTA, 56);
    // 415 (a GET with a non-JSON body) is documented as carrying X-RateLimit-* and being counted.
    const withBody = await publicRequest(t, {
      url: `${API}/ping`,
      key,
      type: 'text/plain',
      payload: 'hello',
    });
    expectMeasured(withBody, 415, DEFAULT_QUOTA, 55);
    expectMeasured(await posGet(t, `${API}/places`, key), 200, DEFAULT_QUOTA, 54);

    // The heavy class has its own balance: the default calls above took nothing from it.
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 9);
    expectMeasured(await posGet(t, `${API}/sales/by-payment-method?place=P1`, key), 422, HEAVY_QUOTA, 8);
    const salesMissingPlace = await posGet(t, SALES.replace('place=P1', 'place=P9'), key);
    expectMeasured(salesMissingPlace, 404, HEAVY_QUOTA, 7);
    expect(JSON.parse(salesMissingPlace.body)).toMatchObject({ code: 'not_found', param: 'place' });
    const salesMissingEvent = await posGet(t, `${SALES}&event=E9`, key);
    expectMeasured(salesMissingEvent, 404, HEAVY_QUOTA, 6);
    expect(JSON.parse(salesMissingEvent.body)).toMatchObject({ code: 'not_found', param: 'event' });
    expectMeasured(await posGet(t, SALES_SUMMARY, key), 501, HEAVY_QUOTA, 5);

    // 403: a key without the permissions; each 403 is counted in the class of the route called.
    const forbiddenEvents = await posGet(t, `${API}/events?place=P1`, bare);
    expectMeasured(forbiddenEvents, 403, DEFAULT_QUOTA, 59);
    expect(code(forbiddenEvents)).toBe('forbidden_permission');
    expectMeasured(await posGet(t, SALES, bare), 403, HEAVY_QUOTA, 9);
    expectMeasured(await posGet(t, `${API}/events?place=P1`, bare), 403, DEFAULT_QUOTA, 58);
    expectMeasured(await posGet(t, SALES, bare), 403, HEAVY_QUOTA, 8);
  });

  it('default class: 60 calls per key in a sliding minute, then 429 Retry-After 60 with the key limit and Remaining 0 (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const t0 = t.clock.now();

    await repeat(30, 200, () => posGet(t, `${API}/ping`, key));
    t.clock.advance(30_000);
    const last = await repeat(30, 200, () => posGet(t, `${API}/places`, key));
    expect(rate(last)).toEqual({ limit: DEFAULT_QUOTA, remaining: 0 });
    // Reset: when the oldest call (t0) leaves the window.
    expect(last.headers['x-ratelimit-reset']).toBe(String(t0 / 1000 + 60));
    const refused = await posGet(t, `${API}/ping`, key);
    expectRateLimited(refused, 60, DEFAULT_QUOTA, 0);
    // The key was recognized: its 429 is an authenticated response and carries Reset too.
    expect(refused.headers['x-ratelimit-reset']).toBe(String(t0 / 1000 + 60));
    // Errors of the class are refused too, once the quota is spent.
    expectRateLimited(await posGet(t, `${API}/events?place=P1`, key), 60, DEFAULT_QUOTA, 0);

    // Sliding: one millisecond before t0 + 60 s the first 30 calls still count…
    t.clock.set(t0 + MINUTE - 1);
    expectRateLimited(await posGet(t, `${API}/ping`, key), 60, DEFAULT_QUOTA, 0);
    // …at t0 + 60 s they have left, the 30 of t0 + 30 s have not.
    t.clock.set(t0 + MINUTE);
    const after = await posGet(t, `${API}/ping`, key);
    expectMeasured(after, 200, DEFAULT_QUOTA, 29);
    expect(after.headers['x-ratelimit-reset']).toBe(String((t0 + 30_000) / 1000 + 60));
  });

  it('heavy class: 10 sales calls per key in a sliding minute; each class has its own balance (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const t0 = t.clock.now();

    // A spent default class leaves the heavy class untouched…
    await repeat(DEFAULT_QUOTA, 200, () => posGet(t, `${API}/ping`, key));
    expectRateLimited(await posGet(t, `${API}/ping`, key), 60, DEFAULT_QUOTA, 0);
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 9);
    const last = await repeat(9, 200, () => posGet(t, SALES, key));
    expect(rate(last)).toEqual({ limit: HEAVY_QUOTA, remaining: 0 });
    // …and the planned sales routes share the heavy class (10 is spent, so they are refused too).
    expectRateLimited(await posGet(t, SALES, key), 60, HEAVY_QUOTA, 0);
    expectRateLimited(await posGet(t, SALES_SUMMARY, key), 60, HEAVY_QUOTA, 0);

    t.clock.set(t0 + MINUTE);
    expectMeasured(await posGet(t, SALES_SUMMARY, key), 501, HEAVY_QUOTA, 9);
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 59);
  });

  it('a call refused by the key quota consumes nothing (docs/api-conventions.md; Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const t0 = t.clock.now();

    await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, key));
    t.clock.set(t0 + 30_000);
    await repeat(5, 429, () => posGet(t, SALES, key));
    // The 10 calls of t0 have left; had the 5 refusals of t0 + 30 s counted, only 5 would remain.
    t.clock.set(t0 + MINUTE);
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 9);
  });

  it('account ceiling, heavy: 3 keys × 10 spend the 30; the 4th key’s first call is 429 with the key’s limit 10, Remaining 0, Retry-After 60 (Limits)', async () => {
    await createAccount(t, 'acme');
    await createAccount(t, 'beta');
    const keys = [await createKey(t), await createKey(t), await createKey(t), await createKey(t)];
    const other = await createKey(t, 'beta');
    const t0 = t.clock.now();

    for (const { key } of keys.slice(0, 3)) {
      const last = await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, key));
      expect(rate(last)).toEqual({ limit: HEAVY_QUOTA, remaining: 0 });
    }
    const fourth = keys[3]!.key;
    expectRateLimited(await posGet(t, SALES, fourth), 60, HEAVY_QUOTA, 0);
    expectRateLimited(await posGet(t, SALES_SUMMARY, fourth), 60, HEAVY_QUOTA, 0);
    // Per class: the default class of the account is untouched; another account is unaffected.
    expectMeasured(await posGet(t, `${API}/ping`, fourth), 200, DEFAULT_QUOTA, 59);
    expectMeasured(await posGet(t, SALES, other.key), 200, HEAVY_QUOTA, 9);

    // The refusals of the 4th key spent neither its balance nor the account's.
    t.clock.set(t0 + MINUTE);
    expectMeasured(await posGet(t, SALES, fourth), 200, HEAVY_QUOTA, 9);
  });

  it('account ceiling, default: 3 keys × 60 spend the 180; the 4th key gets 429 with its own limit 60 (Limits)', async () => {
    await createAccount(t, 'acme');
    const keys = [await createKey(t), await createKey(t), await createKey(t), await createKey(t)];
    for (const { key } of keys.slice(0, 3)) {
      await repeat(DEFAULT_QUOTA, 200, () => posGet(t, `${API}/ping`, key));
    }
    expect(DEFAULT_ACCOUNT_CEILING).toBe(3 * DEFAULT_QUOTA);
    expectRateLimited(await posGet(t, `${API}/ping`, keys[3]!.key), 60, DEFAULT_QUOTA, 0);
    expectMeasured(await posGet(t, SALES, keys[3]!.key), 200, HEAVY_QUOTA, 9);
  });

  it('Remaining is the lower of the key’s and the account’s balance (Limits)', async () => {
    await createAccount(t, 'acme');
    const [a, b, c, d] = [await createKey(t), await createKey(t), await createKey(t), await createKey(t)];
    await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, a.key));
    await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, b.key));
    await repeat(5, 200, () => posGet(t, SALES, c.key));
    // d: key balance 9, account balance 30 − 26 = 4.
    expect(HEAVY_ACCOUNT_CEILING - 26).toBe(4);
    expectMeasured(await posGet(t, SALES, d.key), 200, HEAVY_QUOTA, 4);
    const last = await repeat(4, 200, () => posGet(t, SALES, d.key));
    expect(rate(last)).toEqual({ limit: HEAVY_QUOTA, remaining: 0 });
    expectRateLimited(await posGet(t, SALES, d.key), 60, HEAVY_QUOTA, 0);
    // c: key balance 5, account 0.
    expectRateLimited(await posGet(t, SALES, c.key), 60, HEAVY_QUOTA, 0);
  });

  it('rotation: the new and the previous key each have their own balance; the account covers both (Limits)', async () => {
    await createAccount(t, 'acme');
    const { id, key: previous } = await createKey(t);
    const current = await rotateKey(t, id);

    const lastPrevious = await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, previous));
    expect(rate(lastPrevious)).toEqual({ limit: HEAVY_QUOTA, remaining: 0 });
    const refused = await posGet(t, SALES, previous);
    expectRateLimited(refused, 60, HEAVY_QUOTA, 0);
    // An error authenticated by the previous key still carries Deprecation (Authentication).
    expect(refused.headers.deprecation).toBe('true');

    // The new key has its own 10, not the previous key's spent balance.
    expectMeasured(await posGet(t, SALES, current), 200, HEAVY_QUOTA, 9);
    await repeat(HEAVY_QUOTA - 1, 200, () => posGet(t, SALES, current));
    expectRateLimited(await posGet(t, SALES, current), 60, HEAVY_QUOTA, 0);

    // Both together spent 20 of the account's 30: another key of the account has 10 left, then none.
    const other = await createKey(t);
    const lastOther = await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, other.key));
    expect(rate(lastOther)).toEqual({ limit: HEAVY_QUOTA, remaining: 0 });
    const fourth = await createKey(t);
    expectRateLimited(await posGet(t, SALES, fourth.key), 60, HEAVY_QUOTA, 0);
  });

  it('absolute ceiling per presented key text and class (100 heavy), checked before the key is read: 429 before 401, refused calls count (Limits; docs/pos-api.md, Settled details)', async () => {
    await createAccount(t, 'acme');
    const t0 = t.clock.now();
    // A wrong key is also a failure for the IP block (20 a minute) and for the unauthenticated-calls
    // guard (40): every call below comes from its own remoteAddress, so that neither of those limits is
    // reached and only the ceiling of the key text, which ignores the IP, is measured.
    let n = 0;
    const wrong = (url: string) => publicRequest(t, { url, key: WRONG_KEY, ip: ipNo(n++) });

    const lastAdmitted = await repeat(HEAVY_ABSOLUTE_CEILING, 401, () => wrong(SALES));
    expect(code(lastAdmitted)).toBe('invalid_token');
    const refused = await wrong(SALES);
    expectRateLimited(refused, 60, HEAVY_ABSOLUTE_CEILING, 0);
    expect(refused.headers['www-authenticate']).toBeUndefined();
    // Per class: the same key text on the default class is read (and is wrong).
    expect((await wrong(`${API}/ping`)).statusCode).toBe(401);

    // Refused calls count: 100 refusals at t0 + 30 s keep the ceiling full after the calls of t0 left.
    t.clock.set(t0 + 30_000);
    await repeat(HEAVY_ABSOLUTE_CEILING, 429, () => wrong(SALES));
    t.clock.set(t0 + MINUTE + 1);
    expectRateLimited(await wrong(SALES), 60, HEAVY_ABSOLUTE_CEILING, 0);
    t.clock.set(t0 + 30_000 + MINUTE + 1);
    expect((await wrong(SALES)).statusCode).toBe(401);
  });

  it('absolute ceiling: a valid key’s quota refusals count toward it; at 100 the 429 carries the ceiling (100), not the quota (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, key));
    const quotaRefusal = await repeat(HEAVY_ABSOLUTE_CEILING - HEAVY_QUOTA, 429, () => posGet(t, SALES, key));
    expectRateLimited(quotaRefusal, 60, HEAVY_QUOTA, 0);
    expectRateLimited(await posGet(t, SALES, key), 60, HEAVY_ABSOLUTE_CEILING, 0);
    // The default class of the same key text has its own ceiling (600) and quota.
    expect(DEFAULT_ABSOLUTE_CEILING).toBe(10 * DEFAULT_QUOTA);
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 59);
  });

  it('unauthenticated calls of an IP above 40 (in progress + wrong-key failures of the minute): 429 Limit 40, Remaining 0, Retry-After 60, before the key is read (docs/pos-api.md, Settled details)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const ip = '10.9.9.9';
    const guardKey = `pos:keycheck:${ip}`; // src/pos/api/pos-limits.ts, keys.keyCheck
    const t0 = t.clock.now();

    // 19 wrong-key failures: one below the IP block (20), so only the guard can refuse.
    await repeat(IP_BLOCK_THRESHOLD - 1, 401, () =>
      publicRequest(t, { url: `${API}/ping`, key: WRONG_KEY, ip }),
    );
    // 20 key checks held in progress: 39 in all, the next call is admitted (and ends its check).
    const held: string[] = [];
    for (let i = 0; i < 20; i += 1) {
      const lease = await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, 10 * MINUTE, t0);
      if (!lease.acquired) throw new Error('lease refused');
      held.push(lease.token);
    }
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 59);
    // One more in progress: 40, and the next call, even with a valid key, is refused before its key is read.
    const lease = await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, 10 * MINUTE, t0);
    if (!lease.acquired) throw new Error('lease refused');
    held.push(lease.token);
    const refused = await publicRequest(t, { url: `${API}/ping`, key, ip });
    expectRateLimited(refused, 60, UNAUTHENTICATED_PER_IP, 0);
    expect(refused.headers['x-ratelimit-reset']).toBeUndefined();
    expectRateLimited(
      await publicRequest(t, { url: `${API}/ping`, key: WRONG_KEY, ip }),
      60,
      UNAUTHENTICATED_PER_IP,
      0,
    );
    // The refusals did not read the key: its balance, seen from another IP, is unchanged.
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 58);

    // One check ends: 39, admitted again.
    await t.rateLimits.release(guardKey, held.pop()!);
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 57);
    // The 19 failures were part of the count: once they leave the minute, 19 more checks fit beside
    // the 20 still held, and the next call (the 40th) is admitted; with a 40th held, it is refused.
    t.clock.set(t0 + MINUTE);
    for (let i = 0; i < IP_BLOCK_THRESHOLD - 1; i += 1) {
      const more = await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, 10 * MINUTE, t0 + MINUTE);
      expect(more.acquired).toBe(true);
    }
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 59);
    await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, 10 * MINUTE, t0 + MINUTE);
    expectRateLimited(await publicRequest(t, { url: `${API}/ping`, key, ip }), 60, UNAUTHENTICATED_PER_IP, 0);
  });

  it("unauthenticated calls: a right key's calls never stay counted, whether its quota admits or refuses them (docs/pos-api.md, Settled details)", async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const ip = '10.9.9.8';
    const guardKey = `pos:keycheck:${ip}`; // src/pos/api/pos-limits.ts, keys.keyCheck
    for (let i = 1; i <= DEFAULT_QUOTA; i += 1)
      expectMeasured(
        await publicRequest(t, { url: `${API}/ping`, key, ip }),
        200,
        DEFAULT_QUOTA,
        DEFAULT_QUOTA - i,
      );
    for (let i = 0; i < 3; i += 1)
      expectRateLimited(await publicRequest(t, { url: `${API}/ping`, key, ip }), 60, DEFAULT_QUOTA, 0);
    // None of the 63 checks is left: all 40 of the IP's places are free.
    const now = t.clock.now();
    for (let i = 0; i < UNAUTHENTICATED_PER_IP; i += 1)
      expect((await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, MINUTE, now)).acquired).toBe(true);
    expect((await t.rateLimits.acquire(guardKey, UNAUTHENTICATED_PER_IP, MINUTE, now)).acquired).toBe(false);
  });

  it('unauthenticated calls: only wrong-key failures stay counted; a revoked key’s 401s never reach the guard of 40 (docs/pos-api.md, Settled details)', async () => {
    await createAccount(t, 'acme');
    const { id, key: revoked } = await createKey(t);
    const { key } = await createKey(t);
    await t.admin('POST', `${P}/acme/keys/${id}/revoke`);
    const ip = '10.9.9.10';
    const last = await repeat(UNAUTHENTICATED_PER_IP + 5, 401, () =>
      publicRequest(t, { url: `${API}/ping`, key: revoked, ip }),
    );
    expect(JSON.parse(last.body)).toMatchObject({ code: 'invalid_token', reason: 'revoked' });
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 59);
  });

  it('IP block: 20 wrong keys in the minute block the IP, even with a valid key: 429 Limit 20, Remaining 0, real Retry-After (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const ip = '10.8.8.8';
    const t0 = t.clock.now();
    await repeat(IP_BLOCK_THRESHOLD, 401, () => publicRequest(t, { url: `${API}/ping`, key: WRONG_KEY, ip }));
    expectRateLimited(await publicRequest(t, { url: `${API}/ping`, key, ip }), 60, IP_BLOCK_THRESHOLD, 0);
    t.clock.set(t0 + 45_000);
    expectRateLimited(await publicRequest(t, { url: SALES, key, ip }), 15, IP_BLOCK_THRESHOLD, 0);
    // The blocked calls did not reach the key.
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 59);
    t.clock.set(t0 + MINUTE);
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 58);
  });

  it('sales queries in progress: at most 2 per account; the third gets 429 Retry-After 5 with the real remaining balance, already discounting it (Limits)', async () => {
    await createAccount(t, 'acme');
    await createAccount(t, 'beta');
    const { key } = await createKey(t);
    const other = await createKey(t, 'beta');
    const accountSales = 'pos:sales:{acme}'; // src/pos/api/pos-limits.ts, keys.accountSales
    const t0 = t.clock.now();

    // Two queries of the account held in progress.
    const held: string[] = [];
    for (let i = 0; i < SALES_IN_PROGRESS_PER_ACCOUNT; i += 1) {
      const lease = await t.rateLimits.acquire(accountSales, SALES_IN_PROGRESS_PER_ACCOUNT, 10 * MINUTE, t0);
      if (!lease.acquired) throw new Error('lease refused');
      held.push(lease.token);
    }
    const refused = await posGet(t, SALES, key);
    expectRateLimited(refused, 5, HEAVY_QUOTA, 9);
    expect(refused.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    // Concurrency refusals keep their per-minute spending.
    expectRateLimited(await posGet(t, SALES, key), 5, HEAVY_QUOTA, 8);
    // Another account is not affected; other routes of the account neither.
    expectMeasured(await posGet(t, SALES, other.key), 200, HEAVY_QUOTA, 9);
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 59);

    // One query ends: the next sales call runs.
    await t.rateLimits.release(accountSales, held.pop()!);
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 7);
    // The refused and the finished calls left no lease behind: with ours released, 2 fit again.
    await t.rateLimits.release(accountSales, held.pop()!);
    for (let i = 0; i < SALES_IN_PROGRESS_PER_ACCOUNT; i += 1) {
      const lease = await t.rateLimits.acquire(accountSales, SALES_IN_PROGRESS_PER_ACCOUNT, MINUTE, t0);
      expect(lease.acquired).toBe(true);
    }
  });

  it('sales queries in progress: the whole API ceiling (50) full gives 429 Retry-After 5 (Limits; docs/pos-api.md, Settled details)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const t0 = t.clock.now();
    const held: string[] = [];
    for (let i = 0; i < SALES_IN_PROGRESS_API; i += 1) {
      const lease = await t.rateLimits.acquire('pos:sales:all', SALES_IN_PROGRESS_API, 10 * MINUTE, t0);
      if (!lease.acquired) throw new Error('lease refused');
      held.push(lease.token);
    }
    expectRateLimited(await posGet(t, SALES, key), 5, HEAVY_QUOTA, 9);
    // The refusal gave back the account's place it had taken first: the account still has room for 2.
    for (let i = 0; i < SALES_IN_PROGRESS_PER_ACCOUNT; i += 1) {
      const lease = await t.rateLimits.acquire('pos:sales:{acme}', SALES_IN_PROGRESS_PER_ACCOUNT, 1, t0);
      expect(lease.acquired).toBe(true);
    }
    // One place of the API frees (and the account's test leases expire): the next sales call runs.
    await t.rateLimits.release('pos:sales:all', held.pop()!);
    t.clock.advance(1);
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 8);
  });

  it('a 404 of a nonexistent address and a 405 are neither counted nor blocked (Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const ip = '10.7.7.7';

    // Not counted: no X-RateLimit-*, and the key's balance is untouched.
    const notFound = await posGet(t, `${API}/nothing-here`, key);
    expect(notFound.statusCode).toBe(404);
    expect(JSON.parse(notFound.body)).not.toHaveProperty('param');
    expectUnmeasured(notFound);
    const notAllowed = await publicRequest(t, { url: `${API}/ping`, key, method: 'POST' });
    expect(notAllowed.statusCode).toBe(405);
    expect(notAllowed.headers.allow).toBe('GET');
    expectUnmeasured(notAllowed);
    expectMeasured(await posGet(t, `${API}/ping`, key), 200, DEFAULT_QUOTA, 59);

    // Not counted for the IP block nor the ceilings: 25 of each with a wrong key leave the IP open.
    await repeat(25, 404, () => publicRequest(t, { url: `${API}/sales/nothing`, key: WRONG_KEY, ip }));
    await repeat(25, 405, () => publicRequest(t, { url: SALES, key: WRONG_KEY, ip, method: 'DELETE' }));
    await repeat(25, 405, () => publicRequest(t, { url: `${API}/ping`, ip, method: 'HEAD' }));
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 58);

    // Not blocked: with the IP blocked and the key's heavy quota spent, they still answer 404 and 405.
    await repeat(HEAVY_QUOTA, 200, () => posGet(t, SALES, key));
    await repeat(IP_BLOCK_THRESHOLD, 401, () => publicRequest(t, { url: `${API}/ping`, key: WRONG_KEY, ip }));
    expect((await publicRequest(t, { url: `${API}/ping`, key, ip })).statusCode).toBe(429);
    expect((await posGet(t, SALES, key)).statusCode).toBe(429);
    expect((await publicRequest(t, { url: `${API}/sales/nothing`, key, ip })).statusCode).toBe(404);
    expect((await publicRequest(t, { url: SALES, key, ip, method: 'POST' })).statusCode).toBe(405);
    expect((await posGet(t, `${API}/sales/nothing`, key)).statusCode).toBe(404);
    expect((await publicRequest(t, { url: SALES, key, method: 'OPTIONS' })).statusCode).toBe(405);
  });

  it('400 conflicting_credentials is not counted: no X-RateLimit-*, no balance spent, no IP failure (Authentication; Limits)', async () => {
    await createAccount(t, 'acme');
    const { key } = await createKey(t);
    const ip = '10.6.6.6';

    const conflicting = await publicRequest(t, { url: SALES, key, headers: { 'Api-Token': 'x' } });
    expect(conflicting.statusCode).toBe(400);
    expect(code(conflicting)).toBe('conflicting_credentials');
    expectUnmeasured(conflicting);
    await repeat(HEAVY_QUOTA, 400, () =>
      publicRequest(t, { url: SALES, key, headers: { 'Account-Token': 'x' } }),
    );
    expectMeasured(await posGet(t, SALES, key), 200, HEAVY_QUOTA, 9);

    // With a wrong key, from one IP, more than the IP block's 20: the IP is not blocked.
    await repeat(25, 400, () =>
      publicRequest(t, { url: `${API}/ping`, key: WRONG_KEY, ip, headers: { 'Producer-Token': 'x' } }),
    );
    expectMeasured(await publicRequest(t, { url: `${API}/ping`, key, ip }), 200, DEFAULT_QUOTA, 59);
  });

  it('shared store unreachable: sales routes answer 503 Retry-After 60; other routes go on unmeasured, without X-RateLimit-* (docs/pos-api.md, Settled details)', async () => {
    // An app of its own, whose store can be switched off once the data is seeded.
    const opened = await dialect.open();
    const memory = createMemoryRateLimitStore();
    let reachable = true;
    const reach = <R>(operation: () => Promise<R>): Promise<R> =>
      reachable ? operation() : Promise.reject(new Error('store unreachable'));
    const store: RateLimitStore = {
      take: (...args) => reach(() => memory.take(...args)),
      takeAll: (...args) => reach(() => memory.takeAll(...args)),
      hit: (...args) => reach(() => memory.hit(...args)),
      add: (...args) => reach(() => memory.add(...args)),
      waitBelow: (...args) => reach(() => memory.waitBelow(...args)),
      acquire: (...args) => reach(() => memory.acquire(...args)),
      admitInOrder: (...args) => reach(() => memory.admitInOrder(...args)),
      release: (...args) => reach(() => memory.release(...args)),
      pushRecent: (...args) => reach(() => memory.pushRecent(...args)),
      recent: (...args) => reach(() => memory.recent(...args)),
      ping: () => reach(() => memory.ping()),
      close: () => memory.close(),
    };
    const own = testApp({ db: opened.db, rateLimits: store });
    try {
      await createAccount(own, 'acme');
      const { key } = await createKey(own);
      reachable = false;

      const sales = await posGet(own, SALES, key);
      expect(sales.statusCode, sales.body).toBe(503);
      expect(JSON.parse(sales.body)).toMatchObject({
        code: 'temporarily_unavailable',
        detail:
          'This endpoint is temporarily unable to accept requests. Retry after the time in the Retry-After header.',
      });
      expect(sales.headers['retry-after']).toBe('60');
      expectUnmeasured(sales);

      const ping = await posGet(own, `${API}/ping`, key);
      expect(ping.statusCode, ping.body).toBe(200);
      expect(JSON.parse(ping.body).rate_limit).toBeNull();
      expectUnmeasured(ping);
      const events = await posGet(own, `${API}/events?place=P1`, key);
      expect(events.statusCode, events.body).toBe(200);
      expectUnmeasured(events);
      expect((await posGet(own, `${API}/ping`, WRONG_KEY)).statusCode).toBe(401);
    } finally {
      await own.app.close();
      await opened.drop();
    }
  });
});
