import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectNoRateHeaders } from '../expect-http.js';
import { publicRequest, type PublicRequest } from '../request.js';
import {
  getOptions,
  HD_SCOPES,
  json,
  LEAD_URL,
  OPTIONS_URL,
  putSystem,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  webhookUrl,
} from './fixtures.js';

// The per-system rate limit of the ticket API (docs/ticket-api.md, Limits; Method handling) and
// docs/api-conventions.md (Rate windows: sliding windows, a refused call consumes nothing) and
// docs/ticket-api.md (Limits: limit per system).

/** Unix seconds, rounded up, of an instant in ms. */
const seconds = (ms: number) => Math.ceil(ms / 1000);

function expectRate(response: LightMyRequestResponse, limit: number, remaining: number, resetMs: number) {
  expect(response.headers['x-ratelimit-limit'], response.body).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(response.headers['x-ratelimit-reset']).toBe(String(seconds(resetMs)));
}

function expectLimited(response: LightMyRequestResponse, limit: number, resetMs: number, retryAfter: number) {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(json(response).code).toBe('rate_limited');
  expectRate(response, limit, 0, resetMs);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
}

describeEachDialect('ticket API, rate limit', (dialect) => {
  const t = useTestApp(dialect);

  describe('headers', () => {
    it('X-RateLimit-Limit/Remaining/Reset: 120 by default, Reset when the oldest call stops counting (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const t0 = t.clock.now();
      expectRate(await getOptions(t, keys.alpha), 120, 119, t0 + 60_000);
      t.clock.advance(10_500);
      // Reset still names the oldest call of the window, not this one.
      expectRate(await getOptions(t, keys.alpha), 120, 118, t0 + 60_000);
      const created = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        json: JSON.stringify(ticket()),
      });
      expect(created.statusCode).toBe(201);
      expectRate(created, 120, 117, t0 + 60_000);
      const again = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        json: JSON.stringify(ticket()),
      });
      expect(again.statusCode).toBe(200);
      expectRate(again, 120, 116, t0 + 60_000);
      t.clock.advance(49_500); // t0 + 60 s: the first call stops counting
      expectRate(await getOptions(t, keys.alpha), 120, 116, t0 + 10_500 + 60_000);
    });

    it('the limit is per system, from rate_limit_per_minute of the admin PUT (Limits; docs/ticket-api.md, Settled details)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 5 });
      const t0 = t.clock.now();
      expectRate(await getOptions(t, keys.alpha), 5, 4, t0 + 60_000);
      expectRate(await getOptions(t, keys.beta), 120, 119, t0 + 60_000);
      // A new value applies from the next call, to the calls already in the window.
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      expectRate(await getOptions(t, keys.alpha), 2, 0, t0 + 60_000);
      expectLimited(await getOptions(t, keys.alpha), 2, t0 + 60_000, 60);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 10 });
      expectRate(await getOptions(t, keys.alpha), 10, 7, t0 + 60_000);
    });

    it('each system has its own balance (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 1 });
      expect((await getOptions(t, keys.alpha)).statusCode).toBe(200);
      expect((await getOptions(t, keys.alpha)).statusCode).toBe(429);
      expect((await getOptions(t, keys.beta)).headers['x-ratelimit-remaining']).toBe('119');
    });
  });

  describe('sliding window and 429', () => {
    it('the window slides: each call counts for 60 s after it was admitted (docs/api-conventions.md)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 3 });
      const t0 = t.clock.now();
      expectRate(await getOptions(t, keys.alpha), 3, 2, t0 + 60_000); // t0
      t.clock.advance(20_000);
      expectRate(await getOptions(t, keys.alpha), 3, 1, t0 + 60_000); // t0 + 20 s
      t.clock.advance(20_000);
      expectRate(await getOptions(t, keys.alpha), 3, 0, t0 + 60_000); // t0 + 40 s
      t.clock.advance(10_000);
      expectLimited(await getOptions(t, keys.alpha), 3, t0 + 60_000, 10); // t0 + 50 s
      t.clock.advance(9_999);
      expectLimited(await getOptions(t, keys.alpha), 3, t0 + 60_000, 1);
      t.clock.advance(1); // t0 + 60 s: the first call leaves
      expectRate(await getOptions(t, keys.alpha), 3, 0, t0 + 80_000);
      expectLimited(await getOptions(t, keys.alpha), 3, t0 + 80_000, 20);
      t.clock.advance(40_000); // t0 + 100 s: the calls of t0 + 20 s and t0 + 40 s left
      expectRate(await getOptions(t, keys.alpha), 3, 1, t0 + 120_000);
    });

    it('429: Remaining 0 and Retry-After is the real wait, rounded up to whole seconds (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      const t0 = t.clock.now();
      await getOptions(t, keys.alpha);
      t.clock.advance(12_300);
      await getOptions(t, keys.alpha);
      t.clock.advance(4_000); // t0 + 16.3 s: the oldest call leaves at t0 + 60 s, 43.7 s away
      const refused = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        json: JSON.stringify(ticket()),
      });
      expectLimited(refused, 2, t0 + 60_000, 44);
      t.clock.advance(43_699);
      expectLimited(await getOptions(t, keys.alpha), 2, t0 + 60_000, 1);
      t.clock.advance(1);
      expect((await getOptions(t, keys.alpha)).statusCode).toBe(200);
    });

    it('a 429 does not consume balance (docs/api-conventions.md)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      const t0 = t.clock.now();
      await getOptions(t, keys.alpha);
      await getOptions(t, keys.alpha);
      for (let i = 0; i < 50; i += 1) {
        t.clock.advance(1000);
        expect((await getOptions(t, keys.alpha)).statusCode).toBe(429);
      }
      t.clock.advance(10_000); // t0 + 60 s: both admitted calls leave; the 50 refusals never counted
      expectRate(await getOptions(t, keys.alpha), 2, 1, t.clock.now() + 60_000);
      expectRate(await getOptions(t, keys.alpha), 2, 0, t0 + 120_000);
    });
  });

  describe('what counts', () => {
    it('OPTIONS counts (Method handling; Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const t0 = t.clock.now();
      expectRate(
        await publicRequest(t, { method: 'OPTIONS', url: TICKET_URL, key: keys.alpha }),
        120,
        119,
        t0 + 60_000,
      );
      expectRate(
        await publicRequest(t, { method: 'OPTIONS', url: webhookUrl('alpha'), key: keys.alpha }),
        120,
        118,
        t0 + 60_000,
      );
      expectRate(await getOptions(t, keys.alpha), 120, 117, t0 + 60_000);
    });

    it('405, 404, 413, 415, invalid_body, conflicting_credentials and 503 are not counted and carry no X-RateLimit-* (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const refusals: [number, PublicRequest][] = [
        [405, { method: 'DELETE', url: TICKET_URL, key: keys.alpha }],
        [405, { method: 'HEAD', url: OPTIONS_URL, key: keys.alpha }],
        [404, { url: `${OPTIONS_URL}/`, key: keys.alpha }],
        [404, { method: 'POST', url: webhookUrl('Alpha'), key: keys.alpha, json: '{}' }],
        [413, { method: 'POST', url: TICKET_URL, key: keys.alpha, json: ' '.repeat(65_537) }],
        [413, { method: 'POST', url: webhookUrl('alpha'), key: keys.alpha, json: ' '.repeat(65_537) }],
        [415, { method: 'POST', url: TICKET_URL, key: keys.alpha, type: 'text/plain', payload: '{}' }],
        [422, { method: 'POST', url: TICKET_URL, key: keys.alpha, json: '[]' }],
        [400, { url: OPTIONS_URL, key: keys.alpha, headers: { 'api-token': 'x' } }],
      ];
      for (const [status, options] of refusals) {
        const response = await publicRequest(t, options);
        expect(response.statusCode, JSON.stringify(options.url)).toBe(status);
        expectNoRateHeaders(response);
      }
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true });
      expectNoRateHeaders(await getOptions(t, keys.alpha));
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      expectRate(await getOptions(t, keys.alpha), 120, 119, t.clock.now() + 60_000);
    });

    it('system_inactive is not counted (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { active: false });
      for (let i = 0; i < 3; i += 1) expectNoRateHeaders(await getOptions(t, keys.alpha));
      await putSystem(t, 'alpha', HD_SCOPES, { active: true });
      expect((await getOptions(t, keys.alpha)).headers['x-ratelimit-remaining']).toBe('119');
    });

    it('after the check everything counts: forbidden_scope, field 422, webhook 400 and 422, 501 (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const t0 = t.clock.now();
      const counted: [number, PublicRequest][] = [
        [403, { url: LEAD_URL, method: 'POST', key: keys.alpha, json: '{"external_id":"l"}' }],
        [
          422,
          {
            url: TICKET_URL,
            method: 'POST',
            key: keys.alpha,
            json: JSON.stringify(ticket({ company: 'x' })),
          },
        ],
        [400, { url: webhookUrl('alpha'), method: 'POST', key: keys.alpha, json: '{' }],
        [422, { url: webhookUrl('alpha'), method: 'POST', key: keys.alpha, json: '[]' }],
      ];
      let remaining = 120;
      for (const [status, options] of counted) {
        const response = await publicRequest(t, options);
        expect(response.statusCode, response.body).toBe(status);
        remaining -= 1;
        expectRate(response, 120, remaining, t0 + 60_000);
      }
      const planned = await publicRequest(t, {
        url: LEAD_URL,
        method: 'POST',
        key: keys.beta,
        json: '{"external_id":"l"}',
      });
      expect(planned.statusCode).toBe(501);
      expectRate(planned, 120, 119, t0 + 60_000);
    });

    it('previous and current key spend the same balance (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 3 });
      const t0 = t.clock.now();
      expectRate(await getOptions(t, keys.alpha), 3, 2, t0 + 60_000);
      const rotated = json(await t.admin('POST', '/admin/v1/helpdesk/systems/alpha/keys/rotate')) as {
        key: string;
      };
      expectRate(await getOptions(t, rotated.key), 3, 1, t0 + 60_000);
      expectRate(await getOptions(t, keys.alpha), 3, 0, t0 + 60_000);
      expectLimited(await getOptions(t, rotated.key), 3, t0 + 60_000, 60);
      expectLimited(await getOptions(t, keys.alpha), 3, t0 + 60_000, 60);
    });

    it('all routes of a system spend one balance: options, ticket, webhook (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 3 });
      expect((await getOptions(t, keys.alpha)).statusCode).toBe(200);
      const viaTicket = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        json: JSON.stringify(ticket()),
      });
      expect(viaTicket.statusCode).toBe(201);
      const viaWebhook = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        json: JSON.stringify(ticket({ external_id: 'ext-2' })),
      });
      expect(viaWebhook.statusCode).toBe(201);
      expect(viaWebhook.headers['x-ratelimit-remaining']).toBe('0');
      const refused = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        json: JSON.stringify(ticket({ external_id: 'ext-3' })),
      });
      expect(refused.statusCode).toBe(429);
      // The refused ticket was not opened: the client resends it later with the same external_id.
      const listed = json(await t.admin('GET', '/admin/v1/helpdesk/tickets'));
      expect((listed.data as unknown[]).length).toBe(2);
    });
  });
});
