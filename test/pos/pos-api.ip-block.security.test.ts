import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectApiProblem as expectProblem } from '../expect-http.js';
import { posGet, publicRequest } from '../request.js';
import {
  act,
  blockIp,
  createKey,
  EVENTS,
  expect401,
  expectNoDeprecation,
  expectNotBlocked,
  PING,
  PLACES,
  PREFIX,
  repeat,
  rotate,
  SALES_URL as SALES,
  seedAccount,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from './fixtures.js';

// The IP block of the point-of-sale data API (docs/pos-api.md, Limits, IP block; docs/api-conventions.md):
// 20 wrong keys in a sliding minute block the IP, even for a right key, and which failures count.

describeEachDialect('POS API, IP block', (dialect) => {
  const t = useTestApp(dialect);

  describe('IP block', () => {
    it('20 wrong keys in 60 s: 429 with real Retry-After, X-RateLimit-Limit 20, Remaining 0, even with a right key (Limits)', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(10, 401, () => posGet(t, PING, UNKNOWN_KEY));
      t.clock.advance(20_000);
      await repeat(5, 401, () => posGet(t, PING));
      await repeat(5, 401, () =>
        publicRequest(t, { url: PING, headers: { authorization: 'Bearer nonsense' } }),
      );
      for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}orders/1`]) {
        for (const presented of [key, UNKNOWN_KEY, undefined]) {
          const response = await posGet(t, url, presented);
          const body = expectProblem(response, 429, 'rate_limited');
          expect(body).not.toHaveProperty('param');
          expect(response.headers['retry-after']).toBe('40');
          expect(response.headers['x-ratelimit-limit']).toBe('20');
          expect(response.headers['x-ratelimit-remaining']).toBe('0');
          expectNoDeprecation(response);
        }
      }
      t.clock.advance(25_500);
      expect((await posGet(t, PING, key)).headers['retry-after']).toBe('15');
      // The first ten failures leave the minute: 10 remain, below 20.
      t.clock.advance(14_500);
      await expectNotBlocked(t, key);
    });

    it('the 20th failure blocks, the 19th does not; the block ends to the millisecond (Limits)', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(19, 401, () => posGet(t, PING, UNKNOWN_KEY));
      await expectNotBlocked(t, key);
      expect401(await posGet(t, PING, UNKNOWN_KEY), null);
      const blocked = await posGet(t, PING, key);
      expectProblem(blocked, 429, 'rate_limited');
      expect(blocked.headers['retry-after']).toBe('60');
      t.clock.advance(59_999);
      expect((await posGet(t, PING, key)).headers['retry-after']).toBe('1');
      t.clock.advance(1);
      await expectNotBlocked(t, key);
    });

    it('blocked calls do not prolong the block (Limits)', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      t.clock.advance(30_000);
      await repeat(10, 429, () => posGet(t, PING, UNKNOWN_KEY));
      t.clock.advance(30_000);
      await expectNotBlocked(t, key);
    });

    it('IPv6 addresses count by /64 (docs/api-conventions.md)', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(20, 401, () => publicRequest(t, { url: PING, key: UNKNOWN_KEY, ip: '2001:db8:0:7::1' }));
      expectProblem(
        await publicRequest(t, { url: PING, key, ip: '2001:db8:0:7::abcd' }),
        429,
        'rate_limited',
      );
      expect((await publicRequest(t, { url: PING, key, ip: '2001:db8:0:8::1' })).statusCode).toBe(200);
    });

    it('blocks one IP only (Limits)', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      expect((await publicRequest(t, { url: PING, key, ip: '10.0.0.7' })).statusCode).toBe(200);
      expect((await posGet(t, PING, key)).statusCode).toBe(429);
    });

    for (const state of ['revoked', 'expired', 'paused', 'replaced'] as const) {
      it(`a ${state} key does not count for the IP block (Limits)`, async () => {
        await seedAccount(t);
        const stopped = await createKey(t, { expires_on: '2026-11-25' });
        const { key } = await createKey(t);
        let presented = stopped.key;
        if (state === 'revoked') await act(t, stopped.id, 'revoke');
        if (state === 'expired') t.clock.set(Date.UTC(2026, 10, 27));
        if (state === 'paused') await act(t, stopped.id, 'pause');
        if (state === 'replaced') {
          await rotate(t, stopped.id, true);
          presented = stopped.key;
        }
        for (let i = 0; i < 25; i += 1) expect401(await posGet(t, PING, presented), state);
        await expectNotBlocked(t, key);
      });
    }
  });
});
