import { expect, it } from 'vitest';
import { ticketApiGates } from '../../src/helpdesk/ticket-api.js';
import { expectNoRateHeaders } from '../expect-http.js';
import { gatePairTests, type Exclusion, type GateEntry } from '../gate-pairs.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { publicRequest, type PublicRequest } from '../request.js';
import {
  BODY_LIMIT,
  getOptions,
  HD_SCOPES,
  putSystem,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  UNKNOWN_KEY,
  webhookUrl,
  type Keys,
} from './fixtures.js';

// The order in which the ticket API answers problems, pinned pair by pair from the exported gate array
// (helpdesk-ticket-api.md, Authentication: "Order in which problems are answered", and the webhook's own
// rules under POST webhook; STYLE.md, 3). The table has one entry per gate, in the document's order: a
// change that makes a valid request trip that gate and no other, and the gate's answer. For every two gates
// of `ticketApiGates` that can both fire on one request, the test applies both changes and expects the
// answer of the gate the document puts first. A swap of two gates in the array, or a gate without an
// entry, fails here; gate-order.pairs.security.test.ts keeps the hand-written pairs and their details.

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

/** The gates of `ticketApiGates`, in the document's order (helpdesk-ticket-api.md, Authentication). */
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
  if (s.maintenance) {
    await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
  }
  return publicRequest(t, s.request);
}

describeEachDialect('ticket API, every pair of gates from ticketApiGates', (dialect) => {
  const t = useTestApp(dialect);
  /** The keys of the test's own seed (each test seeds afresh, then runs). */
  let keys: Keys | undefined;

  it('the baseline requests, a ticket and a webhook call of alpha, are accepted: 201 (POST ticket; POST webhook)', async () => {
    const seeded = await seedHelpdesk(t);
    for (const route of ['ticket', 'webhook'] as const) {
      const response = await run(t, seeded, baseline(seeded, route));
      expect(response.statusCode, `${route}: ${response.body}`).toBe(201);
    }
  });

  gatePairTests<Scenario>({
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
  });
});
