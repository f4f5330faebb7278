import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectApiProblem as expectProblem, expectRateHeaders } from '../expect-http.js';
import { posGet, publicRequest } from '../request.js';
import {
  ACCOUNTS,
  createKey,
  editKey,
  EVENTS,
  expect401,
  PING,
  PLACES,
  PREFIX,
  remainingAfterPing,
  SALES_URL as SALES,
  seedAccount,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from './fixtures.js';

// What the point-of-sale data API answers once the key is recognized (docs/pos-api.md, Authentication,
// Errors, States and transitions; docs/pos-api.md, Settled details): 415 without code, 403
// forbidden_permission, the places of the key and the planned routes' 501. Every one of them is counted.

type Body = Record<string, unknown>;

describeEachDialect('POS API, gates after the key', (dialect) => {
  const t = useTestApp(dialect);

  describe('415 without code', () => {
    it('a GET with a non-JSON body and a valid key: 415 without code, counted, with X-RateLimit-* and X-Request-Id (Errors)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const response = await publicRequest(t, {
          url: PING,
          key,
          headers: { 'content-type': type },
          payload: 'a=1',
        });
        const body = expectProblem(response, 415, null);
        expect(body).not.toHaveProperty('param');
        expect(response.headers['x-ratelimit-limit']).toBe('60');
        expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      }
      expect(await remainingAfterPing(t, key)).toBe(56);
    });

    it('a chunked non-JSON body is refused the same way (Errors)', async () => {
      const { key } = await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        url: PING,
        key,
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        payload: Readable.from([Buffer.from('abc')]),
      });
      expectProblem(response, 415, null);
      expectRateHeaders(response, 60, 59);
    });

    it('a GET with a JSON body, or without a body, is not refused for it (Errors)', async () => {
      const { key } = await seedAccountAndKey(t);
      const withJson = await publicRequest(t, {
        url: PING,
        key,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(withJson.statusCode, withJson.body).toBe(200);
      const typeOnly = await publicRequest(t, { url: PING, key, headers: { 'content-type': 'text/plain' } });
      expect(typeOnly.statusCode, typeOnly.body).toBe(200);
    });

    it('without a valid key the 401 comes first (Errors)', async () => {
      await seedAccountAndKey(t);
      for (const presented of [undefined, UNKNOWN_KEY]) {
        const response = await publicRequest(t, {
          url: PING,
          ...(presented === undefined ? {} : { key: presented }),
          headers: { 'content-type': 'text/plain' },
          payload: 'hello',
        });
        expect401(response, null);
      }
    });
  });

  describe('403 forbidden_permission', () => {
    it('events without event.view and sales without sale-by-payment-method.view: 403 with required_permission, counted (Authentication)', async () => {
      await seedAccount(t);
      const salesOnly = await createKey(t, { permissions: ['sale-by-payment-method.view'] });
      const eventsOnly = await createKey(t, { permissions: ['event.view'] });
      const events = await posGet(t, EVENTS, salesOnly.key);
      expect(expectProblem(events, 403, 'forbidden_permission').required_permission).toBe('event.view');
      expectRateHeaders(events, 60, 59);
      const sales = await posGet(t, SALES, eventsOnly.key);
      expect(expectProblem(sales, 403, 'forbidden_permission').required_permission).toBe(
        'sale-by-payment-method.view',
      );
      expectRateHeaders(sales, 10, 9);
      expect((await posGet(t, SALES, salesOnly.key)).statusCode).toBe(200);
      expect((await posGet(t, EVENTS, eventsOnly.key)).statusCode).toBe(200);
    });

    it('ping and places need no permission, and ping no longer lists a removed one (States and transitions)', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { permissions: [] });
      expect((await posGet(t, PING, key)).statusCode).toBe(200);
      expect((await posGet(t, PLACES, key)).statusCode).toBe(200);
      await editKey(t, id, { permissions: ['event.view'] });
      expect((bodyOf(await posGet(t, PING, key)).credential as Body).permissions).toEqual(['event.view']);
      expect((await posGet(t, EVENTS, key)).statusCode).toBe(200);
      await editKey(t, id, { permissions: [] });
      expect((bodyOf(await posGet(t, PING, key)).credential as Body).permissions).toEqual([]);
      expectProblem(await posGet(t, EVENTS, key), 403, 'forbidden_permission');
    });
  });

  describe('places of the key', () => {
    it('a removed place vanishes from /places and gives 404 param place, like a wrong id (States and transitions)', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { places: ['P1', 'P2'] });
      expect((await posGet(t, EVENTS, key)).statusCode).toBe(200);
      await editKey(t, id, { places: ['P2'] });
      const places = bodyOf(await posGet(t, PLACES, key));
      expect(places.all).toBe(false);
      expect((places.data as Body[]).map((place) => place.id)).toEqual(['P2']);
      for (const url of [EVENTS, SALES, `${PREFIX}events?place=P9`]) {
        const response = await posGet(t, url, key);
        expect(expectProblem(response, 404, 'not_found').param).toBe('place');
        expect(response.headers['x-ratelimit-limit']).toBeDefined();
      }
      expect((await posGet(t, `${PREFIX}events?place=P2`, key)).statusCode).toBe(200);
    });

    it('a place of another account is not reached (States and transitions)', async () => {
      await seedAccount(t);
      await seedAccount(t, 'other');
      await t.admin('PUT', `${ACCOUNTS}/other/places/Q1`, { name: 'Fora', timezone: 'America/Sao_Paulo' });
      const { key } = await createKey(t);
      const response = await posGet(t, `${PREFIX}events?place=Q1`, key);
      expect(expectProblem(response, 404, 'not_found').param).toBe('place');
    });
  });

  describe('501 planned routes', () => {
    const planned = [
      `${PREFIX}sales/summary?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z`,
      `${PREFIX}sales/by-day?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&place=P1`,
      `${PREFIX}sales/by-product?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&place=P1,P2`,
      `${PREFIX}sales/by-place?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z`,
      `${PREFIX}orders?created_from=2026-11-01T00:00:00Z&created_to=2026-11-02T00:00:00Z`,
      `${PREFIX}orders/ORD123`,
      `${PREFIX}products`,
      `${PREFIX}products?place=P2&limit=10`,
    ];

    it('any valid key, even without permissions, gets 501 not_implemented, counted in the route class (docs/pos-api.md, Settled details)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      for (const url of planned) {
        const response = await posGet(t, url, key);
        const body = expectProblem(response, 501, 'not_implemented');
        expect(body).not.toHaveProperty('param');
        expect(response.headers['x-ratelimit-limit']).toBe(url.includes('/sales/') ? '10' : '60');
      }
      expect(await remainingAfterPing(t, key)).toBe(60 - 4 - 1);
    });

    it('parameters are validated first: 422 with param (docs/pos-api.md, Settled details)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      const cases: [string, string][] = [
        [`${PREFIX}sales/summary`, 'from'],
        [`${PREFIX}sales/by-day?from=2026-11-01T00:00:00Z`, 'to'],
        [`${PREFIX}sales/by-place?from=2026-01-01T00:00:00Z&to=2026-11-01T00:00:00Z`, 'to'],
        [`${PREFIX}orders`, 'created_from'],
        [`${PREFIX}orders/ORD123?x=1`, 'x'],
        [`${PREFIX}products?limit=101`, 'limit'],
        [`${PREFIX}products?place=P-1`, 'place'],
      ];
      for (const [url, param] of cases) {
        const body = expectProblem(await posGet(t, url, key), 422, 'invalid_parameter');
        if (param === 'created_from') expect(body.param).toMatch(/^(created|updated)_(from|to)$/);
        else expect(body.param, url).toBe(param);
      }
    });

    it('places outside the key: 404 param place, after the parameters (docs/pos-api.md, Settled details)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [], places: ['P1'] });
      for (const url of [
        `${PREFIX}products?place=P2`,
        `${PREFIX}products?place=P1,P2`,
        `${PREFIX}products?place=P9`,
        `${PREFIX}sales/summary?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&place=P2`,
        `${PREFIX}orders?place=P2&updated_from=2026-11-01T00:00:00Z&updated_to=2026-11-02T00:00:00Z`,
      ]) {
        expect(expectProblem(await posGet(t, url, key), 404, 'not_found').param, url).toBe('place');
      }
      expectProblem(await posGet(t, `${PREFIX}products?place=P1`, key), 501, 'not_implemented');
      const allPlaces = await createKey(t, { permissions: [] });
      const unknown = await posGet(t, `${PREFIX}products?place=P1,P9`, allPlaces.key);
      expect(expectProblem(unknown, 404, 'not_found').param).toBe('place');
      // 422 before 404 place.
      const both = await posGet(t, `${PREFIX}products?place=P2&limit=0`, key);
      expect(expectProblem(both, 422, 'invalid_parameter').param).toBe('limit');
    });
  });
});
