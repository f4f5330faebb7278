import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectApiProblem as expectProblem, expectRateHeaders } from '../expect-http.js';
import { posGet, publicRequest } from '../request.js';
import {
  act,
  blockIp,
  createKey,
  EVENTS,
  expect401,
  expectAddressNotFound,
  PING,
  PLACES,
  PREFIX,
  remainingAfterPing,
  repeat,
  SALES_URL as SALES,
  seedAccount,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from './fixtures.js';

// The order in which the point-of-sale data API answers problems (pos-data-api.md, Authentication,
// Errors, Limits; DECISIONS, Both APIs and POS data API): pairs of gates that can both fire on one request,
// where the earlier one wins. pos-api.gate-order.pair-table.security.test.ts derives every such pair from
// the exported gate array; these are the hand-written ones with their finer points.

describeEachDialect('POS API, gate order', (dialect) => {
  const t = useTestApp(dialect);

  describe('pairs of gates: the earlier one wins', () => {
    it('conflicting header + unknown path: 400 (Authentication before Errors, 404)', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        url: `${PREFIX}nope`,
        key,
        headers: { 'Producer-Token': 'x' },
      });
      expectProblem(response, 400, 'conflicting_credentials');
    });

    it('conflicting header + wrong method: 400', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: PING,
        key,
        headers: { 'Api-Token': 'x' },
      });
      expectProblem(response, 400, 'conflicting_credentials');
    });

    it('unknown path + wrong method: 404 without Allow', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, { method: 'DELETE', url: `${PREFIX}nope`, key });
      expectAddressNotFound(response);
      expect(response.headers.allow).toBeUndefined();
    });

    it('wrong method + no key: 405', async () => {
      await seedAccountAndKey(t);
      const response = await publicRequest(t, { method: 'PUT', url: SALES });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('other-version Accept + no key: 404', async () => {
      await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        url: PING,
        headers: { accept: 'application/vnd.x.v2+json' },
      });
      expectAddressNotFound(response);
    });

    it('IP block + right key: 429', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      const response = await posGet(t, SALES, key);
      expectProblem(response, 429, 'rate_limited');
      expect(response.headers['x-ratelimit-limit']).toBe('20');
    });

    it('IP block + non-JSON body: 429, and the block comes before the 401 of a stopped key', async () => {
      const { id, key } = await seedAccountAndKey(t);
      await blockIp(t);
      const body = await publicRequest(t, {
        url: PING,
        key,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectProblem(body, 429, 'rate_limited');
      await act(t, id, 'pause');
      expectProblem(await posGet(t, PING, key), 429, 'rate_limited');
    });

    it('conflicting header + IP block: 400', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      expectProblem(
        await publicRequest(t, { url: PING, key, headers: { 'Online-Catalog-Identifier': 'x' } }),
        400,
        'conflicting_credentials',
      );
    });

    it('other-version Accept + IP block: 404', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      expectAddressNotFound(
        await publicRequest(t, { url: PING, key, headers: { accept: 'application/vnd.x.v2+json' } }),
      );
    });

    it('wrong method + other-version Accept: 405', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: PING,
        key,
        headers: { accept: 'application/vnd.x.v2+json' },
      });
      expectProblem(response, 405, 'method_not_allowed');
    });

    it('401 + missing permission: 401', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { permissions: [] });
      await act(t, id, 'pause');
      expect401(await posGet(t, EVENTS, key), 'paused');
      expect401(await posGet(t, SALES, UNKNOWN_KEY), null);
    });

    it('401 + invalid parameters: 401', async () => {
      await seedAccountAndKey(t);
      expect401(await posGet(t, `${PREFIX}events?place=P1&unknown=1`), null);
    });

    it('key quota 429 + missing permission: 429', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      await repeat(60, 200, () => posGet(t, PING, key));
      const response = await posGet(t, EVENTS, key);
      expect(expectProblem(response, 429, 'rate_limited')).not.toHaveProperty('required_permission');
      expect(response.headers['retry-after']).toBe('60');
      expectRateHeaders(response, 60, 0);
    });

    it('key quota 429 + non-JSON body: 429', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(60, 200, () => posGet(t, PING, key));
      const response = await publicRequest(t, {
        url: PING,
        key,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectProblem(response, 429, 'rate_limited');
    });

    it('non-JSON body + missing permission: 415', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      const response = await publicRequest(t, {
        url: EVENTS,
        key,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectProblem(response, 415, null);
    });

    it('key quota 429 + invalid parameters: 429', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(60, 200, () => posGet(t, PING, key));
      expectProblem(await posGet(t, `${EVENTS}&limit=0`, key), 429, 'rate_limited');
    });

    it('non-JSON body + invalid parameters: 415', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        url: `${PLACES}?bogus=1`,
        key,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectProblem(response, 415, null);
    });

    it('missing permission + invalid parameters: 403', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      const events = await posGet(t, `${PREFIX}events?limit=500&bogus=1`, key);
      expect(expectProblem(events, 403, 'forbidden_permission').required_permission).toBe('event.view');
      const sales = await posGet(t, `${PREFIX}sales/by-payment-method?place=P1`, key);
      expect(expectProblem(sales, 403, 'forbidden_permission').required_permission).toBe(
        'sale-by-payment-method.view',
      );
    });

    it('missing permission + place outside the key: 403', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [], places: ['P2'] });
      expectProblem(await posGet(t, EVENTS, key), 403, 'forbidden_permission');
    });

    it('invalid parameters + place outside the key: 422', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { places: ['P2'] });
      const events = await posGet(t, `${EVENTS}&limit=0`, key);
      expect(expectProblem(events, 422, 'invalid_parameter').param).toBe('limit');
      const sales = await posGet(
        t,
        `${PREFIX}sales/by-payment-method?place=P1&from=2026-11-19T00:00:00&to=2026-11-20T00:00:00Z`,
        key,
      );
      expect(expectProblem(sales, 422, 'invalid_parameter').param).toBe('from');
      const unknownPlace = await posGet(t, `${PREFIX}events?place=P9&search=`, key);
      expect(expectProblem(unknownPlace, 422, 'invalid_parameter').param).toBe('search');
    });

    it('place and event both wrong: place is reported', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { places: ['P2'] });
      for (const url of [
        `${PREFIX}sales/by-payment-method?place=P9&event=E9&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z`,
        `${PREFIX}sales/by-payment-method?place=P1&event=E9&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z`,
        `${PREFIX}sales/by-payment-method?place=P1&event=E2&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z`,
      ]) {
        expect(expectProblem(await posGet(t, url, key), 404, 'not_found').param, url).toBe('place');
      }
      // The place is right, the event is of another place: event.
      const event = await posGet(
        t,
        `${PREFIX}sales/by-payment-method?place=P2&event=E1&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z`,
        key,
      );
      expect(expectProblem(event, 404, 'not_found').param).toBe('event');
    });

    it('every error after the key is counted: 403, 422, 404 place, 501 (What the service does; Limits)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      expect((await posGet(t, EVENTS, key)).statusCode).toBe(403);
      expect((await posGet(t, `${PLACES}?x=1`, key)).statusCode).toBe(422);
      expect((await posGet(t, `${PREFIX}products?place=P9`, key)).statusCode).toBe(404);
      expect((await posGet(t, `${PREFIX}orders/1`, key)).statusCode).toBe(501);
      expect(await remainingAfterPing(t, key)).toBe(55);
    });
  });
});
