import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import {
  expectApiProblem as expectProblem,
  expectNoRateHeaders,
  FOREIGN_HEADERS,
  UUID,
} from '../expect-http.js';
import { SALES_URL as SALES } from './fixtures.js';

// The order in which the point-of-sale data API answers problems (pos-data-api.md, Authentication,
// Errors, Limits, States and transitions; DECISIONS, Both APIs and POS data API): one test per gate and
// per key state, then one test per pair of gates that can both fire on one request, where the earlier
// one wins.

const PREFIX = '/v1/api-public/';
const PING = `${PREFIX}ping`;
const PLACES = `${PREFIX}places`;
const EVENTS = `${PREFIX}events?place=P1`;
const UNKNOWN_KEY = `gtpk_${'A'.repeat(43)}`;
const ADMIN = '/admin/v1/pos/accounts';
const HOUR = 3_600_000;
const ALL_PERMISSIONS = ['event.view', 'sale-by-payment-method.view'];

type Body = Record<string, unknown>;
const json = (response: LightMyRequestResponse) => JSON.parse(response.body) as Body;

/** A request to the public listener: the key as `Authorization: Bearer <key>`, nothing else added. */
function send(
  t: TestApp,
  options: {
    method?: InjectOptions['method'];
    url: string;
    key?: string;
    headers?: Record<string, string>;
    payload?: InjectOptions['payload'];
    ip?: string;
  },
): Promise<LightMyRequestResponse> {
  return t.call({
    method: options.method ?? 'GET',
    url: options.url,
    headers: {
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...options.headers,
    },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    ...(options.ip === undefined ? {} : { remoteAddress: options.ip }),
  });
}

const get = (t: TestApp, url: string, key?: string) =>
  send(t, { url, ...(key === undefined ? {} : { key }) });

/** 401 invalid_token with WWW-Authenticate, `reason` as given (absent when null), nothing counted. */
function expect401(response: LightMyRequestResponse, reason: string | null): Body {
  const body = expectProblem(response, 401, 'invalid_token');
  expect(response.headers['www-authenticate']).toMatch(/^Bearer realm=\S+/);
  if (reason === null) expect(body).not.toHaveProperty('reason');
  else expect(body.reason).toBe(reason);
  expect(body).not.toHaveProperty('param');
  expectNoRateHeaders(response);
  expectNoDeprecation(response);
  return body;
}

function expectRateHeaders(response: LightMyRequestResponse, limit: number, remaining: number) {
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

function expectNoDeprecation(response: LightMyRequestResponse) {
  expect(response.headers.deprecation).toBeUndefined();
  expect(response.headers.sunset).toBeUndefined();
}

function expectDeprecation(response: LightMyRequestResponse, until: string) {
  expect(response.headers.deprecation).toBe('true');
  expect(response.headers.sunset).toBe(new Date(until).toUTCString());
}

/** The JSON 404 of a nonexistent address: no `param`, `X-Request-Id`, nothing counted. */
function expectAddressNotFound(response: LightMyRequestResponse) {
  const body = expectProblem(response, 404, 'not_found');
  expect(body).not.toHaveProperty('param');
  expectNoRateHeaders(response);
  expectNoDeprecation(response);
}

/** An account with two places, an event in each, and nothing else. */
async function seedAccount(t: TestApp, account = 'acme') {
  await t.admin('PUT', `${ADMIN}/${account}`, { name: 'Acme Bares' });
  await t.admin('PUT', `${ADMIN}/${account}/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ADMIN}/${account}/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ADMIN}/${account}/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ADMIN}/${account}/places/P2/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
}

async function createKey(
  t: TestApp,
  settings: { permissions?: string[]; places?: string[] | 'all'; expires_on?: string } = {},
  account = 'acme',
): Promise<{ id: string; key: string }> {
  const created = await t.admin('POST', `${ADMIN}/${account}/keys`, {
    name: 'ERP',
    permissions: settings.permissions ?? ALL_PERMISSIONS,
    ...(settings.places === undefined ? {} : { places: settings.places }),
    ...(settings.expires_on === undefined ? {} : { expires_on: settings.expires_on }),
  });
  return json(created) as { id: string; key: string };
}

/** An account and a key with both permissions on all places. */
async function seed(t: TestApp, settings: Parameters<typeof createKey>[1] = {}) {
  await seedAccount(t);
  return createKey(t, settings);
}

async function rotate(
  t: TestApp,
  id: string,
  invalidateCurrent = false,
): Promise<{ key: string; previous_valid_until: string | null }> {
  const rotated = await t.admin(
    'POST',
    `${ADMIN}/acme/keys/${id}/rotate`,
    invalidateCurrent ? { invalidate_current: true } : undefined,
  );
  return json(rotated) as { key: string; previous_valid_until: string | null };
}

const act = (t: TestApp, id: string, action: 'pause' | 'reactivate' | 'revoke') =>
  t.admin('POST', `${ADMIN}/acme/keys/${id}/${action}`);

const editKey = (t: TestApp, id: string, body: Body) => t.admin('PATCH', `${ADMIN}/acme/keys/${id}`, body);

/** Sends `count` calls and expects each to answer `status`. */
async function repeat(count: number, status: number, call: () => Promise<LightMyRequestResponse>) {
  for (let i = 0; i < count; i += 1) {
    const response = await call();
    expect(response.statusCode, response.body).toBe(status);
  }
}

/** The remaining default-class balance of the key as a fresh ping sees it (the ping spends one). */
async function remainingAfterPing(t: TestApp, key: string): Promise<number> {
  const response = await get(t, PING, key);
  expect(response.statusCode, response.body).toBe(200);
  return Number(response.headers['x-ratelimit-remaining']);
}

/** Expects the IP not to be blocked: a right key still gets 200. */
async function expectNotBlocked(t: TestApp, key: string) {
  const response = await get(t, PING, key);
  expect(response.statusCode, response.body).toBe(200);
}

/** Twenty wrong-key failures from the default IP (the IP-block threshold). */
const blockIp = (t: TestApp) => repeat(20, 401, () => get(t, PING, UNKNOWN_KEY));

describeEachDialect('POS API, gate order and authentication', (dialect) => {
  const t = useTestApp(dialect);

  describe('400 conflicting_credentials', () => {
    for (const name of FOREIGN_HEADERS) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
        it(`header ${spelled}: 400 conflicting_credentials even with a valid key, not counted (Authentication; Errors, 400)`, async () => {
          const { key } = await seed(t);
          const response = await send(t, { url: PING, key, headers: { [spelled]: 'whatever' } });
          const body = expectProblem(response, 400, 'conflicting_credentials');
          expect(body).not.toHaveProperty('param');
          expectNoRateHeaders(response);
          expectNoDeprecation(response);
          expect(await remainingAfterPing(t, key)).toBe(59);
        });
      }
    }

    it('any value, empty included, on every route and without a key (DECISIONS, Both APIs)', async () => {
      await seed(t);
      for (const value of ['', '0', 'gtpk_x', 'Bearer abc']) {
        for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}orders/1`]) {
          expectProblem(
            await send(t, { url, headers: { 'api-token': value } }),
            400,
            'conflicting_credentials',
          );
        }
      }
    });

    it('comes before the key: with a wrong key it is 400, and those calls do not count for the IP block (Authentication)', async () => {
      const { key } = await seed(t);
      for (let i = 0; i < 25; i += 1) {
        const response = await send(t, { url: PING, key: UNKNOWN_KEY, headers: { 'Account-Token': 'x' } });
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
        const { key } = await seed(t);
        expectAddressNotFound(await get(t, url));
        expectAddressNotFound(await get(t, url, key));
        expectAddressNotFound(await get(t, url, UNKNOWN_KEY));
        expectAddressNotFound(await get(t, `${url}?place=P1`, key));
      });
    }

    it('a 404 of an address is neither counted in the key limit nor for the IP block (Limits)', async () => {
      const { key } = await seed(t);
      await repeat(25, 404, () => get(t, `${PREFIX}nope`, UNKNOWN_KEY));
      await repeat(5, 404, () => get(t, `${PREFIX}nope`, key));
      expect(await remainingAfterPing(t, key)).toBe(59);
    });

    it('a 404 of an address is answered even while the IP is blocked (Limits, IP block)', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      expectProblem(await get(t, PING, key), 429, 'rate_limited');
      expectAddressNotFound(await get(t, `${PREFIX}nope`, key));
    });

    it('outside the prefixes: a small HTML 404 without X-Request-Id (DECISIONS, Both APIs)', async () => {
      const { key } = await seed(t);
      for (const url of ['/', '/ping', '/v1/ping', '/v1/api-publica/ping', '/favicon.ico']) {
        const response = await get(t, url, key);
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
        const { key } = await seed(t);
        for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}sales/summary`, `${PREFIX}orders/9`]) {
          for (const presented of [key, undefined, UNKNOWN_KEY]) {
            const response = await send(t, {
              method,
              url,
              ...(presented === undefined ? {} : { key: presented }),
            });
            expect(response.statusCode, `${method} ${url}`).toBe(405);
            expect(response.headers.allow).toBe('GET');
            expect(response.headers['x-request-id']).toMatch(UUID);
            expectNoRateHeaders(response);
            expectNoDeprecation(response);
            if (method !== 'HEAD') expect(json(response).code).toBe('method_not_allowed');
          }
        }
        // 36 calls with a wrong key: none counted for the IP block; none spent the key's balance.
        expect(await remainingAfterPing(t, key)).toBe(59);
      });
    }

    it('a CORS preflight is a 405 like any OPTIONS, without CORS headers (What the service does; Errors, 405)', async () => {
      await seed(t);
      const response = await send(t, {
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
      const { key } = await seed(t);
      await blockIp(t);
      const response = await send(t, { method: 'POST', url: PING, key });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET');
    });
  });

  describe('X-Request-Id', () => {
    it('generated by the server for every API response, never taken from the client (Errors; DECISIONS, Both APIs)', async () => {
      const { key } = await seed(t);
      const seen = new Set<string>();
      const responses = [
        await send(t, { url: PING, key, headers: { 'x-request-id': 'client-chosen' } }),
        await send(t, { url: PING, headers: { 'x-request-id': 'client-chosen' } }),
        await send(t, { method: 'POST', url: PING, key, headers: { 'x-request-id': 'client-chosen' } }),
        await send(t, { url: `${PREFIX}nope`, headers: { 'x-request-id': 'client-chosen' } }),
        await send(t, { url: `${PREFIX}orders/1`, key, headers: { 'x-request-id': 'client-chosen' } }),
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
      const { key } = await seed(t);
      for (const accept of [
        'application/vnd.x.v2+json',
        'application/vnd.gt.v0+json',
        'application/json, application/vnd.x.v3+json;q=0.5',
      ]) {
        const response = await send(t, { url: PING, key, headers: { accept } });
        const body = expectProblem(response, 404, 'not_found');
        expect(body).not.toHaveProperty('param');
        expectNoRateHeaders(response);
      }
    });

    it('any other Accept value gets JSON (Authentication)', async () => {
      const { key } = await seed(t);
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
        const response = await send(t, { url: PING, key, headers: { accept } });
        expect(response.statusCode, accept).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(json(response).api_version).toBe('v1');
        const refused = await send(t, { url: EVENTS + '&limit=0', key, headers: { accept } });
        expectProblem(refused, 422, 'invalid_parameter');
        expect401(await send(t, { url: PING, headers: { accept } }), null);
        expectAddressNotFound(await send(t, { url: `${PREFIX}nope`, key, headers: { accept } }));
      }
    });
  });

  describe('401 invalid_token', () => {
    it('absent, wrong or malformed keys: 401 with WWW-Authenticate, without reason (Authentication; Errors, 401)', async () => {
      const { key } = await seed(t);
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
        const response = await t.call({
          method: 'GET',
          url: PING,
          headers: authorization === undefined ? {} : { authorization },
        });
        expect401(response, null);
      }
    });

    it('the key is never read from the query or another header (Authentication)', async () => {
      const { key } = await seed(t);
      expect401(await get(t, `${PING}?api_key=${key}`), null);
      expect401(await get(t, `${PING}?access_token=${key}`), null);
      expect401(await send(t, { url: PING, headers: { 'x-api-key': key } }), null);
    });

    it('bearer in lowercase and extra spaces are accepted (Authentication)', async () => {
      const { key } = await seed(t);
      for (const authorization of [
        `bearer ${key}`,
        `BEARER ${key}`,
        `Bearer    ${key}`,
        `bearer \t ${key}   `,
        `   Bearer ${key}`,
      ]) {
        const response = await t.call({ method: 'GET', url: PING, headers: { authorization } });
        expect(response.statusCode, JSON.stringify(authorization)).toBe(200);
      }
    });

    it('every route refuses without a key, planned routes too (Authentication)', async () => {
      await seed(t);
      for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}products`, `${PREFIX}orders/1`]) {
        expect401(await get(t, url), null);
      }
    });

    it('revoked: 401 reason revoked (States and transitions)', async () => {
      const { id, key } = await seed(t);
      await act(t, id, 'revoke');
      expect401(await get(t, PING, key), 'revoked');
      expect401(await get(t, SALES, key), 'revoked');
    });

    it('expired: 401 reason expired once the validity passes; extending it makes the same key work (States and transitions)', async () => {
      const { id, key } = await seed(t, { expires_on: '2026-11-25' });
      t.clock.set(Date.UTC(2026, 10, 26, 2, 59, 59));
      expect((await get(t, PING, key)).statusCode).toBe(200);
      t.clock.set(Date.UTC(2026, 10, 26, 3, 0, 0));
      expect401(await get(t, PING, key), 'expired');
      await editKey(t, id, { expires_at: '2027-01-01T00:00:00Z' });
      expect((await get(t, PING, key)).statusCode).toBe(200);
    });

    it('paused: 401 reason paused; reactivated: the same key works again (States and transitions)', async () => {
      const { id, key } = await seed(t);
      await act(t, id, 'pause');
      expect401(await get(t, PING, key), 'paused');
      expect401(await get(t, EVENTS, key), 'paused');
      await act(t, id, 'reactivate');
      // The 401s spent nothing of the key's balance.
      expect(await remainingAfterPing(t, key)).toBe(59);
    });

    it('replaced: the previous key after its 24 hours gives 401 reason replaced (States and transitions)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      expect(rotated.previous_valid_until).toBe('2026-11-21T12:00:00Z');
      t.clock.set(Date.UTC(2026, 10, 21, 11, 59, 59));
      expect((await get(t, PING, key)).statusCode).toBe(200);
      t.clock.set(Date.UTC(2026, 10, 21, 12, 0, 0));
      expect401(await get(t, PING, key), 'replaced');
      expect((await get(t, PING, rotated.key)).statusCode).toBe(200);
    });

    it('rotation invalidating the current key: the old and any previous key are replaced at once (States and transitions)', async () => {
      const { id, key } = await seed(t);
      const second = await rotate(t, id);
      const third = await rotate(t, id, true);
      expect401(await get(t, PING, key), 'replaced');
      expect401(await get(t, PING, second.key), 'replaced');
      expect((await get(t, PING, third.key)).statusCode).toBe(200);
    });

    it('pause during the grace: the previous key is replaced for good, the new key paused until reactivated (States and transitions)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      t.clock.advance(HOUR);
      await act(t, id, 'pause');
      expect401(await get(t, PING, key), 'replaced');
      expect401(await get(t, PING, rotated.key), 'paused');
      await act(t, id, 'reactivate');
      expect((await get(t, PING, rotated.key)).statusCode).toBe(200);
      expect401(await get(t, PING, key), 'replaced');
    });

    it('precedence: revoked wins over expired, paused and replaced (States and transitions)', async () => {
      const { id, key } = await seed(t, { expires_on: '2026-11-25' });
      const rotated = await rotate(t, id);
      await act(t, id, 'pause');
      await act(t, id, 'revoke');
      t.clock.set(Date.UTC(2026, 11, 1));
      expect401(await get(t, PING, key), 'revoked');
      expect401(await get(t, PING, rotated.key), 'revoked');
    });

    it('precedence: within the grace both current and previous keys answer revoked (States and transitions)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      t.clock.advance(HOUR);
      await act(t, id, 'revoke');
      expect401(await get(t, PING, key), 'revoked');
      expect401(await get(t, PING, rotated.key), 'revoked');
    });

    it('precedence: expired wins over paused and replaced (States and transitions)', async () => {
      const { id, key } = await seed(t, { expires_on: '2026-11-25' });
      const rotated = await rotate(t, id);
      await act(t, id, 'pause');
      t.clock.set(Date.UTC(2026, 11, 1));
      expect401(await get(t, PING, rotated.key), 'expired');
      expect401(await get(t, PING, key), 'expired');
    });

    it('precedence: a previous key past its grace answers replaced even if the key is paused (States and transitions)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      t.clock.advance(25 * HOUR);
      await act(t, id, 'pause');
      expect401(await get(t, PING, key), 'replaced');
      expect401(await get(t, PING, rotated.key), 'paused');
    });

    it('the key from two rotations back: 401 without reason, counted for the IP block (States and transitions; Limits)', async () => {
      const { id, key } = await seed(t);
      const second = await rotate(t, id);
      t.clock.advance(HOUR);
      const third = await rotate(t, id);
      expect401(await get(t, PING, key), null);
      expect((await get(t, PING, second.key)).statusCode).toBe(200);
      await repeat(19, 401, () => get(t, PING, key));
      const blocked = await get(t, PING, third.key);
      expectProblem(blocked, 429, 'rate_limited');
    });

    it('a deactivated owner account: 401 without reason, not counted for the IP block (DECISIONS, POS data API)', async () => {
      const { key } = await seed(t);
      await t.admin('PUT', `${ADMIN}/acme`, { name: 'Acme Bares', active: false });
      for (let i = 0; i < 25; i += 1) expect401(await get(t, PING, key), null);
      await t.admin('PUT', `${ADMIN}/acme`, { name: 'Acme Bares', active: true });
      await expectNotBlocked(t, key);
    });
  });

  describe('Deprecation and Sunset', () => {
    it('ping with the previous key: superseded true and superseded_until; with the current key: false and null (Ping response)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      const previous = await get(t, PING, key);
      expect(previous.statusCode).toBe(200);
      expect(json(previous).credential).toMatchObject({
        id,
        superseded: true,
        superseded_until: rotated.previous_valid_until,
      });
      expectDeprecation(previous, rotated.previous_valid_until!);
      const current = await get(t, PING, rotated.key);
      expect(json(current).credential).toMatchObject({ id, superseded: false, superseded_until: null });
      expectNoDeprecation(current);
    });

    it('Sunset is the HTTP date of superseded_until on every success of the previous key (Authentication)', async () => {
      const { id, key } = await seed(t);
      t.clock.advance(90 * 60_000 + 30_000);
      const rotated = await rotate(t, id);
      expect(rotated.previous_valid_until).toBe('2026-11-21T13:30:30Z');
      for (const url of [PING, PLACES, EVENTS, SALES]) {
        const response = await get(t, url, key);
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
        [await get(t, `${EVENTS}&limit=0`, key), 422],
        [await get(t, `${PREFIX}events?place=P9`, key), 404],
        [await get(t, SALES, key), 403],
        [await send(t, { url: PING, key, headers: { 'content-type': 'text/plain' }, payload: 'x' }), 415],
        [await get(t, `${PREFIX}products`, key), 501],
      ];
      for (const [response, status] of refusals) {
        expect(response.statusCode, response.body).toBe(status);
        expectDeprecation(response, until);
      }
      // Four of those were in the default class (the 403 of sales is heavy): 56 pings spend the rest.
      await repeat(56, 200, () => get(t, PING, key));
      const limited = await get(t, PING, key);
      expectProblem(limited, 429, 'rate_limited');
      expectDeprecation(limited, until);
    });

    it('absent with the current key, and on 400, 401, 405, 404 of an address and the IP-blocked 429 (Authentication)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      expectNoDeprecation(await get(t, `${EVENTS}&limit=0`, rotated.key));
      expectNoDeprecation(await get(t, PING, rotated.key));
      expectNoDeprecation(await send(t, { url: PING, key, headers: { 'api-token': '1' } }));
      expectNoDeprecation(await send(t, { method: 'POST', url: PING, key }));
      expectNoDeprecation(await get(t, `${PREFIX}pong`, key));
      expectNoDeprecation(
        await send(t, { url: PING, key, headers: { accept: 'application/vnd.x.v2+json' } }),
      );
      await act(t, id, 'pause');
      expect401(await get(t, PING, key), 'replaced');
      await act(t, id, 'reactivate');
      await blockIp(t);
      const blocked = await get(t, PING, key);
      expectProblem(blocked, 429, 'rate_limited');
      expectNoDeprecation(blocked);
    });
  });

  describe('balances during a rotation', () => {
    it('the new and the previous key each have their own balance (Limits)', async () => {
      const { id, key } = await seed(t);
      const rotated = await rotate(t, id);
      await repeat(60, 200, () => get(t, PING, key));
      const limited = await get(t, PING, key);
      expectProblem(limited, 429, 'rate_limited');
      expectDeprecation(limited, rotated.previous_valid_until!);
      const current = await get(t, PING, rotated.key);
      expect(current.statusCode).toBe(200);
      expectRateHeaders(current, 60, 59);
      expectNoDeprecation(current);
    });
  });

  describe('IP block', () => {
    it('20 wrong keys in 60 s: 429 with real Retry-After, X-RateLimit-Limit 20, Remaining 0, even with a right key (Limits)', async () => {
      const { key } = await seed(t);
      await repeat(10, 401, () => get(t, PING, UNKNOWN_KEY));
      t.clock.advance(20_000);
      await repeat(5, 401, () => get(t, PING));
      await repeat(5, 401, () => send(t, { url: PING, headers: { authorization: 'Bearer nonsense' } }));
      for (const url of [PING, PLACES, EVENTS, SALES, `${PREFIX}orders/1`]) {
        for (const presented of [key, UNKNOWN_KEY, undefined]) {
          const response = await get(t, url, presented);
          const body = expectProblem(response, 429, 'rate_limited');
          expect(body).not.toHaveProperty('param');
          expect(response.headers['retry-after']).toBe('40');
          expect(response.headers['x-ratelimit-limit']).toBe('20');
          expect(response.headers['x-ratelimit-remaining']).toBe('0');
          expectNoDeprecation(response);
        }
      }
      t.clock.advance(25_500);
      expect((await get(t, PING, key)).headers['retry-after']).toBe('15');
      // The first ten failures leave the minute: 10 remain, below 20.
      t.clock.advance(14_500);
      await expectNotBlocked(t, key);
    });

    it('the 20th failure blocks, the 19th does not; the block ends to the millisecond (Limits)', async () => {
      const { key } = await seed(t);
      await repeat(19, 401, () => get(t, PING, UNKNOWN_KEY));
      await expectNotBlocked(t, key);
      expect401(await get(t, PING, UNKNOWN_KEY), null);
      const blocked = await get(t, PING, key);
      expectProblem(blocked, 429, 'rate_limited');
      expect(blocked.headers['retry-after']).toBe('60');
      t.clock.advance(59_999);
      expect((await get(t, PING, key)).headers['retry-after']).toBe('1');
      t.clock.advance(1);
      await expectNotBlocked(t, key);
    });

    it('blocked calls do not prolong the block (Limits)', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      t.clock.advance(30_000);
      await repeat(10, 429, () => get(t, PING, UNKNOWN_KEY));
      t.clock.advance(30_000);
      await expectNotBlocked(t, key);
    });

    it('IPv6 addresses count by /64 (DECISIONS, Both APIs)', async () => {
      const { key } = await seed(t);
      await repeat(20, 401, () => send(t, { url: PING, key: UNKNOWN_KEY, ip: '2001:db8:0:7::1' }));
      expectProblem(await send(t, { url: PING, key, ip: '2001:db8:0:7::abcd' }), 429, 'rate_limited');
      expect((await send(t, { url: PING, key, ip: '2001:db8:0:8::1' })).statusCode).toBe(200);
    });

    it('blocks one IP only (Limits)', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      expect((await send(t, { url: PING, key, ip: '10.0.0.7' })).statusCode).toBe(200);
      expect((await get(t, PING, key)).statusCode).toBe(429);
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
        for (let i = 0; i < 25; i += 1) expect401(await get(t, PING, presented), state);
        await expectNotBlocked(t, key);
      });
    }
  });

  describe('415 without code', () => {
    it('a GET with a non-JSON body and a valid key: 415 without code, counted, with X-RateLimit-* and X-Request-Id (Errors)', async () => {
      const { key } = await seed(t);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
        const response = await send(t, { url: PING, key, headers: { 'content-type': type }, payload: 'a=1' });
        const body = expectProblem(response, 415, null);
        expect(body).not.toHaveProperty('param');
        expect(response.headers['x-ratelimit-limit']).toBe('60');
        expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      }
      expect(await remainingAfterPing(t, key)).toBe(56);
    });

    it('a chunked non-JSON body is refused the same way (Errors)', async () => {
      const { key } = await seed(t);
      const response = await send(t, {
        url: PING,
        key,
        headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' },
        payload: Readable.from([Buffer.from('abc')]),
      });
      expectProblem(response, 415, null);
      expectRateHeaders(response, 60, 59);
    });

    it('a GET with a JSON body, or without a body, is not refused for it (Errors)', async () => {
      const { key } = await seed(t);
      const withJson = await send(t, {
        url: PING,
        key,
        headers: { 'content-type': 'application/json' },
        payload: '{}',
      });
      expect(withJson.statusCode, withJson.body).toBe(200);
      const typeOnly = await send(t, { url: PING, key, headers: { 'content-type': 'text/plain' } });
      expect(typeOnly.statusCode, typeOnly.body).toBe(200);
    });

    it('without a valid key the 401 comes first (Errors)', async () => {
      await seed(t);
      for (const presented of [undefined, UNKNOWN_KEY]) {
        const response = await send(t, {
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
      const events = await get(t, EVENTS, salesOnly.key);
      expect(expectProblem(events, 403, 'forbidden_permission').required_permission).toBe('event.view');
      expectRateHeaders(events, 60, 59);
      const sales = await get(t, SALES, eventsOnly.key);
      expect(expectProblem(sales, 403, 'forbidden_permission').required_permission).toBe(
        'sale-by-payment-method.view',
      );
      expectRateHeaders(sales, 10, 9);
      expect((await get(t, SALES, salesOnly.key)).statusCode).toBe(200);
      expect((await get(t, EVENTS, eventsOnly.key)).statusCode).toBe(200);
    });

    it('ping and places need no permission, and ping no longer lists a removed one (States and transitions)', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { permissions: [] });
      expect((await get(t, PING, key)).statusCode).toBe(200);
      expect((await get(t, PLACES, key)).statusCode).toBe(200);
      await editKey(t, id, { permissions: ['event.view'] });
      expect((json(await get(t, PING, key)).credential as Body).permissions).toEqual(['event.view']);
      expect((await get(t, EVENTS, key)).statusCode).toBe(200);
      await editKey(t, id, { permissions: [] });
      expect((json(await get(t, PING, key)).credential as Body).permissions).toEqual([]);
      expectProblem(await get(t, EVENTS, key), 403, 'forbidden_permission');
    });
  });

  describe('places of the key', () => {
    it('a removed place vanishes from /places and gives 404 param place, like a wrong id (States and transitions)', async () => {
      await seedAccount(t);
      const { id, key } = await createKey(t, { places: ['P1', 'P2'] });
      expect((await get(t, EVENTS, key)).statusCode).toBe(200);
      await editKey(t, id, { places: ['P2'] });
      const places = json(await get(t, PLACES, key));
      expect(places.all).toBe(false);
      expect((places.data as Body[]).map((place) => place.id)).toEqual(['P2']);
      for (const url of [EVENTS, SALES, `${PREFIX}events?place=P9`]) {
        const response = await get(t, url, key);
        expect(expectProblem(response, 404, 'not_found').param).toBe('place');
        expect(response.headers['x-ratelimit-limit']).toBeDefined();
      }
      expect((await get(t, `${PREFIX}events?place=P2`, key)).statusCode).toBe(200);
    });

    it('a place of another account is not reached (States and transitions)', async () => {
      await seedAccount(t);
      await seedAccount(t, 'other');
      await t.admin('PUT', `${ADMIN}/other/places/Q1`, { name: 'Fora', timezone: 'America/Sao_Paulo' });
      const { key } = await createKey(t);
      const response = await get(t, `${PREFIX}events?place=Q1`, key);
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

    it('any valid key, even without permissions, gets 501 not_implemented, counted in the route class (DECISIONS, POS data API)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      for (const url of planned) {
        const response = await get(t, url, key);
        const body = expectProblem(response, 501, 'not_implemented');
        expect(body).not.toHaveProperty('param');
        expect(response.headers['x-ratelimit-limit']).toBe(url.includes('/sales/') ? '10' : '60');
      }
      expect(await remainingAfterPing(t, key)).toBe(60 - 4 - 1);
    });

    it('parameters are validated first: 422 with param (DECISIONS, POS data API)', async () => {
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
        const body = expectProblem(await get(t, url, key), 422, 'invalid_parameter');
        if (param === 'created_from') expect(body.param).toMatch(/^(created|updated)_(from|to)$/);
        else expect(body.param, url).toBe(param);
      }
    });

    it('places outside the key: 404 param place, after the parameters (DECISIONS, POS data API)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [], places: ['P1'] });
      for (const url of [
        `${PREFIX}products?place=P2`,
        `${PREFIX}products?place=P1,P2`,
        `${PREFIX}products?place=P9`,
        `${PREFIX}sales/summary?from=2026-11-01T00:00:00Z&to=2026-11-02T00:00:00Z&place=P2`,
        `${PREFIX}orders?place=P2&updated_from=2026-11-01T00:00:00Z&updated_to=2026-11-02T00:00:00Z`,
      ]) {
        expect(expectProblem(await get(t, url, key), 404, 'not_found').param, url).toBe('place');
      }
      expectProblem(await get(t, `${PREFIX}products?place=P1`, key), 501, 'not_implemented');
      const allPlaces = await createKey(t, { permissions: [] });
      const unknown = await get(t, `${PREFIX}products?place=P1,P9`, allPlaces.key);
      expect(expectProblem(unknown, 404, 'not_found').param).toBe('place');
      // 422 before 404 place.
      const both = await get(t, `${PREFIX}products?place=P2&limit=0`, key);
      expect(expectProblem(both, 422, 'invalid_parameter').param).toBe('limit');
    });
  });

  describe('pairs of gates: the earlier one wins', () => {
    it('conflicting header + unknown path: 400 (Authentication before Errors, 404)', async () => {
      const { key } = await seed(t);
      const response = await send(t, { url: `${PREFIX}nope`, key, headers: { 'Producer-Token': 'x' } });
      expectProblem(response, 400, 'conflicting_credentials');
    });

    it('conflicting header + wrong method: 400', async () => {
      const { key } = await seed(t);
      const response = await send(t, { method: 'POST', url: PING, key, headers: { 'Api-Token': 'x' } });
      expectProblem(response, 400, 'conflicting_credentials');
    });

    it('unknown path + wrong method: 404 without Allow', async () => {
      const { key } = await seed(t);
      const response = await send(t, { method: 'DELETE', url: `${PREFIX}nope`, key });
      expectAddressNotFound(response);
      expect(response.headers.allow).toBeUndefined();
    });

    it('wrong method + no key: 405', async () => {
      await seed(t);
      const response = await send(t, { method: 'PUT', url: SALES });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('other-version Accept + no key: 404', async () => {
      await seed(t);
      const response = await send(t, { url: PING, headers: { accept: 'application/vnd.x.v2+json' } });
      expectAddressNotFound(response);
    });

    it('IP block + right key: 429', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      const response = await get(t, SALES, key);
      expectProblem(response, 429, 'rate_limited');
      expect(response.headers['x-ratelimit-limit']).toBe('20');
    });

    it('IP block + non-JSON body: 429, and the block comes before the 401 of a stopped key', async () => {
      const { id, key } = await seed(t);
      await blockIp(t);
      const body = await send(t, { url: PING, key, headers: { 'content-type': 'text/plain' }, payload: 'x' });
      expectProblem(body, 429, 'rate_limited');
      await act(t, id, 'pause');
      expectProblem(await get(t, PING, key), 429, 'rate_limited');
    });

    it('conflicting header + IP block: 400', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      expectProblem(
        await send(t, { url: PING, key, headers: { 'Online-Catalog-Identifier': 'x' } }),
        400,
        'conflicting_credentials',
      );
    });

    it('other-version Accept + IP block: 404', async () => {
      const { key } = await seed(t);
      await blockIp(t);
      expectAddressNotFound(
        await send(t, { url: PING, key, headers: { accept: 'application/vnd.x.v2+json' } }),
      );
    });

    it('wrong method + other-version Accept: 405', async () => {
      const { key } = await seed(t);
      const response = await send(t, {
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
      expect401(await get(t, EVENTS, key), 'paused');
      expect401(await get(t, SALES, UNKNOWN_KEY), null);
    });

    it('401 + invalid parameters: 401', async () => {
      await seed(t);
      expect401(await get(t, `${PREFIX}events?place=P1&unknown=1`), null);
    });

    it('key quota 429 + missing permission: 429', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      await repeat(60, 200, () => get(t, PING, key));
      const response = await get(t, EVENTS, key);
      expect(expectProblem(response, 429, 'rate_limited')).not.toHaveProperty('required_permission');
      expect(response.headers['retry-after']).toBe('60');
      expectRateHeaders(response, 60, 0);
    });

    it('key quota 429 + non-JSON body: 429', async () => {
      const { key } = await seed(t);
      await repeat(60, 200, () => get(t, PING, key));
      const response = await send(t, {
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
      const response = await send(t, {
        url: EVENTS,
        key,
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expectProblem(response, 415, null);
    });

    it('key quota 429 + invalid parameters: 429', async () => {
      const { key } = await seed(t);
      await repeat(60, 200, () => get(t, PING, key));
      expectProblem(await get(t, `${EVENTS}&limit=0`, key), 429, 'rate_limited');
    });

    it('non-JSON body + invalid parameters: 415', async () => {
      const { key } = await seed(t);
      const response = await send(t, {
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
      const events = await get(t, `${PREFIX}events?limit=500&bogus=1`, key);
      expect(expectProblem(events, 403, 'forbidden_permission').required_permission).toBe('event.view');
      const sales = await get(t, `${PREFIX}sales/by-payment-method?place=P1`, key);
      expect(expectProblem(sales, 403, 'forbidden_permission').required_permission).toBe(
        'sale-by-payment-method.view',
      );
    });

    it('missing permission + place outside the key: 403', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [], places: ['P2'] });
      expectProblem(await get(t, EVENTS, key), 403, 'forbidden_permission');
    });

    it('invalid parameters + place outside the key: 422', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { places: ['P2'] });
      const events = await get(t, `${EVENTS}&limit=0`, key);
      expect(expectProblem(events, 422, 'invalid_parameter').param).toBe('limit');
      const sales = await get(
        t,
        `${PREFIX}sales/by-payment-method?place=P1&from=2026-11-19T00:00:00&to=2026-11-20T00:00:00Z`,
        key,
      );
      expect(expectProblem(sales, 422, 'invalid_parameter').param).toBe('from');
      const unknownPlace = await get(t, `${PREFIX}events?place=P9&search=`, key);
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
        expect(expectProblem(await get(t, url, key), 404, 'not_found').param, url).toBe('place');
      }
      // The place is right, the event is of another place: event.
      const event = await get(
        t,
        `${PREFIX}sales/by-payment-method?place=P2&event=E1&from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z`,
        key,
      );
      expect(expectProblem(event, 404, 'not_found').param).toBe('event');
    });

    it('every error after the key is counted: 403, 422, 404 place, 501 (What the service does; Limits)', async () => {
      await seedAccount(t);
      const { key } = await createKey(t, { permissions: [] });
      expect((await get(t, EVENTS, key)).statusCode).toBe(403);
      expect((await get(t, `${PLACES}?x=1`, key)).statusCode).toBe(422);
      expect((await get(t, `${PREFIX}products?place=P9`, key)).statusCode).toBe(404);
      expect((await get(t, `${PREFIX}orders/1`, key)).statusCode).toBe(501);
      expect(await remainingAfterPing(t, key)).toBe(55);
    });
  });
});
