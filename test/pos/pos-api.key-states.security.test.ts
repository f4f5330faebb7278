import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectApiProblem as expectProblem, expectRateHeaders } from '../expect-http.js';
import { posGet, publicRequest } from '../request.js';
import {
  ACCOUNTS,
  act,
  blockIp,
  createKey,
  editKey,
  EVENTS,
  expect401,
  expectDeprecation,
  expectNoDeprecation,
  expectNotBlocked,
  HOUR,
  PING,
  PLACES,
  PREFIX,
  remainingAfterPing,
  repeat,
  rotate,
  SALES_URL as SALES,
  seedAccount,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from './fixtures.js';

// What a presented key is worth (docs/pos-api.md, Authentication; States and transitions; Limits):
// 401 invalid_token with its reason, the precedence of the states, Deprecation and Sunset during a
// rotation's grace, and each key's own balance.

describeEachDialect('POS API, key states', (dialect) => {
  const t = useTestApp(dialect);

  describe('401 invalid_token', () => {
    it('absent, wrong or malformed keys: 401 with WWW-Authenticate, without reason (Authentication; Errors, 401)', async () => {
      const { key } = await seedAccountAndKey(t);
      const authorizations = [
        undefined,
        '',
        'Bearer',
        'Bearer ',
        `Bearer ${UNKNOWN_KEY}`,
        `Bearer ${key.slice(0, -1)}`,
        `Bearer ${key}x`,
        `Bearer ${key.toUpperCase()}`,
        `Bearer gtes_${key.slice(5)}`,
        'Bearer not-a-key',
        `Basic ${key}`,
        key,
        `Token ${key}`,
        `Bearer ${key} ${key}`,
        `Bearer:${key}`,
      ];
      for (const authorization of authorizations) {
        const response = await publicRequest(t, { url: PING, authorization });
        expect401(response, null);
      }
    });

    it('the key is never read from the query or another header (Authentication)', async () => {
      const { key } = await seedAccountAndKey(t);
      expect401(await posGet(t, `${PING}?api_key=${key}`), null);
      expect401(await posGet(t, `${PING}?access_token=${key}`), null);
      expect401(await publicRequest(t, { url: PING, headers: { 'x-api-key': key } }), null);
    });

    it('bearer in lowercase and extra spaces are accepted (Authentication)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (const authorization of [
        `bearer ${key}`,
        `BEARER ${key}`,
        `Bearer    ${key}`,
        `bearer \t ${key}   `,
        `   Bearer ${key}`,
      ]) {
        const response = await publicRequest(t, { url: PING, authorization });
        expect(response.statusCode, JSON.stringify(authorization)).toBe(200);
      }
    });

    it('every route refuses without a key, planned routes too (Authentication)', async () => {
      await seedAccountAndKey(t);
      for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}products`, `${PREFIX}orders/1`]) {
        expect401(await posGet(t, url), null);
      }
    });

    it('revoked: 401 reason revoked (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      await act(t, id, 'revoke');
      expect401(await posGet(t, PING, key), 'revoked');
      expect401(await posGet(t, SALES, key), 'revoked');
    });

    it('expired: 401 reason expired once the validity passes; extending it makes the same key work (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t, { expires_on: '2026-11-25' });
      t.clock.set(Date.UTC(2026, 10, 26, 2, 59, 59));
      expect((await posGet(t, PING, key)).statusCode).toBe(200);
      t.clock.set(Date.UTC(2026, 10, 26, 3, 0, 0));
      expect401(await posGet(t, PING, key), 'expired');
      await editKey(t, id, { expires_at: '2027-01-01T00:00:00Z' });
      expect((await posGet(t, PING, key)).statusCode).toBe(200);
    });

    it('paused: 401 reason paused; reactivated: the same key works again (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      await act(t, id, 'pause');
      expect401(await posGet(t, PING, key), 'paused');
      expect401(await posGet(t, EVENTS, key), 'paused');
      await act(t, id, 'reactivate');
      // The 401s spent nothing of the key's balance.
      expect(await remainingAfterPing(t, key)).toBe(59);
    });

    it('replaced: the previous key after its 24 hours gives 401 reason replaced (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      expect(rotated.previous_valid_until).toBe('2026-11-21T12:00:00Z');
      t.clock.set(Date.UTC(2026, 10, 21, 11, 59, 59));
      expect((await posGet(t, PING, key)).statusCode).toBe(200);
      t.clock.set(Date.UTC(2026, 10, 21, 12, 0, 0));
      expect401(await posGet(t, PING, key), 'replaced');
      expect((await posGet(t, PING, rotated.key)).statusCode).toBe(200);
    });

    it('rotation invalidating the current key: the old and any previous key are replaced at once (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const second = await rotate(t, id);
      const third = await rotate(t, id, true);
      expect401(await posGet(t, PING, key), 'replaced');
      expect401(await posGet(t, PING, second.key), 'replaced');
      expect((await posGet(t, PING, third.key)).statusCode).toBe(200);
    });

    it('pause during the grace: the previous key is replaced for good, the new key paused until reactivated (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      t.clock.advance(HOUR);
      await act(t, id, 'pause');
      expect401(await posGet(t, PING, key), 'replaced');
      expect401(await posGet(t, PING, rotated.key), 'paused');
      await act(t, id, 'reactivate');
      expect((await posGet(t, PING, rotated.key)).statusCode).toBe(200);
      expect401(await posGet(t, PING, key), 'replaced');
    });

    it('precedence: revoked wins over expired, paused and replaced (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t, { expires_on: '2026-11-25' });
      const rotated = await rotate(t, id);
      await act(t, id, 'pause');
      await act(t, id, 'revoke');
      t.clock.set(Date.UTC(2026, 11, 1));
      expect401(await posGet(t, PING, key), 'revoked');
      expect401(await posGet(t, PING, rotated.key), 'revoked');
    });

    it('precedence: within the grace both current and previous keys answer revoked (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      t.clock.advance(HOUR);
      await act(t, id, 'revoke');
      expect401(await posGet(t, PING, key), 'revoked');
      expect401(await posGet(t, PING, rotated.key), 'revoked');
    });

    it('precedence: expired wins over paused and replaced (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t, { expires_on: '2026-11-25' });
      const rotated = await rotate(t, id);
      await act(t, id, 'pause');
      t.clock.set(Date.UTC(2026, 11, 1));
      expect401(await posGet(t, PING, rotated.key), 'expired');
      expect401(await posGet(t, PING, key), 'expired');
    });

    it('precedence: a previous key past its grace answers replaced even if the key is paused (States and transitions)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      t.clock.advance(25 * HOUR);
      await act(t, id, 'pause');
      expect401(await posGet(t, PING, key), 'replaced');
      expect401(await posGet(t, PING, rotated.key), 'paused');
    });

    it('the key from two rotations back: 401 without reason, counted for the IP block (States and transitions; Limits)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const second = await rotate(t, id);
      t.clock.advance(HOUR);
      const third = await rotate(t, id);
      expect401(await posGet(t, PING, key), null);
      expect((await posGet(t, PING, second.key)).statusCode).toBe(200);
      await repeat(19, 401, () => posGet(t, PING, key));
      const blocked = await posGet(t, PING, third.key);
      expectProblem(blocked, 429, 'rate_limited');
    });

    it('a deactivated owner account: 401 without reason, not counted for the IP block (docs/pos-api.md, Settled details)', async () => {
      const { key } = await seedAccountAndKey(t);
      await t.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares', active: false });
      for (let i = 0; i < 25; i += 1) expect401(await posGet(t, PING, key), null);
      await t.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares', active: true });
      await expectNotBlocked(t, key);
    });
  });

  describe('Deprecation and Sunset', () => {
    it('ping with the previous key: superseded true and superseded_until; with the current key: false and null (Ping response)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      const previous = await posGet(t, PING, key);
      expect(previous.statusCode).toBe(200);
      expect(bodyOf(previous).credential).toMatchObject({
        id,
        superseded: true,
        superseded_until: rotated.previous_valid_until,
      });
      expectDeprecation(previous, rotated.previous_valid_until!);
      const current = await posGet(t, PING, rotated.key);
      expect(bodyOf(current).credential).toMatchObject({ id, superseded: false, superseded_until: null });
      expectNoDeprecation(current);
    });

    it('Sunset is the HTTP date of superseded_until on every success of the previous key (Authentication)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      t.clock.advance(90 * 60_000 + 30_000);
      const rotated = await rotate(t, id);
      expect(rotated.previous_valid_until).toBe('2026-11-21T13:30:30Z');
      for (const url of [PING, PLACES, EVENTS, SALES]) {
        const response = await posGet(t, url, key);
        expect(response.statusCode, `${url} ${response.body}`).toBe(200);
        expect(response.headers.sunset).toBe('Sat, 21 Nov 2026 13:30:30 GMT');
        expect(response.headers.deprecation).toBe('true');
      }
    });

    it('errors authenticated by the previous key carry them too: 422, 404 place, 403, 415, 501, quota 429 (Authentication)', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { permissions: ['event.view'] });
      const rotated = await rotate(t, id);
      const until = rotated.previous_valid_until!;
      const refusals: [LightMyRequestResponse, number][] = [
        [await posGet(t, `${EVENTS}&limit=0`, key), 422],
        [await posGet(t, `${PREFIX}events?place=P9`, key), 404],
        [await posGet(t, SALES, key), 403],
        [
          await publicRequest(t, { url: PING, key, headers: { 'content-type': 'text/plain' }, payload: 'x' }),
          415,
        ],
        [await posGet(t, `${PREFIX}products`, key), 501],
      ];
      for (const [response, status] of refusals) {
        expect(response.statusCode, response.body).toBe(status);
        expectDeprecation(response, until);
      }
      // Four of those were in the default class (the 403 of sales is heavy): 56 pings spend the rest.
      await repeat(56, 200, () => posGet(t, PING, key));
      const limited = await posGet(t, PING, key);
      expectProblem(limited, 429, 'rate_limited');
      expectDeprecation(limited, until);
    });

    it('absent with the current key, and on 400, 401, 405, 404 of an address and the IP-blocked 429 (Authentication)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      expectNoDeprecation(await posGet(t, `${EVENTS}&limit=0`, rotated.key));
      expectNoDeprecation(await posGet(t, PING, rotated.key));
      expectNoDeprecation(await publicRequest(t, { url: PING, key, headers: { 'api-token': '1' } }));
      expectNoDeprecation(await publicRequest(t, { method: 'POST', url: PING, key }));
      expectNoDeprecation(await posGet(t, `${PREFIX}pong`, key));
      expectNoDeprecation(
        await publicRequest(t, { url: PING, key, headers: { accept: 'application/vnd.x.v2+json' } }),
      );
      await act(t, id, 'pause');
      expect401(await posGet(t, PING, key), 'replaced');
      await act(t, id, 'reactivate');
      await blockIp(t);
      const blocked = await posGet(t, PING, key);
      expectProblem(blocked, 429, 'rate_limited');
      expectNoDeprecation(blocked);
    });
  });

  describe('balances during a rotation', () => {
    it('the new and the previous key each have their own balance (Limits)', async () => {
      const { id, key } = await seedAccountAndKey(t);
      const rotated = await rotate(t, id);
      await repeat(60, 200, () => posGet(t, PING, key));
      const limited = await posGet(t, PING, key);
      expectProblem(limited, 429, 'rate_limited');
      expectDeprecation(limited, rotated.previous_valid_until!);
      const current = await posGet(t, PING, rotated.key);
      expect(current.statusCode).toBe(200);
      expectRateHeaders(current, 60, 59);
      expectNoDeprecation(current);
    });
  });
});
