import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import {
  bodyOf,
  expectApiProblem as expectProblem,
  expectNoRateHeaders,
  FOREIGN_HEADERS,
  UUID,
} from '../expect-http.js';
import { posGet, publicRequest } from '../request.js';
import {
  blockIp,
  EVENTS,
  expect401,
  expectAddressNotFound,
  expectNoDeprecation,
  expectNotBlocked,
  PING,
  PLACES,
  PREFIX,
  remainingAfterPing,
  repeat,
  SALES_URL as SALES,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from './fixtures.js';

// What the point-of-sale data API answers before it reads the key (pos-data-api.md, Authentication and
// Errors; DECISIONS, Both APIs): 400 conflicting_credentials, the 404 of a nonexistent address, 405,
// X-Request-Id and Accept. None of them is counted. The order of the gates is in pos-api.gate-order.*.

describeEachDialect('POS API, gates before the key', (dialect) => {
  const t = useTestApp(dialect);

  describe('400 conflicting_credentials', () => {
    for (const name of FOREIGN_HEADERS) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
        it(`header ${spelled}: 400 conflicting_credentials even with a valid key, not counted (Authentication; Errors, 400)`, async () => {
          const { key } = await seedAccountAndKey(t);
          const response = await publicRequest(t, { url: PING, key, headers: { [spelled]: 'whatever' } });
          const body = expectProblem(response, 400, 'conflicting_credentials');
          expect(body).not.toHaveProperty('param');
          expectNoRateHeaders(response);
          expectNoDeprecation(response);
          expect(await remainingAfterPing(t, key)).toBe(59);
        });
      }
    }

    it('any value, empty included, on every route and without a key (DECISIONS, Both APIs)', async () => {
      await seedAccountAndKey(t);
      for (const value of ['', '0', 'gtpk_x', 'Bearer abc']) {
        for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}orders/1`]) {
          expectProblem(
            await publicRequest(t, { url, headers: { 'api-token': value } }),
            400,
            'conflicting_credentials',
          );
        }
      }
    });

    it('comes before the key: with a wrong key it is 400, and those calls do not count for the IP block (Authentication)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (let i = 0; i < 25; i += 1) {
        const response = await publicRequest(t, {
          url: PING,
          key: UNKNOWN_KEY,
          headers: { 'Account-Token': 'x' },
        });
        expectProblem(response, 400, 'conflicting_credentials');
      }
      await expectNotBlocked(t, key);
    });
  });

  describe('404 not_found of a nonexistent address', () => {
    const addresses = [
      `${PREFIX}pign`,
      `${PREFIX}ping/`,
      `${PREFIX}places/`,
      `${PREFIX}sales/by-payment-method/`,
      `${PREFIX}sales`,
      `${PREFIX}Ping`,
      `${PREFIX}orders/`,
      `${PREFIX}orders/1/items`,
      PREFIX,
      '/api-public/ping',
      '/v2/api-public/ping',
      '/v0/api-public/places',
      `${PREFIX}docs`,
      `${PREFIX}docs/`,
      `${PREFIX}docs/openapi.json`,
      `${PREFIX}docs/index.html`,
    ];
    for (const url of addresses) {
      it(`${url}: JSON 404 without param, with X-Request-Id, with or without a key (Errors, 404; Versioning)`, async () => {
        const { key } = await seedAccountAndKey(t);
        expectAddressNotFound(await posGet(t, url));
        expectAddressNotFound(await posGet(t, url, key));
        expectAddressNotFound(await posGet(t, url, UNKNOWN_KEY));
        expectAddressNotFound(await posGet(t, `${url}?place=P1`, key));
      });
    }

    it('a 404 of an address is neither counted in the key limit nor for the IP block (Limits)', async () => {
      const { key } = await seedAccountAndKey(t);
      await repeat(25, 404, () => posGet(t, `${PREFIX}nope`, UNKNOWN_KEY));
      await repeat(5, 404, () => posGet(t, `${PREFIX}nope`, key));
      expect(await remainingAfterPing(t, key)).toBe(59);
    });

    it('a 404 of an address is answered even while the IP is blocked (Limits, IP block)', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      expectProblem(await posGet(t, PING, key), 429, 'rate_limited');
      expectAddressNotFound(await posGet(t, `${PREFIX}nope`, key));
    });

    it('outside the prefixes: a small HTML 404 without X-Request-Id (DECISIONS, Both APIs)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (const url of ['/', '/ping', '/v1/ping', '/v1/api-publica/ping', '/favicon.ico']) {
        const response = await posGet(t, url, key);
        expect(response.statusCode, url).toBe(404);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['x-request-id']).toBeUndefined();
        expectNoRateHeaders(response);
      }
    });
  });

  describe('405 method_not_allowed', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const) {
      it(`${method}: 405 with Allow: GET on every route, with or without key, not counted (Errors, 405)`, async () => {
        const { key } = await seedAccountAndKey(t);
        for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}sales/summary`, `${PREFIX}orders/9`]) {
          for (const presented of [key, undefined, UNKNOWN_KEY]) {
            const response = await publicRequest(t, {
              method,
              url,
              ...(presented === undefined ? {} : { key: presented }),
            });
            expect(response.statusCode, `${method} ${url}`).toBe(405);
            expect(response.headers.allow).toBe('GET');
            expect(response.headers['x-request-id']).toMatch(UUID);
            expectNoRateHeaders(response);
            expectNoDeprecation(response);
            if (method !== 'HEAD') expect(bodyOf(response).code).toBe('method_not_allowed');
          }
        }
        // 36 calls with a wrong key: none counted for the IP block; none spent the key's balance.
        expect(await remainingAfterPing(t, key)).toBe(59);
      });
    }

    it('a CORS preflight is a 405 like any OPTIONS, without CORS headers (What the service does; Errors, 405)', async () => {
      await seedAccountAndKey(t);
      const response = await publicRequest(t, {
        method: 'OPTIONS',
        url: PING,
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET');
      expect(response.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('405 is answered even while the IP is blocked (Limits, IP block)', async () => {
      const { key } = await seedAccountAndKey(t);
      await blockIp(t);
      const response = await publicRequest(t, { method: 'POST', url: PING, key });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET');
    });
  });

  describe('X-Request-Id', () => {
    it('generated by the server for every API response, never taken from the client (Errors; DECISIONS, Both APIs)', async () => {
      const { key } = await seedAccountAndKey(t);
      const seen = new Set<string>();
      const responses = [
        await publicRequest(t, { url: PING, key, headers: { 'x-request-id': 'client-chosen' } }),
        await publicRequest(t, { url: PING, headers: { 'x-request-id': 'client-chosen' } }),
        await publicRequest(t, {
          method: 'POST',
          url: PING,
          key,
          headers: { 'x-request-id': 'client-chosen' },
        }),
        await publicRequest(t, { url: `${PREFIX}nope`, headers: { 'x-request-id': 'client-chosen' } }),
        await publicRequest(t, {
          url: `${PREFIX}orders/1`,
          key,
          headers: { 'x-request-id': 'client-chosen' },
        }),
      ];
      for (const response of responses) {
        const id = response.headers['x-request-id'] as string;
        expect(id).toMatch(UUID);
        seen.add(id);
      }
      expect(seen.size).toBe(responses.length);
    });
  });

  describe('Accept', () => {
    it('a versioned media type of another version gives 404; a key is not needed for it (Authentication)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (const accept of [
        'application/vnd.x.v2+json',
        'application/vnd.gt.v0+json',
        'application/json, application/vnd.x.v3+json;q=0.5',
      ]) {
        const response = await publicRequest(t, { url: PING, key, headers: { accept } });
        const body = expectProblem(response, 404, 'not_found');
        expect(body).not.toHaveProperty('param');
        expectNoRateHeaders(response);
      }
    });

    it('any other Accept value gets JSON (Authentication)', async () => {
      const { key } = await seedAccountAndKey(t);
      for (const accept of [
        'application/json',
        'text/html',
        'application/xml',
        '*/*',
        'image/png',
        'application/vnd.x.v1+json',
        'application/vnd.x+json',
        'nonsense',
      ]) {
        const response = await publicRequest(t, { url: PING, key, headers: { accept } });
        expect(response.statusCode, accept).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(bodyOf(response).api_version).toBe('v1');
        const refused = await publicRequest(t, { url: EVENTS + '&limit=0', key, headers: { accept } });
        expectProblem(refused, 422, 'invalid_parameter');
        expect401(await publicRequest(t, { url: PING, headers: { accept } }), null);
        expectAddressNotFound(await publicRequest(t, { url: `${PREFIX}nope`, key, headers: { accept } }));
      }
    });
  });
});
