import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { hashApiKey } from '../../src/lib/api-key.js';
import { ipBlockKey } from '../../src/lib/ip-key.js';
import { posApiGates } from '../../src/pos/api/pos-api.js';
import { bodyOf } from '../expect-http.js';
import { gatePairTests, type Exclusion, type GateEntry } from '../gate-pairs.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { posGet, publicRequest, type PublicRequest } from '../request.js';
import { blockIp, createKey, SALES_URL, seedAccount, UNKNOWN_KEY } from './fixtures.js';

// The order in which the point-of-sale data API answers problems, pinned pair by pair from the exported
// gate array (pos-data-api.md, Authentication, Errors and Limits; DECISIONS, Both APIs and POS data API;
// STYLE.md, 3). The table has one entry per gate, in the document's order: a change that makes a valid
// request trip that gate and no other, and the gate's answer. For every two gates of `posApiGates` that can
// both fire on one request, the test applies both changes and expects the answer of the gate the document
// puts first. A swap of two gates in the array, or a gate without an entry, fails here;
// pos-api.gate-order.security.test.ts keeps the hand-written pairs and their details.
//
// Two limits cannot be reached through HTTP alone without tripping others: the absolute ceiling of a key
// text (a valid key's calls spend its quota first) and the IP's unauthenticated calls (40 key checks in
// progress at once). Those are filled in the app's own store, under the key names of
// src/pos/api/pos-limits.ts (`keys.ceiling`, `keys.keyCheck`), as pos-api.limits.test.ts does; each gate's
// "alone" test shows that the filling still trips it.

const MINUTE = 60_000;
/** pos-data-api.md, Limits: the absolute ceilings per key text, and the unauthenticated calls of an IP. */
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

/** The gates of `posApiGates`, in the document's order (pos-data-api.md, Authentication; Limits). */
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

describeEachDialect('POS API, every pair of gates from posApiGates', (dialect) => {
  const t = useTestApp(dialect);

  it('the baseline request, a day of sales with a key of both permissions, is accepted: 200 (Endpoints)', async () => {
    const response = await run(t, baseline(await seed(t)));
    expect(response.statusCode, response.body).toBe(200);
  });

  gatePairTests<Scenario>({
    arrayName: 'posApiGates',
    gateNames: posApiGates.map((gate) => gate.name),
    gates: GATES,
    exclusions: EXCLUSIONS,
    cite: 'Authentication; Limits',
    baseline: async () => baseline(await seed(t)),
    run: (scenario) => run(t, scenario),
  });
});
