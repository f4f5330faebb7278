import { expect } from 'vitest';
import { ticketApiGates } from '../../src/helpdesk/ticket-api.js';
import { bodyOf, expectApiProblem, expectNoRateHeaders, expectRateHeaders } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import {
  BODY_LIMIT,
  chunked,
  exhaust,
  getOptions,
  HD_SCOPES,
  LEAD_URL,
  OPTIONS_URL,
  PREFIX,
  putSystem,
  seedHelpdesk,
  ticket,
  ticketOfBytes,
  TICKET_URL,
  UNKNOWN_KEY,
  webhookUrl,
  type Keys,
} from '../helpdesk/fixtures.js';
import { publicRequest, type PublicRequest } from '../request.js';
import type { Exclusion, GateEntry, GatePairSuite } from './gate-pairs.js';
import { row, type OrderCase } from './order-cases.js';

// The ticket API's order of gates (openapi/help-desk.json, the order in which problems are answered, and
// the webhook's own rules): the pair table, one entry per gate of `ticketApiGates`, and the hand-written
// rows of pairs the table cannot derive.

type Route = 'ticket' | 'webhook';

/** A request and what is set up before it. */
interface Scenario {
  route: Route;
  request: PublicRequest;
  /** Settings of `alpha` other than the fixture's. */
  system: { active?: boolean; scopes?: string[] };
  /** `alpha` limited to 1 call a minute, and that call spent before the request. */
  spendRate: boolean;
  /** Twenty wrong keys from the caller's IP before the request (the IP-block threshold). */
  blockIp: boolean;
  /** The maintenance switch on, last. */
  maintenance: boolean;
}

/** A valid request of the route: a new ticket of `alpha`, 201. */
function baseline(keys: Keys, route: Route): Scenario {
  return {
    route,
    request: {
      method: 'POST',
      url: route === 'ticket' ? TICKET_URL : webhookUrl('alpha'),
      key: keys.alpha,
      type: 'application/json',
      payload: JSON.stringify(ticket({ external_id: `pair-${route}` })),
    },
    system: {},
    spendRate: false,
    blockIp: false,
    maintenance: false,
  };
}

/** Pads the body with JSON whitespace to one byte above the limit: the same JSON, too large. */
function oversize(request: PublicRequest): void {
  const text = typeof request.payload === 'string' ? request.payload : '';
  request.payload = text + ' '.repeat(BODY_LIMIT + 1 - Buffer.byteLength(text));
}

/** The gates of `ticketApiGates`, in the document's order. */
const GATES = {
  answerMaintenance: {
    trip: (s) => {
      s.maintenance = true;
    },
    status: 503,
    code: 'temporarily_unavailable',
    also: (response) => {
      expect(response.headers['retry-after']).toBe('60');
    },
  },
  rejectConflictingCredentials: {
    trip: (s) => {
      s.request.headers = { ...s.request.headers, 'Api-Token': 'x' };
    },
    status: 400,
    code: 'conflicting_credentials',
  },
  findRoute: {
    trip: (s) => {
      s.request.url += '/';
    },
    status: 404,
    code: 'not_found',
  },
  requireRouteMethod: {
    trip: (s) => {
      s.request.method = 'PUT';
    },
    status: 405,
    code: 'method_not_allowed',
    also: (response) => {
      expect(response.headers.allow).toBe('POST, OPTIONS');
    },
  },
  limitBodySize: {
    trip: (s) => {
      oversize(s.request);
    },
    status: 413,
    code: 'payload_too_large',
  },
  requireJsonContentType: {
    route: 'ticket',
    trip: (s) => {
      s.request.type = 'text/plain';
    },
    status: 415,
    code: 'unsupported_media_type',
    also: (response) => {
      expect(response.headers['accept-encoding']).toBeUndefined();
    },
  },
  rejectContentCoding: {
    route: 'ticket',
    trip: (s) => {
      s.request.headers = { ...s.request.headers, 'Content-Encoding': 'gzip' };
    },
    status: 415,
    code: 'unsupported_media_type',
    // The type's 415 has the same code; this one names the codings the API takes.
    also: (response) => {
      expect(response.headers['accept-encoding']).toBe('identity');
    },
  },
  requireJsonObjectBody: {
    route: 'ticket',
    trip: (s) => {
      s.request.payload = '[]';
    },
    status: 422,
    code: 'invalid_body',
  },
  rejectBlockedIp: {
    trip: (s) => {
      s.blockIp = true;
    },
    status: 429,
    code: 'rate_limited',
    // The IP block's 429 is not measured: no X-RateLimit-* (the system rate's 429 has them).
    also: expectNoRateHeaders,
  },
  authenticateKey: {
    trip: (s) => {
      s.request.key = UNKNOWN_KEY;
    },
    status: 401,
    code: 'unauthorized',
  },
  rejectInactiveSystem: {
    trip: (s) => {
      s.system.active = false;
    },
    status: 403,
    code: 'system_inactive',
  },
  limitSystemRate: {
    trip: (s) => {
      s.spendRate = true;
    },
    status: 429,
    code: 'rate_limited',
    also: (response) => {
      expect(response.headers['x-ratelimit-limit']).toBe('1');
    },
  },
  answerOptions: {
    trip: (s) => {
      s.request.method = 'OPTIONS';
    },
    status: 200,
    also: (response) => {
      expect(response.headers.allow).toBe('POST, OPTIONS');
    },
  },
  requireScope: {
    trip: (s) => {
      s.system.scopes = ['lead.create'];
    },
    status: 403,
    code: 'forbidden_scope',
  },
  requireWebhookObjectBody: {
    route: 'webhook',
    trip: (s) => {
      s.request.payload = '[';
    },
    status: 400,
    code: null,
  },
} satisfies Record<string, GateEntry<Scenario>>;

const needsTheRoute = 'needs the route that findRoute did not find';
const postOnly = 'the body rules are for POST only';

/** Pairs that cannot both fire on one request. */
const EXCLUSIONS: readonly Exclusion[] = [
  ...(
    [
      'requireRouteMethod',
      'requireJsonContentType',
      'rejectContentCoding',
      'requireJsonObjectBody',
      'answerOptions',
      'requireScope',
      'requireWebhookObjectBody',
    ] as const
  ).map((gate) => ({ pair: ['findRoute', gate] as const, reason: needsTheRoute })),
  { pair: ['requireRouteMethod', 'answerOptions'], reason: 'both set the method: PUT is not OPTIONS' },
  { pair: ['requireRouteMethod', 'requireJsonContentType'], reason: `${postOnly}: a PUT never reaches them` },
  { pair: ['requireRouteMethod', 'rejectContentCoding'], reason: `${postOnly}: a PUT never reaches them` },
  { pair: ['requireRouteMethod', 'requireJsonObjectBody'], reason: `${postOnly}: a PUT never reaches them` },
  { pair: ['requireRouteMethod', 'requireWebhookObjectBody'], reason: `${postOnly}: a PUT never reaches it` },
  { pair: ['requireJsonContentType', 'answerOptions'], reason: `${postOnly}: OPTIONS skips them` },
  { pair: ['rejectContentCoding', 'answerOptions'], reason: `${postOnly}: OPTIONS skips them` },
  { pair: ['requireJsonObjectBody', 'answerOptions'], reason: `${postOnly}: OPTIONS skips them` },
  { pair: ['answerOptions', 'requireWebhookObjectBody'], reason: `${postOnly}: OPTIONS skips it` },
  {
    pair: ['requireJsonContentType', 'requireWebhookObjectBody'],
    reason: 'body rules of different routes (ticket and lead; webhook)',
  },
  {
    pair: ['rejectContentCoding', 'requireWebhookObjectBody'],
    reason: 'body rules of different routes (ticket and lead; webhook)',
  },
  {
    pair: ['requireJsonObjectBody', 'requireWebhookObjectBody'],
    reason: 'body rules of different routes (ticket and lead; webhook)',
  },
  ...(['rejectInactiveSystem', 'limitSystemRate', 'requireScope'] as const).map((gate) => ({
    pair: ['authenticateKey', gate] as const,
    reason: 'needs the system of a recognized key',
  })),
];

/** Sets the scenario up in an order where each step still counts, then sends the request. */
async function run(t: TestApp, keys: Keys, s: Scenario) {
  const settings = {
    ...(s.spendRate ? { rate_limit_per_minute: 1 } : {}),
    ...(s.system.active === undefined ? {} : { active: s.system.active }),
  };
  const scopes = s.system.scopes ?? HD_SCOPES;
  if (s.spendRate) {
    // Spent while the system is active (an inactive system's calls are refused before the rate check);
    // a 403 forbidden_scope is counted too.
    await putSystem(t, 'alpha', scopes, { rate_limit_per_minute: 1 });
    const spent = await getOptions(t, keys.alpha);
    expect([200, 403], spent.body).toContain(spent.statusCode);
  }
  if (Object.keys(settings).length > 0 || s.system.scopes !== undefined) {
    await putSystem(t, 'alpha', scopes, settings);
  }
  if (s.blockIp) {
    for (let i = 0; i < 20; i += 1) {
      expect((await getOptions(t, UNKNOWN_KEY)).statusCode).toBe(401);
    }
  }
  if (s.maintenance) await maintenanceOn(t);
  return publicRequest(t, s.request);
}

const maintenanceOn = (t: TestApp) =>
  t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });

/** The baseline requests, a ticket and a webhook call of alpha: both must be accepted (201). */
export async function ticketBaselines(t: TestApp) {
  const keys = await seedHelpdesk(t);
  const answers: [Route, number, string][] = [];
  for (const route of ['ticket', 'webhook'] as const) {
    const response = await run(t, keys, baseline(keys, route));
    answers.push([route, response.statusCode, response.body]);
  }
  return answers;
}

/** The pair table of the ticket API, against the suite's app. */
export function ticketPairTable(t: TestApp): GatePairSuite<Scenario> {
  /** The keys of the test's own seed (each test seeds afresh, then runs). */
  let keys: Keys | undefined;
  return {
    arrayName: 'ticketApiGates',
    gateNames: ticketApiGates.map((gate) => gate.name),
    gates: GATES,
    exclusions: EXCLUSIONS,
    cite: 'Authentication, order',
    async baseline(route) {
      keys = await seedHelpdesk(t);
      return baseline(keys, (route as Route | undefined) ?? 'ticket');
    },
    run(scenario) {
      if (keys === undefined) throw new Error('baseline() seeds the keys first');
      return run(t, keys, scenario);
    },
  };
}

// The rows. `given` seeds the fixture systems (alpha: tickets; beta: tickets and leads; gamma: leads).

const seeded = (t: TestApp) => seedHelpdesk(t);

const inMaintenance = async (t: TestApp) => {
  const keys = await seedHelpdesk(t);
  await maintenanceOn(t);
  return keys;
};

/** Seeds, then rewrites one system with the settings. */
const withSystem =
  (identifier: string, scopes: string[], settings: Record<string, unknown>) => async (t: TestApp) => {
    const keys = await seedHelpdesk(t);
    await putSystem(t, identifier, scopes, settings);
    return keys;
  };

/** Seeds, then spends alpha's whole rate of one call a minute. */
const rateSpent = async (t: TestApp) => {
  const keys = await seedHelpdesk(t);
  await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 1 });
  await exhaust(t, keys.alpha, 1);
  return keys;
};

const tooLarge = () => ticketOfBytes(BODY_LIMIT + 1, 'x');
const noAllow = (response: { headers: Record<string, unknown> }) => {
  expect(response.headers.allow).toBeUndefined();
};
const noChallenge = (response: { headers: Record<string, unknown> }) => {
  expect(response.headers['www-authenticate']).toBeUndefined();
};
const requiredScope = (scope: string) => (response: Parameters<typeof bodyOf>[0]) => {
  expect(bodyOf(response).required_scope).toBe(scope);
};

const MAINTENANCE = { status: 503, code: 'temporarily_unavailable' } as const;
const CONFLICT = { status: 400, code: 'conflicting_credentials' } as const;
const NOT_FOUND = { status: 404, code: 'not_found' } as const;
const TOO_LARGE = { status: 413, code: 'payload_too_large' } as const;
const MEDIA_TYPE = { status: 415, code: 'unsupported_media_type' } as const;
const INVALID_BODY = { status: 422, code: 'invalid_body' } as const;
const RATE = { status: 429, code: 'rate_limited' } as const;
const SCOPE = { status: 403, code: 'forbidden_scope' } as const;
const INACTIVE = { status: 403, code: 'system_inactive' } as const;
const UNAUTHORIZED = { status: 401, code: 'unauthorized' } as const;

/** The hand-written pairs of the ticket API: the earlier problem answers. */
export const TICKET_CASES: readonly OrderCase<unknown>[] = [
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'maintenance',
    loses: 'conflicting header',
    answer: {
      ...MAINTENANCE,
      also: (response) => {
        expect(response.headers['retry-after']).toBe('60');
      },
    },
    cite: 'Authentication, order',
    given: inMaintenance,
    send: () => [{ method: 'GET', url: OPTIONS_URL, headers: { 'Account-Token': 'x' } }],
  }),
  row({
    api: 'ticket',
    route: 'every route',
    wins: 'maintenance',
    loses: 'unknown path, wrong method, oversized body, wrong type, broken body, unknown key, webhook body',
    answer: MAINTENANCE,
    cite: 'docs/ticket-api.md, Settled details',
    given: inMaintenance,
    send: (keys) => [
      { method: 'GET', url: `${PREFIX}nope` },
      { method: 'DELETE', url: TICKET_URL },
      { method: 'POST', url: TICKET_URL, type: 'application/json', payload: tooLarge() },
      { method: 'POST', url: TICKET_URL, type: 'text/plain', payload: '{}' },
      { method: 'POST', url: TICKET_URL, type: 'application/json', payload: '[' },
      { url: OPTIONS_URL, key: UNKNOWN_KEY },
      { method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, type: 'application/json', payload: '[' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'maintenance',
    loses: 'malformed Content-Type (not a framework error)',
    answer: MAINTENANCE,
    cite: 'docs/ticket-api.md, Settled details',
    given: inMaintenance,
    send: () => [{ method: 'POST', url: TICKET_URL, type: '/', payload: '{}' }],
  }),
  row({
    api: 'ticket',
    route: 'GET, three unknown paths',
    wins: 'conflicting header',
    loses: 'unknown path',
    answer: CONFLICT,
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      [`${PREFIX}nope`, `${TICKET_URL}/`, `${PREFIX}webhook/ALPHA`].map((url) => ({
        method: 'GET',
        url,
        headers: { 'Producer-Token': 'x' },
      })),
  }),
  row({
    api: 'ticket',
    route: 'DELETE ticket',
    wins: 'conflicting header',
    loses: 'wrong method',
    answer: { ...CONFLICT, also: noAllow },
    cite: 'Authentication, order',
    given: seeded,
    send: () => [{ method: 'DELETE', url: TICKET_URL, headers: { 'EventOrganizer-Host': 'x' } }],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'conflicting header',
    loses: 'oversized body, wrong type, broken body, no key',
    answer: CONFLICT,
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      (
        [
          ['application/json', tooLarge()],
          ['text/plain', '{}'],
          ['application/json', '['],
        ] as const
      ).map(([type, payload]) => ({
        method: 'POST',
        url: TICKET_URL,
        type,
        payload,
        headers: { 'Online-Catalog-Identifier': 'x' },
      })),
  }),
  row({
    api: 'ticket',
    route: 'DELETE, three unknown paths',
    wins: '404',
    loses: 'wrong method',
    answer: { ...NOT_FOUND, also: noAllow },
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      [`${TICKET_URL}/`, `${PREFIX}webhook/Alpha`, `${PREFIX}nope`].map((url) => ({ method: 'DELETE', url })),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket/',
    wins: '404',
    loses: 'oversized body, wrong type, broken body',
    answer: NOT_FOUND,
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      (
        [
          ['application/json', tooLarge()],
          ['text/plain', '{}'],
          ['application/json', '['],
        ] as const
      ).map(([type, payload]) => ({ method: 'POST', url: `${TICKET_URL}/`, type, payload })),
  }),
  row({
    api: 'ticket',
    route: 'PUT ticket',
    wins: '405',
    loses: 'oversized body',
    answer: {
      status: 405,
      code: 'method_not_allowed',
      also: (response) => {
        expect(response.headers.allow).toBe('POST, OPTIONS');
      },
    },
    cite: 'Authentication, order',
    given: seeded,
    send: () => [{ method: 'PUT', url: TICKET_URL, type: 'application/json', payload: tooLarge() }],
  }),
  row({
    api: 'ticket',
    route: 'PATCH lead',
    wins: '405',
    loses: 'wrong type, broken body, no key',
    answer: { status: 405, code: 'method_not_allowed' },
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      (
        [
          ['text/plain', '{}'],
          ['application/json', '['],
        ] as const
      ).map(([type, payload]) => ({ method: 'PATCH', url: LEAD_URL, type, payload })),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket and lead',
    wins: '413',
    loses: 'wrong type',
    answer: TOO_LARGE,
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      [TICKET_URL, LEAD_URL].map((url) => ({
        method: 'POST',
        url,
        type: 'text/plain',
        payload: 'x'.repeat(BODY_LIMIT + 1),
      })),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '413',
    loses: 'no Content-Type, chunked',
    answer: TOO_LARGE,
    cite: 'Authentication, order',
    given: seeded,
    send: () => [{ method: 'POST', url: TICKET_URL, payload: chunked('x'.repeat(BODY_LIMIT + 1)) }],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '413',
    loses: 'broken body, no key',
    answer: TOO_LARGE,
    cite: 'Authentication, order',
    given: seeded,
    send: () => [
      { method: 'POST', url: TICKET_URL, type: 'application/json', payload: '['.repeat(BODY_LIMIT + 1) },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket and lead',
    wins: '415',
    loses: 'broken JSON',
    answer: MEDIA_TYPE,
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      [TICKET_URL, LEAD_URL].map((url) => ({ method: 'POST', url, type: 'text/plain', payload: '{broken' })),
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: '415',
    loses: 'no key',
    answer: { ...MEDIA_TYPE, also: noChallenge },
    cite: 'Authentication, order',
    given: seeded,
    send: () => [{ method: 'POST', url: TICKET_URL, key: 'not a key', type: 'text/plain', payload: '{}' }],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket and lead',
    wins: 'invalid_body',
    loses: 'no key',
    answer: { ...INVALID_BODY, also: noChallenge },
    cite: 'Authentication, order',
    given: seeded,
    send: () =>
      [TICKET_URL, LEAD_URL].map((url) => ({
        method: 'POST',
        url,
        key: UNKNOWN_KEY,
        type: 'application/json',
        payload: '[]',
      })),
  }),
  row({
    api: 'ticket',
    route: 'POST lead',
    wins: 'invalid_body',
    loses: 'lead without lead.create',
    answer: INVALID_BODY,
    cite: 'Authentication, order',
    given: seeded,
    send: (keys) => [
      { method: 'POST', url: LEAD_URL, key: keys.alpha, type: 'application/json', payload: '"x"' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'invalid_body',
    loses: 'inactive system',
    answer: INVALID_BODY,
    cite: 'Authentication, order',
    given: withSystem('alpha', HD_SCOPES, { active: false }),
    send: (keys) => [
      { method: 'POST', url: TICKET_URL, key: keys.alpha, type: 'application/json', payload: '1' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'DELETE ticket',
    wins: 'pre-key problem (405)',
    loses: 'IP block',
    answer: { status: 405, code: 'method_not_allowed' },
    cite: 'Authentication, order',
    async given(t) {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) await getOptions(t, UNKNOWN_KEY);
    },
    send: () => [{ method: 'DELETE', url: TICKET_URL }],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'IP block',
    loses: '401',
    answer: {
      ...RATE,
      also: (response) => {
        expect(response.headers['retry-after']).toBe('60');
        expect(response.headers['www-authenticate']).toBeUndefined();
        expectNoRateHeaders(response);
      },
    },
    cite: 'Limits, IP block',
    async given(t) {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) {
        expectApiProblem(await getOptions(t, UNKNOWN_KEY), 401, 'unauthorized');
      }
    },
    send: () => [{ url: OPTIONS_URL, key: UNKNOWN_KEY }],
  }),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: "another system's key (401)",
    loses: 'that system inactive',
    answer: UNAUTHORIZED,
    cite: 'POST webhook',
    given: withSystem('beta', ['help-desk-ticket.create', 'lead.create'], { active: false }),
    send: (keys) => [
      { method: 'POST', url: webhookUrl('alpha'), key: keys.beta, payload: JSON.stringify(ticket()) },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: '401',
    loses: 'webhook body shape',
    answer: UNAUTHORIZED,
    cite: 'POST webhook',
    given: seeded,
    send: (keys) => [
      { method: 'POST', url: webhookUrl('beta'), key: keys.alpha, type: 'application/json', payload: '[' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'system_inactive',
    loses: 'rate exhausted',
    answer: {
      ...INACTIVE,
      also: (response) => {
        expectNoRateHeaders(response);
        expect(response.headers['retry-after']).toBeUndefined();
      },
    },
    cite: 'Limits',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      await exhaust(t, keys.alpha, 2);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2, active: false });
      return keys;
    },
    send: (keys) => [{ url: OPTIONS_URL, key: keys.alpha }],
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'system_inactive',
    loses: 'forbidden_scope',
    answer: {
      ...INACTIVE,
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('required_scope');
        expectNoRateHeaders(response);
      },
    },
    cite: 'Authentication, order',
    given: withSystem('gamma', ['lead.create'], { active: false }),
    send: (keys) => [{ url: OPTIONS_URL, key: keys.gamma }],
  }),
  row({
    api: 'ticket',
    route: 'POST webhook and ticket',
    wins: 'system_inactive',
    loses: 'webhook body shape or field 422',
    answer: INACTIVE,
    cite: 'Authentication, order',
    given: withSystem('alpha', HD_SCOPES, { active: false }),
    send: (keys) =>
      (
        [
          [webhookUrl('alpha'), '['],
          [TICKET_URL, JSON.stringify(ticket({ company: 'nowhere' }))],
        ] as const
      ).map(([url, payload]) => ({
        method: 'POST',
        url,
        key: keys.alpha,
        type: 'application/json',
        payload,
      })),
  }),
  row({
    api: 'ticket',
    route: 'GET options',
    wins: 'rate 429',
    loses: 'forbidden_scope',
    answer: {
      ...RATE,
      also: (response) => {
        expect(bodyOf(response)).not.toHaveProperty('required_scope');
        expectRateHeaders(response, 1, 0);
      },
    },
    cite: 'Authentication, order',
    async given(t) {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'gamma', ['lead.create'], { rate_limit_per_minute: 1 });
      // The first call is refused for its scope, and counted.
      const first = await getOptions(t, keys.gamma);
      expectApiProblem(first, 403, 'forbidden_scope');
      expectRateHeaders(first, 1, 0);
      return keys;
    },
    send: (keys) => [{ url: OPTIONS_URL, key: keys.gamma }],
  }),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: 'rate 429',
    loses: 'webhook body shape',
    answer: {
      ...RATE,
      also: (response) => {
        expectRateHeaders(response, 1, 0);
      },
    },
    cite: 'POST webhook',
    given: rateSpent,
    send: (keys) => [
      { method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, type: 'application/json', payload: '[' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'rate 429',
    loses: 'field 422',
    answer: RATE,
    cite: 'Authentication, order',
    given: rateSpent,
    send: (keys) => [
      {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket({ external_id: '' })),
      },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST ticket',
    wins: 'forbidden_scope',
    loses: 'field 422',
    answer: {
      ...SCOPE,
      also: (response) => {
        requiredScope('help-desk-ticket.create')(response);
        expect(bodyOf(response)).not.toHaveProperty('param');
        expectRateHeaders(response, 120, 119);
      },
    },
    cite: 'Authentication, order',
    given: seeded,
    send: (keys) => [
      {
        method: 'POST',
        url: TICKET_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: JSON.stringify(ticket({ company: 'nowhere', external_id: '' })),
      },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST webhook',
    wins: 'forbidden_scope',
    loses: 'webhook body shape',
    answer: { ...SCOPE, also: requiredScope('help-desk-ticket.create') },
    cite: 'POST webhook',
    given: seeded,
    send: (keys) => [
      { method: 'POST', url: webhookUrl('gamma'), key: keys.gamma, type: 'application/json', payload: '[' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST lead',
    wins: 'forbidden_scope (lead.create)',
    loses: 'lead field 422',
    answer: { ...SCOPE, also: requiredScope('lead.create') },
    cite: 'POST lead',
    given: seeded,
    send: (keys) => [
      { method: 'POST', url: LEAD_URL, key: keys.alpha, type: 'application/json', payload: '{}' },
    ],
  }),
  row({
    api: 'ticket',
    route: 'POST lead',
    wins: 'field 422, with X-RateLimit-*',
    loses: '501 of the planned route',
    answer: {
      status: 422,
      code: 'missing_external_id',
      also: (response) => {
        expect(bodyOf(response).param).toBe('external_id');
        expectRateHeaders(response, 120, 119);
      },
    },
    cite: 'POST lead',
    given: seeded,
    send: (keys) => [
      { method: 'POST', url: LEAD_URL, key: keys.gamma, type: 'application/json', payload: '{}' },
    ],
    // Without the field's problem, the same call is the planned route's 501, counted too.
    async then(t, keys) {
      const planned = await publicRequest(t, {
        method: 'POST',
        url: LEAD_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: '{"external_id":"l-1"}',
      });
      expectApiProblem(planned, 501, 'not_implemented');
      expectRateHeaders(planned, 120, 118);
    },
  }),
];
