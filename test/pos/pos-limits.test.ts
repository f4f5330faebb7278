import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createPosLimits,
  POS_ABSOLUTE_CEILING,
  POS_ACCOUNT_CEILING,
  POS_KEY_QUOTA,
  type PosLimitsConfig,
  type PosQuota,
  type PosRouteClass,
  type SalesQuery,
} from '../../src/pos/api/pos-limits.js';
import type { KeyCheck, LimitRefusal } from '../../src/pos/api/limit-decision.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { ManualClock } from '../helper.js';

// The limit policy of the POS data API: docs/pos-api.md, "Limits" (both tables and every bullet) and the
// 429/503 rows of "Errors"; docs/api-conventions.md (sliding windows, refused calls consume nothing except
// where the POS document says) and "POS data API" (absolute ceiling, whole-API ceiling of sales queries,
// unauthenticated calls per IP, shared store unreachable).

const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const T0_SECONDS = T0 / 1000;
const IP = '203.0.113.7';

function setUp(config?: PosLimitsConfig, store: RateLimitStore = createMemoryRateLimitStore()) {
  const clock = new ManualClock(T0);
  return { clock, store, limits: createPosLimits({ store, clock, ...(config ? { config } : {}) }) };
}

type Limits = ReturnType<typeof setUp>['limits'];

function expectRefusal(decision: { ok: boolean }): LimitRefusal {
  expect(decision.ok).toBe(false);
  return decision as LimitRefusal;
}

async function quota(
  limits: Limits,
  accountId: string,
  keyBucket: string,
  routeClass: PosRouteClass = 'default',
): Promise<PosQuota> {
  const decision = await limits.takeQuota({ accountId, keyBucket, routeClass });
  if (!decision.ok) throw new Error(`refused: ${decision.reason}`);
  return decision.quota;
}

/** Spends `count` calls of a key. */
async function spend(
  limits: Limits,
  accountId: string,
  keyBucket: string,
  routeClass: PosRouteClass,
  count: number,
) {
  for (let i = 0; i < count; i += 1) await quota(limits, accountId, keyBucket, routeClass);
}

async function salesQuery(limits: Limits, accountId: string, keyBucket: string): Promise<SalesQuery> {
  const decision = await limits.beginSalesQuery(await quota(limits, accountId, keyBucket, 'heavy'));
  if (!decision.ok) throw new Error(`refused: ${decision.reason}`);
  return decision;
}

async function keyCheck(limits: Limits, ip = IP): Promise<KeyCheck> {
  const decision = await limits.beginKeyCheck(ip);
  if (!decision.ok) throw new Error(`refused: ${decision.reason}`);
  return decision;
}

/** A store whose every operation fails, as a shared store that cannot be reached. */
function unreachableStore(): RateLimitStore {
  const fail = () => Promise.reject(new Error('ECONNREFUSED'));
  return {
    take: fail,
    takeAll: fail,
    hit: fail,
    add: fail,
    waitBelow: fail,
    acquire: fail,
    admitInOrder: fail,
    release: fail,
    pushRecent: fail,
    recent: fail,
    ping: fail,
    close: () => Promise.resolve(),
  };
}

describe('POS limits: the 429 table (Limits)', () => {
  it("key's quota: refused with Retry-After 60, the key's limit and Remaining 0 (Limits, 429 table)", async () => {
    const { limits } = setUp();
    for (const routeClass of ['default', 'heavy'] as const) {
      const limit = POS_KEY_QUOTA[routeClass];
      await spend(limits, 'A', 'A:1', routeClass, limit);
      const refusal = expectRefusal(await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass }));
      expect(refusal).toEqual({
        ok: false,
        status: 429,
        reason: 'key_quota',
        retryAfter: 60,
        headers: {
          'retry-after': '60',
          'x-ratelimit-limit': String(limit),
          'x-ratelimit-remaining': '0',
          'x-ratelimit-reset': String(T0_SECONDS + 60),
        },
      });
    }
    expect([POS_KEY_QUOTA.default, POS_KEY_QUOTA.heavy]).toEqual([60, 10]);
  });

  it("account ceiling: refused with the key's limit in X-RateLimit-Limit (Limits, 429 table)", async () => {
    const { limits } = setUp();
    expect([POS_ACCOUNT_CEILING.default, POS_ACCOUNT_CEILING.heavy]).toEqual([180, 30]);
    for (const routeClass of ['default', 'heavy'] as const) {
      // Three keys spend the whole account; a fourth key, with its own balance intact, is refused.
      for (const key of ['A:1', 'A:2', 'A:3'])
        await spend(limits, 'A', key, routeClass, POS_KEY_QUOTA[routeClass]);
      const refusal = expectRefusal(await limits.takeQuota({ accountId: 'A', keyBucket: 'A:4', routeClass }));
      expect(refusal.status).toBe(429);
      expect(refusal.reason).toBe('account_ceiling');
      expect(refusal.retryAfter).toBe(60);
      expect(refusal.headers).toMatchObject({
        'retry-after': '60',
        'x-ratelimit-limit': String(POS_KEY_QUOTA[routeClass]),
        'x-ratelimit-remaining': '0',
      });
    }
    // Another account is not affected.
    expect((await quota(limits, 'B', 'B:1', 'heavy')).remaining).toBe(9);
  });

  it('concurrency: the third sales query of an account is refused with Retry-After 5 and the remaining balance after this call', async () => {
    const { limits } = setUp();
    await salesQuery(limits, 'A', 'A:1');
    await salesQuery(limits, 'A', 'A:2');
    const third = await quota(limits, 'A', 'A:1', 'heavy');
    expect(third.remaining).toBe(8); // A:1 spent 2 of 10; the account 3 of 30.
    const refusal = expectRefusal(await limits.beginSalesQuery(third));
    expect(refusal).toEqual({
      ok: false,
      status: 429,
      reason: 'account_sales_in_progress',
      retryAfter: 5,
      headers: {
        'retry-after': '5',
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '8',
        'x-ratelimit-reset': String(T0_SECONDS + 60),
      },
    });
    // Another account still runs its queries.
    await salesQuery(limits, 'B', 'B:1');
  });

  it('concurrency: a full whole-API ceiling refuses with Retry-After 5; 50 by default, configurable (Limits, 429 table; docs/pos-api.md, Settled details)', async () => {
    const byDefault = setUp().limits;
    for (let i = 0; i < 50; i += 1) await salesQuery(byDefault, `acct${i}`, `acct${i}:1`);
    const fiftyFirst = expectRefusal(
      await byDefault.beginSalesQuery(await quota(byDefault, 'Z', 'Z:1', 'heavy')),
    );
    expect(fiftyFirst.reason).toBe('api_sales_in_progress');

    const { limits } = setUp({ salesInProgressCeiling: 3 });
    const running = [
      await salesQuery(limits, 'A', 'A:1'),
      await salesQuery(limits, 'A', 'A:1'),
      await salesQuery(limits, 'B', 'B:1'),
    ];
    const refusal = expectRefusal(await limits.beginSalesQuery(await quota(limits, 'C', 'C:1', 'heavy')));
    expect(refusal).toMatchObject({
      status: 429,
      reason: 'api_sales_in_progress',
      retryAfter: 5,
      headers: { 'retry-after': '5', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' },
    });
    // The refusal by the whole API gave back the account's place: C can run one as soon as B ends.
    await running[2]!.release();
    await salesQuery(limits, 'C', 'C:1');
  });

  it('IP block: 20 wrong keys in 60 s block the IP with the real wait in Retry-After, Limit 20 and Remaining 0 (Limits, 429 table)', async () => {
    const { limits, clock } = setUp();
    for (let i = 0; i < 19; i += 1) {
      await (await keyCheck(limits)).end(true);
      clock.advance(1000);
    }
    expect(await limits.checkIpBlock(IP)).toEqual({ ok: true, headers: {} });
    await (await keyCheck(limits)).end(true); // the 20th, at T0 + 19 s
    clock.advance(500);
    expect(await limits.checkIpBlock(IP)).toEqual({
      ok: false,
      status: 429,
      reason: 'ip_blocked',
      retryAfter: 41, // the first failure (T0) leaves at T0 + 60 s: 40.5 s from now, rounded up
      headers: { 'retry-after': '41', 'x-ratelimit-limit': '20', 'x-ratelimit-remaining': '0' },
    });
    clock.set(T0 + 59_999);
    expect(expectRefusal(await limits.checkIpBlock(IP)).retryAfter).toBe(1);
    clock.set(T0 + 60_000);
    expect((await limits.checkIpBlock(IP)).ok).toBe(true);
    // Another IP is not blocked; IPv6 counts by /64.
    expect((await limits.checkIpBlock('203.0.113.8')).ok).toBe(true);
    for (let i = 0; i < 20; i += 1) await (await keyCheck(limits, `2001:db8:0:1::${i + 1}`)).end(true);
    expect((await limits.checkIpBlock('2001:db8:0:1:ffff::9')).ok).toBe(false);
  });

  it('unauthenticated calls: above 40 in progress plus failures of the last minute, 429 before the key is read with Retry-After 60, Limit 40, Remaining 0 (Limits, 429 table; docs/pos-api.md, Settled details)', async () => {
    const { limits, clock } = setUp();
    const checks: KeyCheck[] = [];
    for (let i = 0; i < 40; i += 1) checks.push(await keyCheck(limits));
    expect(await limits.beginKeyCheck(IP)).toEqual({
      ok: false,
      status: 429,
      reason: 'unauthenticated_calls',
      retryAfter: 60,
      headers: { 'retry-after': '60', 'x-ratelimit-limit': '40', 'x-ratelimit-remaining': '0' },
    });
    // Ten end as wrong keys: still counted (failures of the last minute). Ten end with a right key: freed.
    clock.advance(1000);
    for (const check of checks.slice(0, 10)) await check.end(true);
    expect((await limits.beginKeyCheck(IP)).ok).toBe(false);
    for (const check of checks.slice(10, 20)) await check.end(false);
    for (let i = 0; i < 10; i += 1) await keyCheck(limits);
    expect((await limits.beginKeyCheck(IP)).ok).toBe(false);
    // Another IP has its own count.
    await keyCheck(limits, '198.51.100.1');
  });

  it("a right key's check ends with its quota's take, admitted or refused; ending it again changes nothing", async () => {
    const { limits } = setUp();
    const checks: KeyCheck[] = [];
    for (let i = 0; i < 40; i += 1) checks.push(await keyCheck(limits));
    expect((await limits.beginKeyCheck(IP)).ok).toBe(false);

    // Twenty calls of a right key take their quota, the check handed over with it; ten more than the
    // quota's room are refused by it, and their checks end all the same.
    await spend(limits, 'A', 'A:1', 'default', POS_KEY_QUOTA.default - 10);
    const decisions = [];
    for (const check of checks.slice(0, 20))
      decisions.push(
        await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'default', keyCheck: check }),
      );
    expect(decisions.filter((decision) => decision.ok)).toHaveLength(10);
    // As wrong keys, after the handover: no failure is recorded, nothing counts toward the IP.
    for (const check of checks.slice(0, 20)) await check.end(true);
    for (let i = 0; i < 20; i += 1) await keyCheck(limits);
    expect((await limits.beginKeyCheck(IP)).ok).toBe(false);
    expect(await limits.checkIpBlock(IP)).toEqual({ ok: true, headers: {} });
  });

  it('absolute ceiling: 600 default / 100 heavy per presented key text, refused calls count too, Limit the ceiling (Limits, 429 table; docs/pos-api.md, Settled details)', async () => {
    const { limits, clock } = setUp();
    expect(POS_ABSOLUTE_CEILING).toEqual({ default: 600, heavy: 100 });
    const text = 'gtpk_' + 'x'.repeat(43);
    for (const routeClass of ['default', 'heavy'] as const) {
      const ceiling = POS_ABSOLUTE_CEILING[routeClass];
      clock.set(T0);
      for (let i = 0; i < ceiling; i += 1)
        expect((await limits.checkAbsoluteCeiling(text, routeClass)).ok).toBe(true);
      clock.set(T0 + 30_000);
      expect(await limits.checkAbsoluteCeiling(text, routeClass)).toEqual({
        ok: false,
        status: 429,
        reason: 'absolute_ceiling',
        retryAfter: 60,
        headers: { 'retry-after': '60', 'x-ratelimit-limit': String(ceiling), 'x-ratelimit-remaining': '0' },
      });
      // The refused calls count: a flood at T0 + 30 s keeps the key text refused after the first calls left.
      for (let i = 1; i < ceiling; i += 1) await limits.checkAbsoluteCeiling(text, routeClass);
      clock.set(T0 + 60_000);
      expect((await limits.checkAbsoluteCeiling(text, routeClass)).ok).toBe(false);
      clock.set(T0 + 90_001);
      expect((await limits.checkAbsoluteCeiling(text, routeClass)).ok).toBe(true);
    }
    // Another key text, and a call without one, are not affected.
    expect((await limits.checkAbsoluteCeiling('gtpk_' + 'y'.repeat(43), 'default')).ok).toBe(true);
    expect((await limits.checkAbsoluteCeiling(null, 'default')).ok).toBe(true);
  });

  it('documentation pages: 30 a minute per IP, Retry-After 60 without X-RateLimit-* (Limits, 429 table; docs/pos-api.md, Settled details)', async () => {
    const { limits, clock } = setUp();
    for (let i = 0; i < 30; i += 1) expect((await limits.checkDocumentationPage(IP)).ok).toBe(true);
    expect(await limits.checkDocumentationPage(IP)).toEqual({
      ok: false,
      status: 429,
      reason: 'documentation_pages',
      retryAfter: 60,
      headers: { 'retry-after': '60' },
    });
    clock.advance(60_000);
    expect((await limits.checkDocumentationPage(IP)).ok).toBe(true);
  });
});

describe('POS limits: the bullets (Limits; docs/pos-api.md, Settled details)', () => {
  it("every authenticated response carries X-RateLimit-Limit, -Remaining and -Reset; Remaining is the lower of the key's and the account's balance (Limits)", async () => {
    const { limits } = setUp();
    expect((await quota(limits, 'A', 'A:1')).headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(T0_SECONDS + 60),
    });
    // Two other keys spend 130 of the account's 180: the account's balance (49) is now the lower.
    await spend(limits, 'A', 'A:2', 'default', 60);
    await spend(limits, 'A', 'A:3', 'default', 60);
    await spend(limits, 'A', 'A:4', 'default', 10);
    const decision = await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'default' });
    expect(decision.ok).toBe(true);
    expect(decision.headers).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '48',
      'x-ratelimit-reset': String(T0_SECONDS + 60),
    });
    // A sales query that starts sends the same headers.
    const sales = await limits.beginSalesQuery(await quota(limits, 'A', 'A:1', 'heavy'));
    expect(sales.headers).toEqual({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '9',
      'x-ratelimit-reset': String(T0_SECONDS + 60),
    });
  });

  it('Reset is Unix seconds and an upper bound; the window is sliding (Limits)', async () => {
    const { limits, clock } = setUp();
    clock.set(T0 + 250); // not on a whole second: Reset rounds up
    await quota(limits, 'A', 'A:1', 'heavy');
    clock.set(T0 + 30_000);
    await spend(limits, 'A', 'A:1', 'heavy', 8);
    const last = await quota(limits, 'A', 'A:1', 'heavy');
    expect(last.remaining).toBe(0);
    expect(last.reset).toBe(T0_SECONDS + 61);
    expect((await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'heavy' })).ok).toBe(
      false,
    );
    // A call counts for 60 s after it was admitted: one is back at T0 + 60.25 s, no earlier.
    clock.set(T0 + 60_249);
    expect((await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'heavy' })).ok).toBe(
      false,
    );
    clock.set(T0 + 60_250);
    expect(clock.now()).toBeLessThanOrEqual(last.reset * 1000);
    const back = await quota(limits, 'A', 'A:1', 'heavy');
    expect(back.remaining).toBe(0);
    // The nine calls of T0 + 30 s leave together at T0 + 90 s.
    expect(back.reset).toBe(T0_SECONDS + 90);
    clock.set(T0 + 90_000);
    expect((await quota(limits, 'A', 'A:1', 'heavy')).remaining).toBe(8);
  });

  it("errors count once the key is recognized, in the route's class: each class has its own balance (Limits)", async () => {
    const { limits } = setUp();
    await spend(limits, 'A', 'A:1', 'heavy', 10);
    expect((await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'heavy' })).ok).toBe(
      false,
    );
    expect((await quota(limits, 'A', 'A:1', 'default')).remaining).toBe(59);
  });

  it('rotation: new and previous key have their own balance, the account covers both (Limits)', async () => {
    const { limits } = setUp();
    // The credential's previous generation and its new one: two buckets, one account.
    await spend(limits, 'A', 'cred1:gen1', 'heavy', 10);
    expect(
      (await limits.takeQuota({ accountId: 'A', keyBucket: 'cred1:gen1', routeClass: 'heavy' })).ok,
    ).toBe(false);
    const fresh = await quota(limits, 'A', 'cred1:gen2', 'heavy');
    expect(fresh.remaining).toBe(9);
    await spend(limits, 'A', 'cred1:gen2', 'heavy', 9);
    await spend(limits, 'A', 'cred2:gen1', 'heavy', 9);
    // The account has spent 29 of 30: the last call of a third key leaves 0 in the account.
    expect((await quota(limits, 'A', 'cred3:gen1', 'heavy')).remaining).toBe(0);
    const refusal = expectRefusal(
      await limits.takeQuota({ accountId: 'A', keyBucket: 'cred2:gen1', routeClass: 'heavy' }),
    );
    expect(refusal.reason).toBe('account_ceiling');
  });

  it('IP block: only the failures that count block, and the block lasts until they leave the last minute (Limits, IP block)', async () => {
    const { limits, clock } = setUp();
    // Revoked, expired, paused or replaced keys: `end(false)`, not counted.
    for (let i = 0; i < 30; i += 1) await (await keyCheck(limits)).end(false);
    expect((await limits.checkIpBlock(IP)).ok).toBe(true);
    for (let i = 0; i < 20; i += 1) await (await keyCheck(limits)).end(true);
    expect((await limits.checkIpBlock(IP)).ok).toBe(false);
    // Blocked even with a right key: the gate checks the block before the key.
    clock.advance(59_999);
    expect((await limits.checkIpBlock(IP)).ok).toBe(false);
    clock.advance(1);
    expect((await limits.checkIpBlock(IP)).ok).toBe(true);
  });

  it('concurrent-refused calls also count toward the per-minute limit (Limits)', async () => {
    const { limits } = setUp();
    await salesQuery(limits, 'A', 'A:1');
    await salesQuery(limits, 'A', 'A:1');
    for (let i = 0; i < 8; i += 1) {
      const refusal = expectRefusal(await limits.beginSalesQuery(await quota(limits, 'A', 'A:1', 'heavy')));
      expect(refusal.headers['x-ratelimit-remaining']).toBe(String(7 - i));
    }
    expect(
      expectRefusal(await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'heavy' })).reason,
    ).toBe('key_quota');
  });

  it("refused calls consume nothing: a call refused by the account ceiling has not spent the key's balance, and vice versa (docs/api-conventions.md)", async () => {
    const { limits, clock } = setUp();
    // Key A:1 spent at T0; its refused calls must not spend the account.
    await spend(limits, 'A', 'A:1', 'heavy', 10);
    for (let i = 0; i < 50; i += 1)
      expect((await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'heavy' })).ok).toBe(
        false,
      );
    // At T0 + 30 s the account has exactly 20 left: A:2 spends 10, A:3 9 and A:4 the last one.
    clock.set(T0 + 30_000);
    await spend(limits, 'A', 'A:2', 'heavy', 10);
    await spend(limits, 'A', 'A:3', 'heavy', 9);
    expect((await quota(limits, 'A', 'A:4', 'heavy')).remaining).toBe(0);
    // The account is spent; A:3's refused calls must not spend A:3's own last call.
    for (let i = 0; i < 50; i += 1)
      expect(
        expectRefusal(await limits.takeQuota({ accountId: 'A', keyBucket: 'A:3', routeClass: 'heavy' }))
          .reason,
      ).toBe('account_ceiling');
    // At T0 + 60 s A:1's calls leave the account: A:3 still has its tenth call, and no more.
    clock.set(T0 + 60_000);
    expect((await quota(limits, 'A', 'A:3', 'heavy')).remaining).toBe(0);
    expect(
      expectRefusal(await limits.takeQuota({ accountId: 'A', keyBucket: 'A:3', routeClass: 'heavy' })).reason,
    ).toBe('key_quota');
  });

  it('a lease not released expires (a process that died)', async () => {
    const { limits, clock } = setUp({ salesLeaseMs: 30_000, keyCheckLeaseMs: 10_000 });
    await salesQuery(limits, 'A', 'A:1');
    await salesQuery(limits, 'A', 'A:1'); // neither is ever released
    clock.advance(29_999);
    expect(
      expectRefusal(await limits.beginSalesQuery(await quota(limits, 'A', 'A:2', 'heavy'))).retryAfter,
    ).toBe(5);
    clock.advance(1);
    await salesQuery(limits, 'A', 'A:2');
    // A key check never ended stops counting for its IP after keyCheckLeaseMs.
    for (let i = 0; i < 40; i += 1) await keyCheck(limits);
    expect((await limits.beginKeyCheck(IP)).ok).toBe(false);
    clock.advance(10_000);
    expect((await limits.beginKeyCheck(IP)).ok).toBe(true);
  });

  it('a sales query released when it ends frees its place; a second release does nothing', async () => {
    const { limits } = setUp();
    const first = await salesQuery(limits, 'A', 'A:1');
    await salesQuery(limits, 'A', 'A:1');
    await first.release();
    await first.release();
    await salesQuery(limits, 'A', 'A:1');
    expect((await limits.beginSalesQuery(await quota(limits, 'A', 'A:1', 'heavy'))).ok).toBe(false);
  });

  it('shared store unreachable: sales queries get 503 Retry-After 60, other routes go on unmeasured without X-RateLimit-* (docs/pos-api.md, Settled details)', async () => {
    const { limits } = setUp(undefined, unreachableStore());
    expect(await limits.checkIpBlock(IP)).toEqual({ ok: true, headers: {} });
    expect(await limits.checkAbsoluteCeiling('gtpk_' + 'x'.repeat(43), 'heavy')).toEqual({
      ok: true,
      headers: {},
    });
    const check = await keyCheck(limits);
    await expect(check.end(true)).resolves.toBeUndefined();
    const decision = await limits.takeQuota({ accountId: 'A', keyBucket: 'A:1', routeClass: 'default' });
    expect(decision).toMatchObject({ ok: true, headers: {} });
    const heavy = await quota(limits, 'A', 'A:1', 'heavy');
    expect(heavy.measured).toBe(false);
    expect(await limits.beginSalesQuery(heavy)).toEqual({
      ok: false,
      status: 503,
      reason: 'store_unavailable',
      retryAfter: 60,
      headers: { 'retry-after': '60' },
    });
    expect((await limits.checkDocumentationPage(IP)).ok).toBe(true);
  });

  it('shared store lost between the quota and the sales query: 503 with the X-RateLimit-* of the call (docs/pos-api.md, Settled details)', async () => {
    const memory = createMemoryRateLimitStore();
    let reachable = true;
    const store: RateLimitStore = {
      ...memory,
      acquire: (...args) => (reachable ? memory.acquire(...args) : Promise.reject(new Error('ETIMEDOUT'))),
    };
    const { limits } = setUp(undefined, store);
    const taken = await quota(limits, 'A', 'A:1', 'heavy');
    reachable = false;
    expect(await limits.beginSalesQuery(taken)).toMatchObject({
      ok: false,
      status: 503,
      retryAfter: 60,
      headers: { 'retry-after': '60', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '9' },
    });
  });
});

describe('POS limits: property', () => {
  // Five keys: four of account A (two of them the generations of one rotated credential), one of B.
  const KEYS = [
    { text: 'gtpk_a1', bucket: 'c1:g1', account: 'A' },
    { text: 'gtpk_a1b', bucket: 'c1:g2', account: 'A' },
    { text: 'gtpk_a2', bucket: 'c2:g1', account: 'A' },
    { text: 'gtpk_a3', bucket: 'c3:g1', account: 'A' },
    { text: 'gtpk_b1', bucket: 'c4:g1', account: 'B' },
  ] as const;
  const API_SALES = 3;
  const LEASE_MS = 20_000;
  const WINDOW = 60_000;

  type Op =
    | { kind: 'call'; key: number; routeClass: PosRouteClass; sales: boolean; repeat: number }
    | { kind: 'advance'; ms: number }
    | { kind: 'end'; pick: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({
        kind: fc.constant('call' as const),
        key: fc.nat({ max: KEYS.length - 1 }),
        routeClass: fc.constantFrom<PosRouteClass>('heavy', 'heavy', 'default'),
        sales: fc.boolean(),
        // Now and then a burst of one call repeated at one instant, enough to reach the absolute ceiling.
        repeat: fc.oneof(
          { weight: 30, arbitrary: fc.constant(1) },
          { weight: 1, arbitrary: fc.integer({ min: 2, max: 150 }) },
        ),
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3000 }) }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('advance' as const),
        ms: fc.integer({ min: 0, max: 70_000 }),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('end' as const), pick: fc.nat() }) },
  );

  const inWindow = (times: number[], now: number) => times.filter((t) => t > now - WINDOW).length;

  /** No `limit + 1` of the times fit in any sliding 60 s window. */
  function assertNeverAbove(times: number[], limit: number) {
    const sorted = [...times].sort((a, b) => a - b);
    for (let i = limit; i < sorted.length; i += 1)
      expect(sorted[i]! - sorted[i - limit]!).toBeGreaterThanOrEqual(WINDOW);
  }

  it('for random calls and clock moves, no key exceeds its quota nor an account its ceiling in any sliding 60 s window, and refused calls never consume (except where the document says)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 300, size: 'max' }), async (ops) => {
        const { limits, clock } = setUp({ salesInProgressCeiling: API_SALES, salesLeaseMs: LEASE_MS });
        // The model: refused calls consume nothing, except the absolute ceiling (every call) and a
        // concurrency refusal (its per-minute call stays spent).
        const ceilingLog = new Map<string, number[]>();
        const spent = new Map<string, number[]>();
        const log = (map: Map<string, number[]>, key: string) => {
          let times = map.get(key);
          if (times === undefined) map.set(key, (times = []));
          return times;
        };
        interface Running {
          account: string;
          expires: number;
          released: boolean;
          query: SalesQuery;
        }
        const running: Running[] = [];
        const live = (now: number) => running.filter((r) => !r.released && r.expires > now);

        async function call(key: (typeof KEYS)[number], routeClass: PosRouteClass, sales: boolean) {
          const now = clock.now();
          const ceilingTimes = log(ceilingLog, `${key.text}|${routeClass}`);
          const ceilingFull = inWindow(ceilingTimes, now) >= POS_ABSOLUTE_CEILING[routeClass];
          ceilingTimes.push(now);
          const ceiling = await limits.checkAbsoluteCeiling(key.text, routeClass);
          expect(ceiling.ok).toBe(!ceilingFull);
          if (!ceiling.ok) return;

          const keyTimes = log(spent, `key|${key.bucket}|${routeClass}`);
          const accountTimes = log(spent, `account|${key.account}|${routeClass}`);
          const keyLeft = POS_KEY_QUOTA[routeClass] - inWindow(keyTimes, now);
          const accountLeft = POS_ACCOUNT_CEILING[routeClass] - inWindow(accountTimes, now);
          const decision = await limits.takeQuota({
            accountId: key.account,
            keyBucket: key.bucket,
            routeClass,
          });
          if (keyLeft <= 0 || accountLeft <= 0) {
            expect(decision).toMatchObject({
              ok: false,
              reason: keyLeft <= 0 ? 'key_quota' : 'account_ceiling',
              headers: {
                'x-ratelimit-limit': String(POS_KEY_QUOTA[routeClass]),
                'x-ratelimit-remaining': '0',
              },
            });
            return;
          }
          keyTimes.push(now);
          accountTimes.push(now);
          if (!decision.ok) throw new Error(`unexpected refusal: ${decision.reason}`);
          const remaining = Math.min(keyLeft, accountLeft) - 1;
          expect(decision.quota.remaining).toBe(remaining);
          expect(decision.quota.reset * 1000).toBeGreaterThan(now);
          if (!sales) return;

          const accountBusy = live(now).filter((r) => r.account === key.account).length >= 2;
          const apiBusy = live(now).length >= API_SALES;
          const started = await limits.beginSalesQuery(decision.quota);
          if (accountBusy || apiBusy) {
            expect(started).toMatchObject({
              ok: false,
              retryAfter: 5,
              reason: accountBusy ? 'account_sales_in_progress' : 'api_sales_in_progress',
              headers: { 'x-ratelimit-remaining': String(remaining) },
            });
            return;
          }
          if (!started.ok) throw new Error(`unexpected refusal: ${started.reason}`);
          running.push({ account: key.account, expires: now + LEASE_MS, released: false, query: started });
          expect(live(now).filter((r) => r.account === key.account).length).toBeLessThanOrEqual(2);
          expect(live(now).length).toBeLessThanOrEqual(API_SALES);
        }

        for (const step of ops) {
          if (step.kind === 'advance') {
            clock.advance(step.ms);
            continue;
          }
          if (step.kind === 'end') {
            const held = running.filter((r) => !r.released);
            const chosen = held[step.pick % Math.max(1, held.length)];
            if (chosen !== undefined) {
              chosen.released = true;
              await chosen.query.release();
            }
            continue;
          }
          const key = KEYS[step.key]!;
          for (let i = 0; i < step.repeat; i += 1)
            await call(key, step.routeClass, step.sales && step.routeClass === 'heavy');
        }

        // The invariants themselves, on what was spent.
        for (const [name, times] of spent) {
          const [scope, , routeClass] = name.split('|') as [string, string, PosRouteClass];
          assertNeverAbove(times, (scope === 'key' ? POS_KEY_QUOTA : POS_ACCOUNT_CEILING)[routeClass]);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('POS limits: the limits before the key in one operation (Limits, order of the 429s)', () => {
  const TEXTS = ['gtpk_' + 'a'.repeat(43), 'gtpk_' + 'b'.repeat(43), null] as const;
  const IPS = ['203.0.113.7', '203.0.113.8'] as const;
  const step = fc.oneof(
    fc.record({
      kind: fc.constant('call' as const),
      ip: fc.integer({ min: 0, max: 1 }),
      text: fc.integer({ min: 0, max: 2 }),
      routeClass: fc.constantFrom<PosRouteClass>('default', 'heavy'),
      // How the call's key check ends: a wrong key (counts for the IP block), a right one, or not yet.
      end: fc.constantFrom('wrong', 'right', 'open'),
      repeat: fc.integer({ min: 1, max: 40 }),
    }),
    fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 1, max: 30_000 }) }),
  );
  /** A decision without its functions (a key check's `end` and `handOver`). */
  const withoutEnd = (decision: object) =>
    Object.fromEntries(Object.entries(decision).filter(([, value]) => typeof value !== 'function'));

  it('admitBeforeKey answers what checkIpBlock, checkAbsoluteCeiling and beginKeyCheck answer in turn, and counts the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 120 }), async (steps) => {
        const once = setUp({ keyCheckLeaseMs: 20_000 });
        const inTurn = setUp({ keyCheckLeaseMs: 20_000 });
        for (const s of steps) {
          if (s.kind === 'advance') {
            once.clock.advance(s.ms);
            inTurn.clock.advance(s.ms);
            continue;
          }
          const ip = IPS[s.ip];
          const text = TEXTS[s.text] ?? null;
          for (let i = 0; i < s.repeat; i += 1) {
            const together = await once.limits.admitBeforeKey(ip, text, s.routeClass);
            let apart: KeyCheck | LimitRefusal | { ok: true; headers: object } =
              await inTurn.limits.checkIpBlock(ip);
            if (apart.ok) apart = await inTurn.limits.checkAbsoluteCeiling(text, s.routeClass);
            if (apart.ok) apart = await inTurn.limits.beginKeyCheck(ip);
            expect(withoutEnd(together)).toEqual(withoutEnd(apart));
            if (together.ok && 'end' in apart && s.end !== 'open') {
              await together.end(s.end === 'wrong');
              await apart.end(s.end === 'wrong');
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('a key check ended twice ends once, and the second call resolves with the first', async () => {
    const { limits } = setUp();
    for (let i = 0; i < 39; i += 1) await keyCheck(limits);
    const check = await limits.admitBeforeKey(IP, null, 'default');
    if (!check.ok) throw new Error('refused');
    const first = check.end(true);
    expect(check.end(false)).toBe(first);
    await first;
    // Counted as a wrong key (kept for the minute): the IP is at its 40 unauthenticated calls.
    expect(expectRefusal(await limits.admitBeforeKey(IP, null, 'default')).reason).toBe(
      'unauthenticated_calls',
    );
  });

  it('shared store unreachable: admitBeforeKey lets the call go on unmeasured', async () => {
    const { limits } = setUp(undefined, unreachableStore());
    const check = await limits.admitBeforeKey(IP, 'gtpk_' + 'x'.repeat(43), 'heavy');
    expect(withoutEnd(check)).toEqual({ ok: true, headers: {} });
    if (check.ok) await expect(check.end(true)).resolves.toBeUndefined();
  });
});
