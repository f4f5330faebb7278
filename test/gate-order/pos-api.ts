import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { hashApiKey } from '../../src/lib/api-key.js';
import { ipBlockKey } from '../../src/lib/ip-key.js';
import { posApiGates } from '../../src/pos/api/pos-api.js';
import { bodyOf, expectApiProblem, expectRateHeaders } from '../expect-http.js';
import type { TestApp } from '../helper.js';
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
  SALES_URL,
  seedAccount,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from '../pos/fixtures.js';
import { posGet, publicRequest, type PublicRequest } from '../request.js';
import type { Exclusion, GateEntry, GatePairSuite } from './gate-pairs.js';
import { row, type OrderCase } from './order-cases.js';

// The point-of-sale data API's order of gates (openapi/pos.json, Authentication, Errors and Limits): the
// pair table, one entry per gate of `posApiGates`, and the hand-written rows of pairs the table cannot
// derive.
//
// Two limits cannot be reached through HTTP alone without tripping others: the absolute ceiling of a key
// text (a valid key's calls spend its quota first) and the IP's unauthenticated calls (40 key checks in
// progress at once). Those are filled in the app's own store, under the key names of
// src/pos/api/pos-limits.ts (`keys.ceiling`, `keys.keyCheck`), as test/pos/pos-api.limits.test.ts does;
// each gate's "alone" test shows that the filling still trips it.

const MINUTE = 60_000;
/** The absolute ceilings per key text, and the unauthenticated calls of an IP (Limits). */
const ABSOLUTE_CEILING = { default: 600, heavy: 100 } as const;
const UNAUTHENTICATED_PER_IP = 40;
const CALLER_IP = '127.0.0.1';

/** The keys of the scenario's account. */
interface Keys {
  /** Both permissions, all places. */
  full: string;
  /** No permission. */
  bare: string;
}

/** A request and what is set up before it. */
interface Scenario {
  keys: Keys;
  request: PublicRequest;
  /** The request's key spent its heavy quota (10 sales calls) before. */
  spendQuota: boolean;
  /** Twenty wrong keys from the caller's IP before (the IP-block threshold). */
  blockIp: boolean;
  /** The caller's IP at 40 unauthenticated calls (key checks held in progress). */
  fillGuard: boolean;
  /** The request's key text at its absolute ceilings, both classes. */
  fillCeiling: boolean;
}

/** A valid request: P1's figures of a day with the full key, 200. */
function baseline(keys: Keys): Scenario {
  return {
    keys,
    request: { url: SALES_URL, key: keys.full },
    spendQuota: false,
    blockIp: false,
    fillGuard: false,
    fillCeiling: false,
  };
}

const rateLimit = (limit: number) => (response: LightMyRequestResponse) => {
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
};

/** The gates of `posApiGates`, in the document's order (Authentication; Limits). */
const GATES = {
  rejectConflictingCredentials: {
    trip: (s) => {
      s.request.headers = { ...s.request.headers, 'Api-Token': 'x' };
    },
    status: 400,
    code: 'conflicting_credentials',
  },
  findRoute: {
    trip: (s) => {
      s.request.url = s.request.url.replace('?', '/?');
    },
    status: 404,
    code: 'not_found',
    // The other 404 (another version in Accept) names the version in its detail.
    also: (response) => {
      expect(String(bodyOf(response).detail)).not.toContain('version 2');
    },
  },
  requireGet: {
    trip: (s) => {
      s.request.method = 'POST';
    },
    status: 405,
    code: 'method_not_allowed',
    also: (response) => {
      expect(response.headers.allow).toBe('GET');
    },
  },
  rejectOtherVersionAccept: {
    trip: (s) => {
      s.request.headers = { ...s.request.headers, accept: 'application/vnd.x.v2+json' };
    },
    status: 404,
    code: 'not_found',
    also: (response) => {
      expect(String(bodyOf(response).detail)).toContain('version 2');
    },
  },
  rejectBlockedIp: {
    trip: (s) => {
      s.blockIp = true;
    },
    status: 429,
    code: 'rate_limited',
    also: rateLimit(20),
  },
  limitAbsoluteCeiling: {
    trip: (s) => {
      s.fillCeiling = true;
    },
    status: 429,
    code: 'rate_limited',
    also: rateLimit(ABSOLUTE_CEILING.heavy),
  },
  guardUnauthenticatedCalls: {
    trip: (s) => {
      s.fillGuard = true;
    },
    status: 429,
    code: 'rate_limited',
    also: rateLimit(UNAUTHENTICATED_PER_IP),
  },
  authenticateKey: {
    trip: (s) => {
      s.request.key = UNKNOWN_KEY;
    },
    status: 401,
    code: 'invalid_token',
  },
  limitKeyRate: {
    trip: (s) => {
      s.spendQuota = true;
    },
    status: 429,
    code: 'rate_limited',
    also: rateLimit(10),
  },
  rejectNonJsonBody: {
    trip: (s) => {
      s.request.type = 'text/plain';
      s.request.payload = 'x';
    },
    status: 415,
    code: null,
    also: (response) => {
      expect(response.headers['accept-encoding']).toBeUndefined();
    },
  },
  rejectEncodedBody: {
    trip: (s) => {
      s.request.type = 'application/json';
      s.request.payload = '{}';
      s.request.headers = { ...s.request.headers, 'Content-Encoding': 'gzip' };
    },
    status: 415,
    code: null,
    // The non-JSON body's 415 has no code either; this one names the codings the API takes.
    also: (response) => {
      expect(response.headers['accept-encoding']).toBe('identity');
    },
  },
  requirePermission: {
    trip: (s) => {
      s.request.key = s.keys.bare;
    },
    status: 403,
    code: 'forbidden_permission',
  },
  readQueryParameters: {
    trip: (s) => {
      s.request.url += '&bogus=1';
    },
    status: 422,
    code: 'invalid_parameter',
  },
} satisfies Record<string, GateEntry<Scenario>>;

const needsTheRoute = 'needs the route that findRoute did not find';
const needsTheKey = 'needs the key that authenticateKey did not recognize';

/** Pairs that cannot both fire on one request. */
const EXCLUSIONS: readonly Exclusion[] = [
  { pair: ['findRoute', 'limitKeyRate'], reason: `${needsTheRoute} (its class)` },
  { pair: ['findRoute', 'requirePermission'], reason: needsTheRoute },
  { pair: ['findRoute', 'readQueryParameters'], reason: needsTheRoute },
  { pair: ['authenticateKey', 'limitKeyRate'], reason: needsTheKey },
  { pair: ['authenticateKey', 'requirePermission'], reason: needsTheKey },
];

/** Sets the scenario up in an order where each step still counts, then sends the request. */
async function run(t: TestApp, s: Scenario) {
  const keyText = s.request.key;
  if (s.spendQuota) {
    // Before the IP block: a blocked IP's calls would not reach the quota. A 403 is counted too.
    for (let i = 0; i < 10; i += 1) {
      const spent = await posGet(t, SALES_URL, keyText);
      expect([200, 403], spent.body).toContain(spent.statusCode);
    }
  }
  // Before the guard is filled: a refused key check would not count as a failure.
  if (s.blockIp) await blockIp(t);
  if (s.fillGuard) {
    const name = `pos:keycheck:${ipBlockKey(CALLER_IP)}`;
    for (let i = 0; i < UNAUTHENTICATED_PER_IP; i += 1) {
      const lease = await t.rateLimits.acquire(name, UNAUTHENTICATED_PER_IP, 10 * MINUTE, t.clock.now());
      if (!lease.acquired) break; // full: the IP block's failures already hold some places
    }
  }
  if (s.fillCeiling && keyText !== undefined) {
    for (const [routeClass, ceiling] of Object.entries(ABSOLUTE_CEILING)) {
      const name = `pos:ceiling:${routeClass}:${hashApiKey(keyText)}`;
      for (let i = 0; i < ceiling; i += 1) {
        if (!(await t.rateLimits.hit(name, ceiling, MINUTE, t.clock.now())).allowed) break;
      }
    }
  }
  return publicRequest(t, s.request);
}

/** An account with two places and its two keys. */
async function seed(t: TestApp): Promise<Keys> {
  await seedAccount(t);
  return { full: (await createKey(t)).key, bare: (await createKey(t, { permissions: [] })).key };
}

/** The baseline request, a day of sales with a key of both permissions: it must be accepted (200). */
export async function posBaseline(t: TestApp) {
  return run(t, baseline(await seed(t)));
}

/** The pair table of the POS API, against the suite's app. */
export function posPairTable(t: TestApp): GatePairSuite<Scenario> {
  return {
    arrayName: 'posApiGates',
    gateNames: posApiGates.map((gate) => gate.name),
    gates: GATES,
    exclusions: EXCLUSIONS,
    cite: 'Authentication; Limits',
    baseline: async () => baseline(await seed(t)),
    run: (scenario) => run(t, scenario),
  };
}

// The rows. `given` seeds the account `acme` (places P1 and P2) and the key the row needs.

/** The account and a key of both permissions and all places. */
const keyed = (t: TestApp) => seedAccountAndKey(t);

/** The account and a key with the settings. */
const keyOf = (settings: Parameters<typeof createKey>[1]) => async (t: TestApp) => {
  await seedAccount(t);
  return createKey(t, settings);
};

/** The account, a key, and the caller's IP blocked. */
const blocked = async (t: TestApp) => {
  const seeded = await seedAccountAndKey(t);
  await blockIp(t);
  return seeded;
};

/** The account and a key (of the settings) that spent its default-class quota of 60 calls. */
const quotaSpent =
  (settings: Parameters<typeof createKey>[1] = {}) =>
  async (t: TestApp) => {
    const seeded = await keyOf(settings)(t);
    await repeat(60, 200, () => posGet(t, PING, seeded.key));
    return seeded;
  };

const notFound = (response: LightMyRequestResponse) => {
  expectAddressNotFound(response);
};
const param = (name: string) => (response: LightMyRequestResponse) => {
  expect(bodyOf(response).param, response.body).toBe(name);
};
const requiredPermission = (name: string) => (response: LightMyRequestResponse) => {
  expect(bodyOf(response).required_permission).toBe(name);
};
const textBody = { headers: { 'content-type': 'text/plain' }, payload: 'x' };
const otherVersion = { accept: 'application/vnd.x.v2+json' };
const byPaymentMethod = (query: string) => `${PREFIX}sales/by-payment-method?${query}`;
const DAY = 'from=2026-11-19T00:00:00Z&to=2026-11-20T00:00:00Z';

const CONFLICT = { status: 400, code: 'conflicting_credentials' } as const;
const NOT_FOUND = { status: 404, code: 'not_found' } as const;
const WRONG_METHOD = { status: 405, code: 'method_not_allowed' } as const;
const RATE = { status: 429, code: 'rate_limited' } as const;
const INVALID_TOKEN = { status: 401, code: 'invalid_token' } as const;
const NOT_JSON = { status: 415, code: null } as const;
const PERMISSION = { status: 403, code: 'forbidden_permission' } as const;
const PARAMETER = { status: 422, code: 'invalid_parameter' } as const;

/** The hand-written pairs of the POS API: the earlier problem answers. */
export const POS_CASES: readonly OrderCase<unknown>[] = [
  row({
    api: 'pos',
    route: 'GET nope',
    wins: 'conflicting header',
    loses: 'unknown path',
    answer: CONFLICT,
    cite: 'Authentication before Errors, 404',
    given: keyed,
    send: ({ key }) => [{ url: `${PREFIX}nope`, key, headers: { 'Producer-Token': 'x' } }],
  }),
  row({
    api: 'pos',
    route: 'POST ping',
    wins: 'conflicting header',
    loses: 'wrong method',
    answer: CONFLICT,
    cite: 'Authentication',
    given: keyed,
    send: ({ key }) => [{ method: 'POST', url: PING, key, headers: { 'Api-Token': 'x' } }],
  }),
  row({
    api: 'pos',
    route: 'DELETE nope',
    wins: 'unknown path',
    loses: 'wrong method',
    answer: {
      ...NOT_FOUND,
      also: (response) => {
        expectAddressNotFound(response);
        expect(response.headers.allow).toBeUndefined();
      },
    },
    cite: 'Errors, 404',
    given: keyed,
    send: ({ key }) => [{ method: 'DELETE', url: `${PREFIX}nope`, key }],
  }),
  row({
    api: 'pos',
    route: 'PUT sales',
    wins: 'wrong method',
    loses: 'no key',
    answer: {
      ...WRONG_METHOD,
      also: (response) => {
        expect(response.headers['www-authenticate']).toBeUndefined();
      },
    },
    cite: 'Errors, 405',
    given: keyed,
    send: () => [{ method: 'PUT', url: SALES_URL }],
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'other-version Accept',
    loses: 'no key',
    answer: { ...NOT_FOUND, also: notFound },
    cite: 'Authentication',
    given: keyed,
    send: () => [{ url: PING, headers: otherVersion }],
  }),
  row({
    api: 'pos',
    route: 'GET sales',
    wins: 'IP block',
    loses: 'right key',
    answer: { ...RATE, also: rateLimit(20) },
    cite: 'Limits, IP block',
    given: blocked,
    send: ({ key }) => [{ url: SALES_URL, key }],
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'IP block',
    loses: 'non-JSON body, then a stopped key (401)',
    answer: RATE,
    cite: 'Limits, IP block',
    given: blocked,
    send: ({ key }) => [{ url: PING, key, ...textBody }],
    // The block comes before the 401 of a stopped key too.
    async then(t, { id, key }) {
      await act(t, id, 'pause');
      expectApiProblem(await posGet(t, PING, key), 429, 'rate_limited');
    },
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'conflicting header',
    loses: 'IP block',
    answer: CONFLICT,
    cite: 'Authentication',
    given: blocked,
    send: ({ key }) => [{ url: PING, key, headers: { 'Online-Catalog-Identifier': 'x' } }],
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'other-version Accept',
    loses: 'IP block',
    answer: { ...NOT_FOUND, also: notFound },
    cite: 'Authentication',
    given: blocked,
    send: ({ key }) => [{ url: PING, key, headers: otherVersion }],
  }),
  row({
    api: 'pos',
    route: 'POST ping',
    wins: 'wrong method',
    loses: 'other-version Accept',
    answer: WRONG_METHOD,
    cite: 'Errors, 405',
    given: keyed,
    send: ({ key }) => [{ method: 'POST', url: PING, key, headers: otherVersion }],
  }),
  row({
    api: 'pos',
    route: 'GET events, GET sales',
    wins: '401 (a paused key; then an unknown one)',
    loses: 'missing permission',
    answer: {
      ...INVALID_TOKEN,
      also: (response) => {
        expect401(response, 'paused');
      },
    },
    cite: 'Authentication',
    async given(t) {
      const seeded = await keyOf({ permissions: [] })(t);
      await act(t, seeded.id, 'pause');
      return seeded;
    },
    send: ({ key }) => [{ url: EVENTS, key }],
    async then(t) {
      expect401(await posGet(t, SALES_URL, UNKNOWN_KEY), null);
    },
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: '401',
    loses: 'invalid parameters',
    answer: {
      ...INVALID_TOKEN,
      also: (response) => {
        expect401(response, null);
      },
    },
    cite: 'Authentication',
    given: keyed,
    send: () => [{ url: `${PREFIX}events?place=P1&unknown=1` }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'key quota 429',
    loses: 'missing permission',
    answer: {
      ...RATE,
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('required_permission');
        expect(response.headers['retry-after']).toBe('60');
        expectRateHeaders(response, 60, 0);
      },
    },
    cite: 'Limits',
    given: quotaSpent({ permissions: [] }),
    send: ({ key }) => [{ url: EVENTS, key }],
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'key quota 429',
    loses: 'non-JSON body',
    answer: RATE,
    cite: 'Limits',
    given: quotaSpent(),
    send: ({ key }) => [{ url: PING, key, ...textBody }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'non-JSON body',
    loses: 'missing permission',
    answer: NOT_JSON,
    cite: 'Errors, 415',
    given: keyOf({ permissions: [] }),
    send: ({ key }) => [{ url: EVENTS, key, ...textBody }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'key quota 429',
    loses: 'invalid parameters',
    answer: RATE,
    cite: 'Limits',
    given: quotaSpent(),
    send: ({ key }) => [{ url: `${EVENTS}&limit=0`, key }],
  }),
  row({
    api: 'pos',
    route: 'GET places',
    wins: 'non-JSON body',
    loses: 'invalid parameters',
    answer: NOT_JSON,
    cite: 'Errors, 415',
    given: keyed,
    send: ({ key }) => [{ url: `${PLACES}?bogus=1`, key, ...textBody }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'missing permission',
    loses: 'invalid parameters',
    answer: { ...PERMISSION, also: requiredPermission('event.view') },
    cite: 'Errors, 403',
    given: keyOf({ permissions: [] }),
    send: ({ key }) => [{ url: `${PREFIX}events?limit=500&bogus=1`, key }],
  }),
  row({
    api: 'pos',
    route: 'GET sales',
    wins: 'missing permission',
    loses: 'invalid parameters',
    answer: { ...PERMISSION, also: requiredPermission('sale-by-payment-method.view') },
    cite: 'Errors, 403',
    given: keyOf({ permissions: [] }),
    send: ({ key }) => [{ url: byPaymentMethod('place=P1'), key }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'missing permission',
    loses: 'place outside the key',
    answer: PERMISSION,
    cite: 'Errors, 403',
    given: keyOf({ permissions: [], places: ['P2'] }),
    send: ({ key }) => [{ url: EVENTS, key }],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'invalid parameter (limit)',
    loses: 'place outside the key',
    answer: { ...PARAMETER, also: param('limit') },
    cite: 'Errors, 422',
    given: keyOf({ places: ['P2'] }),
    send: ({ key }) => [{ url: `${EVENTS}&limit=0`, key }],
  }),
  row({
    api: 'pos',
    route: 'GET sales',
    wins: 'invalid parameter (from)',
    loses: 'place outside the key',
    answer: { ...PARAMETER, also: param('from') },
    cite: 'Errors, 422',
    given: keyOf({ places: ['P2'] }),
    send: ({ key }) => [
      { url: byPaymentMethod('place=P1&from=2026-11-19T00:00:00&to=2026-11-20T00:00:00Z'), key },
    ],
  }),
  row({
    api: 'pos',
    route: 'GET events',
    wins: 'invalid parameter (search)',
    loses: 'unknown place',
    answer: { ...PARAMETER, also: param('search') },
    cite: 'Errors, 422',
    given: keyOf({ places: ['P2'] }),
    send: ({ key }) => [{ url: `${PREFIX}events?place=P9&search=`, key }],
  }),
  row({
    api: 'pos',
    route: 'GET sales',
    wins: 'place (unknown, or outside the key)',
    loses: 'unknown event, or an event of another place',
    answer: { ...NOT_FOUND, also: param('place') },
    cite: 'Errors, 404',
    given: keyOf({ places: ['P2'] }),
    send: ({ key }) =>
      ['place=P9&event=E9', 'place=P1&event=E9', 'place=P1&event=E2'].map((query) => ({
        url: byPaymentMethod(`${query}&${DAY}`),
        key,
      })),
    // The place is right, the event is of another place: event.
    async then(t, { key }) {
      const event = await posGet(t, byPaymentMethod(`place=P2&event=E1&${DAY}`), key);
      expect(expectApiProblem(event, 404, 'not_found').param).toBe('event');
    },
  }),
];

/** Every refusal after the key is counted: 403, 422, 404 of a place, 501 (What the service does; Limits). */
export async function posCountsAfterKey(t: TestApp) {
  await seedAccount(t);
  const { key } = await createKey(t, { permissions: [] });
  expect((await posGet(t, EVENTS, key)).statusCode).toBe(403);
  expect((await posGet(t, `${PLACES}?x=1`, key)).statusCode).toBe(422);
  expect((await posGet(t, `${PREFIX}products?place=P9`, key)).statusCode).toBe(404);
  expect((await posGet(t, `${PREFIX}orders/1`, key)).statusCode).toBe(501);
  expect(await remainingAfterPing(t, key)).toBe(55);
}
