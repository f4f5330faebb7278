import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { bodyOf, expectApiProblem, expectNoRateHeaders, FOREIGN_HEADERS, UUID } from '../expect-http.js';
import type { TestApp } from '../helper.js';
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
  SALES_URL,
  seedAccountAndKey,
  UNKNOWN_KEY,
} from '../pos/fixtures.js';
import { publicRequest, type PublicRequest } from '../request.js';
import { row, type OrderCase } from './order-cases.js';

// Rows of one problem alone on the point-of-sale data API, before it reads the key: 400
// conflicting_credentials, the 404 of a nonexistent address, 405, and Accept. None of them is counted.

const keyed = (t: TestApp) => seedAccountAndKey(t);

/** The account, a key, and the caller's IP blocked. */
const blocked = async (t: TestApp) => {
  const seeded = await seedAccountAndKey(t);
  await blockIp(t);
  return seeded;
};

/** The same, and a right key seen to get 429 meanwhile. */
const blockedSeen = async (t: TestApp) => {
  const seeded = await blocked(t);
  expectApiProblem(await publicRequest(t, { url: PING, key: seeded.key }), 429, 'rate_limited');
  return seeded;
};

/** The next ping is the key's second call: the row's calls were not counted. */
const notCounted = async (t: TestApp, { key }: { key: string }) => {
  expect(await remainingAfterPing(t, key)).toBe(59);
};

const CONFLICT = { status: 400, code: 'conflicting_credentials' } as const;
const NOT_FOUND = { status: 404, code: 'not_found', also: expectAddressNotFound } as const;

const conflictingHeaders = FOREIGN_HEADERS.flatMap((name) =>
  [name, name.toLowerCase(), name.toUpperCase()].map((spelled) =>
    row({
      api: 'pos',
      route: 'GET ping',
      wins: `header ${spelled}, even with a valid key, not counted`,
      answer: {
        ...CONFLICT,
        also: (response) => {
          expect(bodyOf(response)).not.toHaveProperty('param');
          expectNoRateHeaders(response);
          expectNoDeprecation(response);
        },
      },
      cite: 'Authentication; Errors, 400',
      given: keyed,
      send: ({ key }) => [{ url: PING, key, headers: { [spelled]: 'whatever' } }],
      then: notCounted,
    }),
  ),
);

const ADDRESSES = [
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

const addresses = ADDRESSES.map((url) =>
  row({
    api: 'pos',
    route: `GET ${url}`,
    wins: 'nonexistent address: JSON 404 without param, with X-Request-Id, with or without a key',
    answer: NOT_FOUND,
    cite: 'Errors, 404; Versioning',
    given: keyed,
    send: ({ key }) => [{ url }, { url, key }, { url, key: UNKNOWN_KEY }, { url: `${url}?place=P1`, key }],
  }),
);

const ROUTES = [PING, PLACES, EVENTS, SALES_URL, `${PREFIX}sales/summary`, `${PREFIX}orders/9`];

const wrongMethods = (['POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const).map((method) =>
  row({
    api: 'pos',
    route: 'every route',
    wins: `${method}: 405 with Allow: GET, with or without key, not counted`,
    answer: {
      status: 405,
      also: (response) => {
        expect(response.headers.allow).toBe('GET');
        expect(response.headers['x-request-id']).toMatch(UUID);
        expectNoRateHeaders(response);
        expectNoDeprecation(response);
        // A HEAD answer has no body.
        if (method !== 'HEAD') expect(bodyOf(response).code).toBe('method_not_allowed');
      },
    },
    cite: 'Errors, 405',
    given: keyed,
    send: ({ key }) =>
      ROUTES.flatMap((url) =>
        [key, undefined, UNKNOWN_KEY].map((presented): PublicRequest => ({
          method,
          url,
          ...(presented === undefined ? {} : { key: presented }),
        })),
      ),
    // 36 calls with a wrong key: none counted for the IP block; none spent the key's balance.
    then: notCounted,
  }),
);

/** One problem alone on the POS API, before the key. */
export const POS_SINGLE_CASES: readonly OrderCase<unknown>[] = [
  ...conflictingHeaders,
  row({
    api: 'pos',
    route: 'every route, without a key',
    wins: 'conflicting header of any value, empty included',
    answer: CONFLICT,
    cite: 'docs/api-conventions.md',
    given: keyed,
    send: () =>
      ['', '0', 'gtpk_x', 'Bearer abc'].flatMap((value) =>
        [PING, PLACES, EVENTS, SALES_URL, `${PREFIX}orders/1`].map((url) => ({
          url,
          headers: { 'api-token': value },
        })),
      ),
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'conflicting header, before the key: with a wrong key it is 400, not counted for the IP block',
    answer: CONFLICT,
    cite: 'Authentication',
    given: keyed,
    send: () =>
      Array.from({ length: 25 }, () => ({ url: PING, key: UNKNOWN_KEY, headers: { 'Account-Token': 'x' } })),
    then: (t, { key }) => expectNotBlocked(t, key),
  }),
  ...addresses,
  row({
    api: 'pos',
    route: 'GET nope',
    wins: 'nonexistent address, counted neither in the key limit nor for the IP block',
    answer: { status: 404 },
    cite: 'Limits',
    given: keyed,
    send: ({ key }) => [
      ...Array.from({ length: 25 }, () => ({ url: `${PREFIX}nope`, key: UNKNOWN_KEY })),
      ...Array.from({ length: 5 }, () => ({ url: `${PREFIX}nope`, key })),
    ],
    then: notCounted,
  }),
  row({
    api: 'pos',
    route: 'GET nope',
    wins: 'nonexistent address, answered even while the IP is blocked',
    answer: NOT_FOUND,
    cite: 'Limits, IP block',
    given: blockedSeen,
    send: ({ key }) => [{ url: `${PREFIX}nope`, key }],
  }),
  row({
    api: 'pos',
    route: 'outside the prefixes',
    wins: 'a small HTML 404 without X-Request-Id',
    answer: {
      status: 404,
      also: (response) => {
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['x-request-id']).toBeUndefined();
        expectNoRateHeaders(response);
      },
    },
    cite: 'docs/api-conventions.md',
    given: keyed,
    send: ({ key }) =>
      ['/', '/ping', '/v1/ping', '/v1/api-publica/ping', '/favicon.ico'].map((url) => ({ url, key })),
  }),
  ...wrongMethods,
  row({
    api: 'pos',
    route: 'OPTIONS ping',
    wins: 'a CORS preflight is a 405 like any OPTIONS, without CORS headers',
    answer: {
      status: 405,
      code: 'method_not_allowed',
      also: (response) => {
        expect(response.headers.allow).toBe('GET');
        expect(response.headers['access-control-allow-origin']).toBeUndefined();
      },
    },
    cite: 'What the service does; Errors, 405',
    given: keyed,
    send: () => [
      {
        method: 'OPTIONS',
        url: PING,
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      },
    ],
  }),
  row({
    api: 'pos',
    route: 'POST ping',
    wins: '405, answered even while the IP is blocked',
    answer: {
      status: 405,
      code: 'method_not_allowed',
      also: (response) => {
        expect(response.headers.allow).toBe('GET');
      },
    },
    cite: 'Limits, IP block',
    given: blocked,
    send: ({ key }) => [{ method: 'POST', url: PING, key }],
  }),
  row({
    api: 'pos',
    route: 'GET ping',
    wins: 'a versioned media type of another version in Accept: 404, a key is not needed for it',
    answer: {
      status: 404,
      code: 'not_found',
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('param');
        expectNoRateHeaders(response);
      },
    },
    cite: 'Authentication',
    given: keyed,
    send: ({ key }) =>
      [
        'application/vnd.x.v2+json',
        'application/vnd.gt.v0+json',
        'application/json, application/vnd.x.v3+json;q=0.5',
      ].map((accept) => ({ url: PING, key, headers: { accept } })),
  }),
];

/** X-Request-Id is made by the server for every answer of the API, never taken from the client. */
export async function posRequestIds(t: TestApp) {
  const { key } = await seedAccountAndKey(t);
  const headers = { 'x-request-id': 'client-chosen' };
  const seen = new Set<string>();
  const responses: LightMyRequestResponse[] = [
    await publicRequest(t, { url: PING, key, headers }),
    await publicRequest(t, { url: PING, headers }),
    await publicRequest(t, { method: 'POST', url: PING, key, headers }),
    await publicRequest(t, { url: `${PREFIX}nope`, headers }),
    await publicRequest(t, { url: `${PREFIX}orders/1`, key, headers }),
  ];
  for (const response of responses) {
    const id = response.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    seen.add(id);
  }
  expect(seen.size).toBe(responses.length);
}

/** Any Accept value other than another version's gets JSON, and the usual refusals. */
export async function posOtherAccepts(t: TestApp) {
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
    expectApiProblem(refused, 422, 'invalid_parameter');
    expect401(await publicRequest(t, { url: PING, headers: { accept } }), null);
    expectAddressNotFound(await publicRequest(t, { url: `${PREFIX}nope`, key, headers: { accept } }));
  }
}
