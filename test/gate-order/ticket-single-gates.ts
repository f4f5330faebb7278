import { expect } from 'vitest';
import { bodyOf, expectNoRateHeaders, expectRateHeaders, FOREIGN_HEADERS, UUID } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import {
  exhaust,
  getOptions,
  HD_SCOPES,
  LEAD_URL,
  OPTIONS_URL,
  putSystem,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  UNKNOWN_KEY,
  webhookUrl,
} from '../helpdesk/fixtures.js';
import { publicRequest } from '../request.js';
import { row, type OrderCase } from './order-cases.js';

// Rows of one problem alone on the ticket API: the first two gates (the maintenance switch's 503 before
// anything else, then another system's credential header's 400, neither counted), and the gates from the
// key on (which answers carry X-RateLimit-*). Each row names the answer and what sets it apart.

const seeded = (t: TestApp) => seedHelpdesk(t);

/** The call after the row's is the second of the key's system: the row's was not counted. */
const notCounted = async (t: TestApp, keys: { alpha: string }) => {
  expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
};

const CONFLICT = { status: 400, code: 'conflicting_credentials' } as const;

/** The conflicting header in each of its spellings, with a valid key. */
const conflictingHeaders = FOREIGN_HEADERS.flatMap((name) =>
  [name, name.toLowerCase(), name.toUpperCase()].map((spelled) =>
    row({
      api: 'ticket',
      route: 'GET options',
      wins: `header ${spelled}, with a valid key, not counted`,
      answer: { ...CONFLICT, also: expectNoRateHeaders },
      cite: 'Authentication; Errors, 400',
      given: seeded,
      send: (keys) => [
        { method: 'GET', url: OPTIONS_URL, key: keys.alpha, headers: { [spelled]: 'whatever' } },
      ],
      then: notCounted,
    }),
  ),
);

/** One problem alone on the ticket API. */
export const TICKET_SINGLE_CASES: readonly OrderCase<unknown>[] = [
  row({
    api: 'ticket',
    route: 'every route',
    wins: 'maintenance, before any other check, with Retry-After',
    answer: {
      status: 503,
      code: 'temporarily_unavailable',
      also: (response) => {
        expect(response.headers['retry-after']).toBe('120');
        expectNoRateHeaders(response);
      },
    },
    cite: 'Errors, 503',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 120 });
      return keys;
    },
    together: true,
    send: (keys) => [
      { url: OPTIONS_URL, key: keys.alpha },
      {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket()),
      },
      { method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, payload: JSON.stringify(ticket()) },
      {
        method: 'POST',
        url: LEAD_URL,
        key: keys.beta,
        type: 'application/json',
        payload: '{"external_id":"l-1"}',
      },
      { method: 'OPTIONS', url: TICKET_URL, key: keys.alpha },
      { url: OPTIONS_URL },
    ],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'maintenance, Retry-After 300 by default; the API answers again once it is off',
    answer: {
      status: 503,
      code: 'temporarily_unavailable',
      also: (response) => {
        expect(response.headers['retry-after']).toBe('300');
      },
    },
    cite: 'docs/ticket-api.md, Settled details',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true });
      return keys;
    },
    send: (keys) => [{ url: OPTIONS_URL, key: keys.alpha }],
    async then(t, keys) {
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      const after = await getOptions(t, keys.alpha);
      expect(after.statusCode).toBe(200);
      // The 503 did not spend the balance (Limits: responses before the check are not counted).
      expectRateHeaders(after, 120, 119);
    },
  }),
  ...conflictingHeaders,
  row({
    api: 'ticket',
    route: 'every route',
    wins: 'conflicting header of any value, even empty',
    answer: CONFLICT,
    cite: 'docs/api-conventions.md',
    given: seeded,
    send: (keys) =>
      (
        [
          [TICKET_URL, 'POST'],
          [webhookUrl('alpha'), 'POST'],
          [LEAD_URL, 'POST'],
          [OPTIONS_URL, 'GET'],
        ] as const
      ).map(([url, method]) => ({
        method,
        url,
        key: keys.beta,
        type: 'application/json',
        payload: method === 'POST' ? JSON.stringify(ticket()) : undefined,
        headers: { 'api-token': '' },
      })),
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'a header of this API only (Authorization, X-Request-Id) is not a conflicting credential',
    answer: { status: 200 },
    cite: 'Authentication',
    given: seeded,
    send: (keys) => [
      {
        method: 'GET',
        url: OPTIONS_URL,
        key: keys.alpha,
        headers: { 'x-api-key': 'x', 'x-request-id': 'mine' },
      },
    ],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: '401 unauthorized, WWW-Authenticate: Bearer, no X-RateLimit-*',
    answer: {
      status: 401,
      code: 'unauthorized',
      also: (response) => {
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expectNoRateHeaders(response);
      },
    },
    cite: 'Errors, 401',
    given: seeded,
    send: () => [{ url: OPTIONS_URL, key: UNKNOWN_KEY }],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: '403 system_inactive, before the rate check, no X-RateLimit-*',
    answer: {
      status: 403,
      code: 'system_inactive',
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('required_scope');
        expectNoRateHeaders(response);
      },
    },
    cite: 'Errors, 403',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { active: false });
      return keys;
    },
    send: (keys) => [{ url: OPTIONS_URL, key: keys.alpha }],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: '429 rate_limited, with X-RateLimit-* and Retry-After',
    answer: {
      status: 429,
      code: 'rate_limited',
      also: (response) => {
        expectRateHeaders(response, 2, 0);
        expect(response.headers['retry-after']).toBe('60');
      },
    },
    cite: 'Limits',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      await exhaust(t, keys.alpha, 2);
      return keys;
    },
    send: (keys) => [{ url: OPTIONS_URL, key: keys.alpha }],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: '403 forbidden_scope, required_scope, with X-RateLimit-*',
    answer: {
      status: 403,
      code: 'forbidden_scope',
      also: (response) => {
        expect(bodyOf(response).required_scope).toBe('help-desk-ticket.create');
        expectRateHeaders(response, 120, 119);
      },
    },
    cite: 'Errors, 403',
    given: seeded,
    send: (keys) => [{ url: OPTIONS_URL, key: keys.gamma }],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'field 422, last, with param and X-RateLimit-*',
    answer: {
      status: 422,
      code: 'invalid_company',
      also: (response) => {
        expect(bodyOf(response).param).toBe('company');
        expectRateHeaders(response, 120, 119);
      },
    },
    cite: 'Errors, field 422s',
    given: seeded,
    send: (keys) => [
      {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket({ company: 'nowhere' })),
      },
    ],
  }),
];

/** X-Request-Id is made by the server on every answer of the API, never taken from the client. */
export async function ticketRequestIds(t: TestApp) {
  const keys = await seedHelpdesk(t);
  const responses = await Promise.all([
    publicRequest(t, {
      method: 'GET',
      url: OPTIONS_URL,
      key: keys.alpha,
      headers: { 'x-request-id': 'mine' },
    }),
    publicRequest(t, {
      method: 'GET',
      url: OPTIONS_URL,
      headers: { 'x-request-id': 'mine', 'request-id': 'mine' },
    }),
    publicRequest(t, {
      method: 'OPTIONS',
      url: OPTIONS_URL,
      key: keys.alpha,
      headers: { 'x-request-id': 'mine' },
    }),
  ]);
  const ids = responses.map((response) => response.headers['x-request-id']);
  for (const id of ids) expect(id).toMatch(UUID);
  expect(new Set(ids).size).toBe(ids.length);
}
