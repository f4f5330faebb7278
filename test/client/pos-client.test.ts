import { describe, expect, it } from 'vitest';
import {
  ApiError,
  createPosClient,
  createTicketsClient,
  kindOfStatus,
  TicketNotAcknowledgedError,
  UnexpectedResponseError,
  type ClientOptions,
  type Deprecation,
} from '../../packages/client/src/index.js';
import { describeEachDialect } from '../helper.js';
import { useLiveApp, type LiveApp } from './live-app.js';

// The typed client of the POS data API against the real app (docs/pos-api.md: Endpoints, Limits,
// Authentication, Versioning): events paged by cursor, sales queries never two at once, money as
// decimal strings, Deprecation and Sunset surfaced, refusals typed, the rate-limit headers on every result.

const SALES = '/v1/api-public/sales/by-payment-method';

function client(live: LiveApp, options: Partial<ClientOptions> = {}) {
  return createPosClient({
    baseUrl: live.baseUrl,
    key: live.keys.pos,
    fetch: live.fetch,
    sleep: (ms) => live.sleep(ms),
    now: () => live.t.clock.now(),
    ...options,
  });
}

/** The demo's period: the 30 days before the app's clock, at UTC-03:00. */
function period(live: LiveApp) {
  const day = (offset: number) =>
    new Date(live.t.clock.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: `${day(-30)}T00:00:00-03:00`, to: `${day(1)}T00:00:00-03:00` };
}

describe('POS client', () => {
  describeEachDialect('against the app', (dialect) => {
    const live = useLiveApp(dialect);

    it('ping and places, with the rate-limit headers on every result', async () => {
      const pos = client(live);
      const ping = await pos.ping();
      expect(ping.account.id).toBe('demo');
      expect(ping.lastResponse.rateLimit).toEqual({ limit: 60, remaining: 59, reset: expect.any(Number) });
      expect(ping.lastResponse.deprecation).toBeNull();
      const places = await pos.places();
      expect(places.data.map((p) => p.id).sort()).toEqual(['MAN01', 'REC01', 'SP01']);
      expect(places.lastResponse).toMatchObject({ status: 200, attempts: 1, rateLimit: { remaining: 58 } });
      expect(Object.keys(places).sort()).toEqual(['all', 'data']);
    });

    it('events() pages through the cursor until next_cursor is null, without repeats (Endpoints, events)', async () => {
      const pos = client(live);
      const whole = [];
      for await (const page of pos.events({ place: 'REC01', limit: 100 })) whole.push(...page.data);
      const paged = [];
      let pages = 0;
      for await (const page of pos.events({ place: 'REC01', limit: 1 })) {
        pages += 1;
        expect(page.lastResponse.status).toBe(200);
        paged.push(...page.data);
      }
      expect(whole.length).toBeGreaterThan(1);
      expect(pages).toBe(whole.length);
      expect(paged.map((e) => e.id)).toEqual(whole.map((e) => e.id));
    });

    it('sales queries of one client never run two at once; money is decimal text (Endpoints, sales)', async () => {
      const pos = client(live);
      const { from, to } = period(live);
      const results = await Promise.all(
        ['SP01', 'MAN01', 'REC01'].map((place) => pos.salesByPaymentMethod({ place, from, to })),
      );
      expect(live.maxInFlight.get(SALES)).toBe(1);
      expect(live.calls.filter((path) => path === SALES)).toHaveLength(3);
      for (const result of results) {
        expect(result.lastResponse.status).toBe(200);
        expect(JSON.stringify(result)).not.toMatch(/"amount":\d/);
        expect(result.lastResponse.rateLimit?.limit).toBe(10);
      }
      // A refused query does not stop the next one.
      const refused = await pos.salesByPaymentMethod({ place: 'NOPE', from, to }).catch((e: unknown) => e);
      expect(refused).toMatchObject({ status: 404, code: 'not_found', param: 'place', kind: 'not_found' });
      expect((await pos.salesByPaymentMethod({ place: 'SP01', from, to })).lastResponse.status).toBe(200);
    });

    it('on 429 waits Retry-After and asks again, within the attempts; with retries off the refusal is typed (Limits)', async () => {
      const { from, to } = period(live);
      const once = client(live, { retry: { attempts: 1 } });
      for (let i = 0; i < 10; i += 1) await once.salesByPaymentMethod({ place: 'SP01', from, to });
      const refused = await once.salesByPaymentMethod({ place: 'SP01', from, to }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({
        status: 429,
        code: 'rate_limited',
        kind: 'rate_limited',
        retryAfter: 60,
      });
      expect((refused as ApiError).rateLimit).toMatchObject({ limit: 10, remaining: 0 });
      expect(live.waits).toEqual([]);
      const patient = await client(live).salesByPaymentMethod({ place: 'SP01', from, to });
      expect(patient.lastResponse).toMatchObject({ status: 200, attempts: 2 });
      expect(live.waits).toEqual([60_000]);
    });

    it('a rotated-out key: onDeprecation is called with the Sunset instant, and each result says so (Authentication)', async () => {
      const keys = JSON.parse((await live.t.admin('GET', '/admin/v1/pos/accounts/demo/keys')).body) as {
        id: string;
      }[];
      const rotated = JSON.parse(
        (await live.t.admin('POST', `/admin/v1/pos/accounts/demo/keys/${keys[0]!.id}/rotate`, {})).body,
      ) as { key: string; previous_valid_until: string };
      const seen: { deprecation: Deprecation; path: string }[] = [];
      const old = client(live, { onDeprecation: (deprecation, path) => seen.push({ deprecation, path }) });
      const ping = await old.ping();
      const deprecation = ping.lastResponse.deprecation;
      expect(deprecation?.sunset?.getTime()).toBe(Date.parse(rotated.previous_valid_until));
      expect(seen).toEqual([{ deprecation, path: '/v1/api-public/ping' }]);
      const current = await client(live, { key: rotated.key }).ping();
      expect(current.lastResponse.deprecation).toBeNull();
    });

    it('refusals are typed: 403 with required_permission, 401 with reason', async () => {
      const created = JSON.parse(
        (
          await live.t.admin('POST', '/admin/v1/pos/accounts/demo/keys', {
            name: 'places only',
            permissions: [],
          })
        ).body,
      ) as { id: string; key: string };
      const limited = client(live, { key: created.key });
      const forbidden = await limited
        .events({ place: 'SP01' })
        .next()
        .catch((e: unknown) => e);
      expect(forbidden).toMatchObject({
        status: 403,
        code: 'forbidden_permission',
        requiredPermission: 'event.view',
        kind: 'forbidden',
      });
      await live.t.admin('POST', `/admin/v1/pos/accounts/demo/keys/${created.id}/pause`, {});
      const paused = await limited.ping().catch((e: unknown) => e);
      expect(paused).toMatchObject({ status: 401, code: 'invalid_token', reason: 'paused' });
    });
  });

  it('an unknown code is handled by its status (Versioning: do not fail on a new code)', async () => {
    const pos = createPosClient({
      baseUrl: 'http://gateway.invalid',
      key: 'k',
      fetch: () =>
        Promise.resolve(
          new Response(JSON.stringify({ status: 409, code: 'brand_new_code', detail: 'x' }), {
            status: 409,
            headers: { 'content-type': 'application/problem+json' },
          }),
        ),
    });
    const error = await pos.ping().catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, code: 'brand_new_code', kind: 'unexpected' });
    expect(kindOfStatus(503)).toBe('unavailable');
    expect(kindOfStatus(502)).toBe('server_error');
  });

  it('a 2xx without a JSON object (a page of a proxy) is an UnexpectedResponseError; a ticket so answered is kept to resend', async () => {
    const fetch = () =>
      Promise.resolve(
        new Response('<html>gateway</html>', {
          status: 200,
          headers: { 'content-type': 'text/html', 'x-request-id': 'r-1' },
        }),
      );
    const error = await createPosClient({ baseUrl: 'http://gateway.invalid', key: 'k', fetch })
      .places()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error).toMatchObject({ status: 200, requestId: 'r-1', body: '<html>gateway</html>' });
    const tickets = createTicketsClient({ baseUrl: 'http://gateway.invalid', key: 'k', fetch });
    const kept = await tickets
      .createTicket({ external_id: 'x-1', company: 'acme', description: 'd' })
      .catch((e: unknown) => e);
    expect(kept).toBeInstanceOf(TicketNotAcknowledgedError);
    expect((kept as Error).cause).toBeInstanceOf(UnexpectedResponseError);
  });
});
