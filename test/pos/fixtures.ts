import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectApiProblem, expectNoRateHeaders } from '../expect-http.js';
import type { AdminClient, TestApp } from '../helper.js';
import { posGet } from '../request.js';

// The account most POS suites start from, written through the admin API as the operator would.

/** A sales query over P1's receipts of 2026-11-19 (UTC-03:00). */
export const SALES_URL =
  '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00';

export const ACCOUNTS = '/admin/v1/pos/accounts';

/** An account `acme` with places P1 and P2, two events and three receipts of P1, and one key. */
export async function seedPos(t: AdminClient, permissions = ['event.view', 'sale-by-payment-method.view']) {
  await t.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
  await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
    receipts: [
      {
        id: 'R1',
        place: 'P1',
        occurred_at: '2026-11-19T10:00:00-03:00',
        payment_method: 'tef_credit',
        brand: 'VISA',
        amount: '10.00',
        kind: 'sale',
      },
      {
        id: 'R2',
        place: 'P1',
        occurred_at: '2026-11-19T11:00:00-03:00',
        payment_method: 'cash',
        amount: '30.00',
        kind: 'sale',
      },
      {
        id: 'R3',
        place: 'P1',
        occurred_at: '2026-11-19T12:00:00-03:00',
        payment_method: 'cash',
        amount: '5.00',
        kind: 'sale',
        status: 'cancelled',
      },
    ],
  });
  const created = await t.admin('POST', `${ACCOUNTS}/acme/keys`, { name: 'ERP', permissions });
  return JSON.parse(created.body) as { id: string; key: string };
}

/** A GET to the public listener with the key. */
export const getWithKey = (t: TestApp, key: string, url: string) => posGet(t, url, key);

// ---------------------------------------------------------------------------------------------------
// The gate-order and authentication suites (pos-api.*.security.test.ts): an account with two places, keys
// made to measure, and what a refusal before or at the key looks like.

/** The path prefix of the POS API. */
export const PREFIX = '/v1/api-public/';
export const PING = `${PREFIX}ping`;
export const PLACES = `${PREFIX}places`;
export const EVENTS = `${PREFIX}events?place=P1`;
/** A key of the right shape that no credential has. */
export const UNKNOWN_KEY = `gtpk_${'A'.repeat(43)}`;
const ALL_PERMISSIONS = ['event.view', 'sale-by-payment-method.view'];
export const HOUR = 3_600_000;

/** An account with two places, an event in each, and nothing else. */
export async function seedAccount(t: AdminClient, account = 'acme') {
  await t.admin('PUT', `${ACCOUNTS}/${account}`, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACCOUNTS}/${account}/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNTS}/${account}/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ACCOUNTS}/${account}/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ACCOUNTS}/${account}/places/P2/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
}

/** A key of the account, named ERP: both permissions on all places unless said otherwise. */
export async function createKey(
  t: AdminClient,
  settings: { permissions?: string[]; places?: string[] | 'all'; expires_on?: string } = {},
  account = 'acme',
): Promise<{ id: string; key: string }> {
  return createAccountKey(t, account, {
    name: 'ERP',
    permissions: settings.permissions ?? ALL_PERMISSIONS,
    ...(settings.places === undefined ? {} : { places: settings.places }),
    ...(settings.expires_on === undefined ? {} : { expires_on: settings.expires_on }),
  });
}

/** An account (`seedAccount`) and a key with both permissions on all places unless said otherwise. */
export async function seedAccountAndKey(t: AdminClient, settings: Parameters<typeof createKey>[1] = {}) {
  await seedAccount(t);
  return createKey(t, settings);
}

/** Rotates a key of `acme`; with `invalidateCurrent` the current key ends at once. */
export async function rotate(
  t: AdminClient,
  id: string,
  invalidateCurrent = false,
): Promise<{ key: string; previous_valid_until: string | null }> {
  const rotated = await t.admin(
    'POST',
    `${ACCOUNTS}/acme/keys/${id}/rotate`,
    invalidateCurrent ? { invalidate_current: true } : undefined,
  );
  return JSON.parse(rotated.body) as { key: string; previous_valid_until: string | null };
}

/** Pauses, reactivates or revokes a key of `acme`. */
export const act = (t: AdminClient, id: string, action: 'pause' | 'reactivate' | 'revoke') =>
  t.admin('POST', `${ACCOUNTS}/acme/keys/${id}/${action}`);

/** Edits a key of `acme` (PATCH). */
export const editKey = (t: AdminClient, id: string, body: Record<string, unknown>) =>
  t.admin('PATCH', `${ACCOUNTS}/acme/keys/${id}`, body);

/** Sends `count` calls and expects each to answer `status`. */
export async function repeat(count: number, status: number, call: () => Promise<LightMyRequestResponse>) {
  for (let i = 0; i < count; i += 1) {
    const response = await call();
    expect(response.statusCode, response.body).toBe(status);
  }
}

/** The remaining default-class balance of the key as a fresh ping sees it (the ping spends one). */
export async function remainingAfterPing(t: TestApp, key: string): Promise<number> {
  const response = await posGet(t, PING, key);
  expect(response.statusCode, response.body).toBe(200);
  return Number(response.headers['x-ratelimit-remaining']);
}

/** Expects the IP not to be blocked: a right key still gets 200. */
export async function expectNotBlocked(t: TestApp, key: string) {
  const response = await posGet(t, PING, key);
  expect(response.statusCode, response.body).toBe(200);
}

/** Twenty wrong-key failures from the default IP (the IP-block threshold). */
export const blockIp = (t: TestApp) => repeat(20, 401, () => posGet(t, PING, UNKNOWN_KEY));

/** No Deprecation nor Sunset: the call was not authenticated by the previous key of a rotation. */
export function expectNoDeprecation(response: LightMyRequestResponse) {
  expect(response.headers.deprecation).toBeUndefined();
  expect(response.headers.sunset).toBeUndefined();
}

/** Deprecation true and Sunset the HTTP date of `until`: the previous key of a rotation. */
export function expectDeprecation(response: LightMyRequestResponse, until: string) {
  expect(response.headers.deprecation).toBe('true');
  expect(response.headers.sunset).toBe(new Date(until).toUTCString());
}

/** 401 invalid_token with WWW-Authenticate, `reason` as given (absent when null), nothing counted. */
export function expect401(response: LightMyRequestResponse, reason: string | null): Record<string, unknown> {
  const body = expectApiProblem(response, 401, 'invalid_token');
  expect(response.headers['www-authenticate']).toMatch(/^Bearer realm=\S+/);
  if (reason === null) expect(body).not.toHaveProperty('reason');
  else expect(body.reason).toBe(reason);
  expect(body).not.toHaveProperty('param');
  expectNoRateHeaders(response);
  expectNoDeprecation(response);
  return body;
}

/** The JSON 404 of a nonexistent address: no `param`, `X-Request-Id`, nothing counted. */
export function expectAddressNotFound(response: LightMyRequestResponse) {
  const body = expectApiProblem(response, 404, 'not_found');
  expect(body).not.toHaveProperty('param');
  expectNoRateHeaders(response);
  expectNoDeprecation(response);
}

// ---------------------------------------------------------------------------------------------------
// The data suites (pos-api.*.data.test.ts): two accounts with places and events, three keys, and reads
// that each come one rate window after the previous one.
//
// Rate limits: the heavy class allows 10 calls a minute per key (30 per account on sales routes) and the
// window is sliding over the last 60 seconds. Every read below first advances the manual clock by 61 s,
// so that each call meets an empty window and no test depends on how many calls came before it. 61 s per
// call moves the clock by at most a few hours over a test: far from key expiry (12 months) and from the
// end of a rotation's 24-hour grace.

/** The path prefix of the POS API, without the trailing slash. */
export const API = '/v1/api-public';
/** One rate window and a second: what each read of the data suites advances the clock by. */
const STEP_MS = 61_000;

/** A created key: its id, the key text shown once, and its validity. */
export interface CreatedKey {
  id: string;
  key: string;
  expires_at: string;
}

/** The keys of `seedDataAccounts`. */
export interface DataKeys {
  /** All places, both permissions. */
  full: CreatedKey;
  /** Only place P1, both permissions. */
  p1Only: CreatedKey;
  /** All places, no permission. */
  bare: CreatedKey;
}

/** Creates a key of the account with the body as given (docs/admin-rules.md, POST keys). */
export async function createAccountKey(
  t: AdminClient,
  account: string,
  body: Record<string, unknown>,
): Promise<CreatedKey> {
  const created = await t.admin('POST', `${ACCOUNTS}/${account}/keys`, body);
  return JSON.parse(created.body) as CreatedKey;
}

/** acme (USD): P1, P2 active, P3 deactivated; events E1, E2 in P1 and E3 in P2. other (BRL): its own P1. */
export async function seedDataAccounts(t: AdminClient): Promise<DataKeys> {
  await t.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares', currency: 'USD' });
  await t.admin('PUT', `${ACCOUNTS}/other`, { name: 'Outra' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P3`, {
    name: 'Fechado',
    timezone: 'America/Manaus',
    active: false,
  });
  await t.admin('PUT', `${ACCOUNTS}/other/places/P1`, { name: 'Alheio', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/E3`, {
    name: 'Carnaval',
    registered_at: '2026-02-01T12:00:00Z',
  });
  const both = ['event.view', 'sale-by-payment-method.view'];
  return {
    full: await createAccountKey(t, 'acme', { name: 'ERP', permissions: both }),
    p1Only: await createAccountKey(t, 'acme', { name: 'Centro only', permissions: both, places: ['P1'] }),
    bare: await createAccountKey(t, 'acme', { name: 'Nothing', permissions: [] }),
  };
}

/** A GET with the key, one rate window later (see above). */
function getNextWindow(t: TestApp, key: string, url: string): Promise<LightMyRequestResponse> {
  t.clock.advance(STEP_MS);
  return posGet(t, url, key);
}

/** The body of a 200, one rate window later (fails with the body otherwise). */
export async function ok(t: TestApp, key: string, url: string): Promise<Record<string, unknown>> {
  const response = await getNextWindow(t, key, url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** The `param` and `detail` of an error of the given status and code, one rate window later. */
export async function problem(
  t: TestApp,
  key: string,
  url: string,
  status: number,
  code: string,
): Promise<{ param?: string; detail: string }> {
  const response = await getNextWindow(t, key, url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
  const body = JSON.parse(response.body) as { code: string; param?: string; detail: string };
  expect(body.code).toBe(code);
  return body;
}

/** A 422 `invalid_parameter`, one rate window later. */
export const invalid = (t: TestApp, key: string, url: string) =>
  problem(t, key, url, 422, 'invalid_parameter');
/** A 404 `not_found` (of a place or an event), one rate window later. */
export const notFound = (t: TestApp, key: string, url: string) => problem(t, key, url, 404, 'not_found');

/** The receipts-by-payment-method route, without query. */
const SALES_PATH = `${API}/sales/by-payment-method`;
/** The day of 2026-11-19 in UTC-03:00: its start and its end. */
export const DAY_F = '2026-11-19T00:00:00-03:00';
export const DAY_T = '2026-11-20T00:00:00-03:00';
/** The receipts-by-payment-method route with the query as given. */
export const salesUrl = (query: string) => `${SALES_PATH}?${query}`;
/** P1's figures of 2026-11-19 (UTC-03:00), with `extra` appended to the query. */
export const daySalesUrl = (extra = '') => salesUrl(`place=P1&from=${DAY_F}&to=${DAY_T}${extra}`);

/** An instant in UTC with Z in whole seconds, as the API writes them. */
export const WHOLE_SECONDS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
