import { expect } from 'vitest';
import { bodyOf, expectNoRateHeaders, expectRateHeaders, PROBLEM_TYPE, UUID } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import {
  BODY_LIMIT,
  INVALID_UTF8,
  LEAD_URL,
  OPTIONS_URL,
  PREFIX,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  ticketOfBytes,
  TICKET_URL,
  webhookUrl,
} from '../helpdesk/fixtures.js';
import { row, type OrderCase } from './order-cases.js';

// Rows of one problem alone on the ticket API's routes and methods (a path that names no route, the
// webhook's {system} pattern, other versions, the HTML 404 outside the prefix, 405 with Allow; all before
// the key, none counted), and the webhook's own body rules (any Content-Type; the body's shape checked only
// after the key and the rate check, so with X-RateLimit-*).

const seeded = (t: TestApp) => seedHelpdesk(t);
const notCounted = async (t: TestApp, keys: { alpha: string }) => {
  expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
};
const NOT_FOUND = { status: 404, code: 'not_found', also: expectNoRateHeaders } as const;
const counted = (response: Parameters<typeof expectRateHeaders>[0]) => {
  expectRateHeaders(response, 120, 119);
};

const NOT_ROUTES = [
  `${PREFIX}help-desk-ticket/`,
  `${PREFIX}help-desk-ticket-options/`,
  `${PREFIX}lead/`,
  `${PREFIX}help-desk-tickets`,
  `${PREFIX}Help-Desk-Ticket`,
  PREFIX,
  `${PREFIX}/help-desk-ticket`,
  `${PREFIX}webhook`,
  `${PREFIX}webhook/`,
  `${PREFIX}webhook/alpha/`,
  `${PREFIX}webhook/alpha/extra`,
  `${PREFIX}docs`,
  `${PREFIX}docs/json`,
  `${PREFIX}openapi.json`,
];
const OUTSIDE_PATTERN = ['Alpha', 'ALPHA', 'a'.repeat(41), 'al.pha', 'al%20pha', 'alpha%2F', 'ção', 'al+pha'];
const OTHER_VERSIONS = [
  '/v2/api-external-system/help-desk-ticket',
  '/v0/api-external-system/help-desk-ticket-options',
  '/v1.1/api-external-system/lead',
  '/api-external-system/help-desk-ticket',
  '/api-external-system/webhook/alpha',
  '/v2/api-external-system/',
];
const OUTSIDE_PREFIX = [
  '/v1/api-external-system',
  '/v1/api-external-systems/help-desk-ticket',
  '/v1/help-desk-ticket',
  '/',
  '/help-desk-ticket',
];
const WRONG_METHODS: [string, string, string][] = [
  [OPTIONS_URL, 'POST', 'GET, OPTIONS'],
  [OPTIONS_URL, 'PUT', 'GET, OPTIONS'],
  [OPTIONS_URL, 'DELETE', 'GET, OPTIONS'],
  [TICKET_URL, 'GET', 'POST, OPTIONS'],
  [TICKET_URL, 'PUT', 'POST, OPTIONS'],
  [TICKET_URL, 'PATCH', 'POST, OPTIONS'],
  [webhookUrl('alpha'), 'GET', 'POST, OPTIONS'],
  [webhookUrl('alpha'), 'DELETE', 'POST, OPTIONS'],
  [LEAD_URL, 'GET', 'POST, OPTIONS'],
];
const SERVER_LEVEL: [string, string | Buffer][] = [
  ['broken JSON', '{"external_id": '],
  ['invalid UTF-8', INVALID_UTF8],
  ['a string', '"ticket"'],
  ['a number', '12'],
  ['true', 'true'],
  ['null', 'null'],
  ['an empty body', ''],
];
const OTHER_TYPE: [string, string | Buffer][] = [
  ['broken JSON', '{"external_id": '],
  ['invalid UTF-8', INVALID_UTF8],
  ['a list', '[]'],
  ['a string', '"ticket"'],
  ['null', 'null'],
  ['plain text', 'please open a ticket'],
];

/** Routes and methods of the ticket API, one problem alone. */
export const TICKET_ROUTE_CASES: readonly OrderCase<unknown>[] = [
  ...NOT_ROUTES.map((url) =>
    row({
      api: 'ticket',
      route: `GET ${url}`,
      wins: '404 not_found with X-Request-Id, before the key',
      answer: NOT_FOUND,
      cite: 'Errors, 404',
      given: seeded,
      send: () => [{ method: 'GET', url }],
    }),
  ),
  ...OUTSIDE_PATTERN.map((system) =>
    row({
      api: 'ticket',
      route: `POST webhook/${system}`,
      wins: '{system} outside ^[a-z0-9_-]{1,40}$ is not a route, 404 even with a key',
      answer: NOT_FOUND,
      cite: 'POST webhook',
      given: seeded,
      send: (keys) => [
        {
          method: 'POST',
          url: `${PREFIX}webhook/${system}`,
          key: keys.alpha,
          payload: JSON.stringify(ticket()),
        },
      ],
    }),
  ),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: 'an identifier inside the pattern (40 characters, digits, - and _) is a route, so an unknown one is 401',
    answer: { status: 401, code: 'unauthorized' },
    cite: 'POST webhook',
    given: seeded,
    send: (keys) =>
      ['a'.repeat(40), '0', 'a-b_c', '-', '_'].map((system) => ({
        method: 'POST',
        url: webhookUrl(system),
        key: keys.alpha,
        payload: '{}',
      })),
  }),
  ...OTHER_VERSIONS.map((url) =>
    row({
      api: 'ticket',
      route: `POST ${url}`,
      wins: 'a path of this API in another or no version gets the JSON 404 with X-Request-Id',
      answer: NOT_FOUND,
      cite: 'Endpoints; Errors, 404',
      given: seeded,
      send: (keys) => [{ method: 'POST', url, key: keys.alpha, type: 'application/json', payload: '{}' }],
    }),
  ),
  ...OUTSIDE_PREFIX.map((url) =>
    row({
      api: 'ticket',
      route: `POST ${url}`,
      wins: 'a path outside the prefix gets the HTML 404 without X-Request-Id',
      answer: {
        status: 404,
        also: (response) => {
          expect(response.headers['content-type']).toMatch(/^text\/html/);
          expect(response.headers['x-request-id']).toBeUndefined();
          expectNoRateHeaders(response);
          expect(response.body).toMatch(/<html/i);
        },
      },
      cite: 'Errors, 404 HTML page',
      given: seeded,
      send: (keys) => [{ method: 'POST', url, key: keys.alpha, type: 'application/json', payload: '{}' }],
    }),
  ),
  row({
    api: 'ticket',
    route: 'GET options/',
    wins: '404, not counted toward the rate limit',
    answer: { status: 404 },
    cite: 'Limits',
    given: seeded,
    send: (keys) => [{ method: 'GET', url: `${OPTIONS_URL}/`, key: keys.alpha }],
    then: notCounted,
  }),
  ...WRONG_METHODS.map(([url, method, allow]) =>
    row({
      api: 'ticket',
      route: `${method} ${url}`,
      wins: '405 with Allow, before the key',
      answer: {
        status: 405,
        code: 'method_not_allowed',
        also: (response) => {
          expect(response.headers.allow).toBe(allow);
          expectNoRateHeaders(response);
        },
      },
      cite: 'Method handling',
      given: seeded,
      send: () => [{ method, url }],
    }),
  ),
  row({
    api: 'ticket',
    route: 'HEAD options',
    wins: 'HEAD on the GET route: 405 with Allow',
    answer: {
      status: 405,
      also: (response) => {
        expect(response.headers.allow).toBe('GET, OPTIONS');
        expect(response.headers['content-type']).toBe(PROBLEM_TYPE);
        expect(response.headers['x-request-id']).toMatch(UUID);
        expectNoRateHeaders(response);
      },
    },
    cite: 'Method handling',
    given: seeded,
    send: (keys) => [{ method: 'HEAD', url: OPTIONS_URL, key: keys.alpha }],
  }),
  ...['TRACE', 'PROPFIND', 'PURGE', 'QUERY'].map((method) =>
    row({
      api: 'ticket',
      route: `${method} ticket`,
      wins: '405 with Allow, with or without Content-Type',
      answer: {
        status: 405,
        code: 'method_not_allowed',
        also: (response) => {
          expect(response.headers.allow).toBe('POST, OPTIONS');
        },
      },
      cite: 'Method handling',
      given: seeded,
      send: () =>
        [undefined, 'application/json'].map((type) => ({
          method,
          url: TICKET_URL,
          type,
          payload: method === 'TRACE' ? undefined : '{}',
        })),
    }),
  ),
  row({
    api: 'ticket',
    route: 'DELETE ticket',
    wins: '405 with a valid key, not counted in the rate limit',
    answer: { status: 405, code: 'method_not_allowed', also: expectNoRateHeaders },
    cite: 'Method handling',
    given: seeded,
    send: (keys) => [{ method: 'DELETE', url: TICKET_URL, key: keys.alpha }],
    then: notCounted,
  }),
];

/** The webhook's own body rules, one problem alone. */
export const TICKET_WEBHOOK_CASES: readonly OrderCase<unknown>[] = [
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: '413, before the key',
    answer: { status: 413, code: 'payload_too_large', also: expectNoRateHeaders },
    cite: 'Errors, 413',
    given: seeded,
    send: () => [
      {
        method: 'POST',
        url: webhookUrl('alpha'),
        type: 'text/plain',
        payload: ticketOfBytes(BODY_LIMIT + 1, 'x'),
      },
    ],
  }),
  ...[
    undefined,
    'text/plain',
    'Application/JSON',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    '',
    'json',
  ].map((type) =>
    row({
      api: 'ticket',
      route: 'POST webhook',
      wins: `any Content-Type is accepted, empty or malformed too, no 415 nor 500 (${type === undefined ? 'none' : JSON.stringify(type)})`,
      answer: { status: 201 },
      cite: 'POST webhook',
      given: seeded,
      send: (keys) => [
        {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          type,
          payload: JSON.stringify(ticket()),
        },
      ],
    }),
  ),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: 'the body shape is checked only after the key: a broken body without key is 401',
    answer: {
      status: 401,
      code: 'unauthorized',
      also: (response) => {
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expectNoRateHeaders(response);
      },
    },
    cite: 'POST webhook',
    given: seeded,
    send: () =>
      (
        [
          ['application/json', '{broken'],
          ['application/json', '[]'],
          ['text/plain', 'hello'],
        ] as const
      ).map(([type, payload]) => ({ method: 'POST', url: webhookUrl('alpha'), type, payload })),
  }),
  ...SERVER_LEVEL.flatMap(([label, payload]) =>
    ['application/json', 'application/json; charset=utf-8', 'application/vnd.partner+json'].map((type) =>
      row({
        api: 'ticket',
        route: 'POST webhook',
        wins: `${label} under ${type}: 400 WITHOUT code, with X-RateLimit-*`,
        answer: { status: 400, code: null, also: counted },
        cite: 'POST webhook; Errors, 400',
        given: seeded,
        send: (keys) => [{ method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, type, payload }],
      }),
    ),
  ),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: 'a JSON list under a JSON type: 422 invalid_body with X-RateLimit-*',
    answer: {
      status: 422,
      code: 'invalid_body',
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('param');
        counted(response);
      },
    },
    cite: 'POST webhook',
    given: seeded,
    send: (keys) => [
      {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify([ticket()]),
      },
    ],
  }),
  ...OTHER_TYPE.flatMap(([label, payload]) =>
    ['text/plain', undefined].map((type) =>
      row({
        api: 'ticket',
        route: 'POST webhook',
        wins: `${label} under ${type ?? 'no type'}: 422 invalid_body with X-RateLimit-*`,
        answer: { status: 422, code: 'invalid_body', also: counted },
        cite: 'POST webhook',
        given: seeded,
        send: (keys) => [{ method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, type, payload }],
      }),
    ),
  ),
];
