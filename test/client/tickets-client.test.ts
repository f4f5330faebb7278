import { describe, expect, it } from 'vitest';
import {
  ApiError,
  createTicketsClient,
  TicketNotAcknowledgedError,
  type TicketsClientOptions,
} from '../../packages/client/src/index.js';
import { DEMO_SYSTEM } from '../../src/helpdesk/demo.js';
import { describeEachDialect } from '../helper.js';
import { useLiveApp, type LiveApp } from './live-app.js';

// The typed client of the ticket API against the real app (docs/ticket-api.md: Endpoints, Errors,
// Limits): the retry contract (wait Retry-After, resend the same external_id, never drop a ticket on
// 503), the options cache and its refetch rule, typed warnings and refusals, the rate-limit headers.

const OPTIONS = '/v1/api-external-system/help-desk-ticket-options';
const TICKET = '/v1/api-external-system/help-desk-ticket';

function client(live: LiveApp, options: Partial<TicketsClientOptions> = {}) {
  return createTicketsClient({
    baseUrl: live.baseUrl,
    key: live.keys.helpDesk,
    fetch: live.fetch,
    sleep: (ms) => live.sleep(ms),
    now: () => live.t.clock.now(),
    ...options,
  });
}

const ticket = (externalId: string, extra: Record<string, unknown> = {}) => ({
  external_id: externalId,
  company: 'acme',
  description: 'Terminal 3 does not print receipts.',
  ...extra,
});

describe('tickets client', () => {
  describeEachDialect('against the app', (dialect) => {
    const live = useLiveApp(dialect);

    it('opens a ticket (201, created) and the same external_id again answers the same ticket (200), with the rate-limit headers', async () => {
      const tickets = client(live);
      const first = await tickets.createTicket(ticket('c-1'));
      // The ticket itself is returned; the answer's facts ride along, out of its keys and its JSON.
      expect(first).toMatchObject({ duplicate: false, warnings: [] });
      expect(first.ticket).toMatch(/^I-/);
      expect(first.lastResponse).toMatchObject({ status: 201, created: true, attempts: 1 });
      expect(first.lastResponse.rateLimit).toEqual({ limit: 120, remaining: 119, reset: expect.any(Number) });
      expect(first.lastResponse.requestId).toEqual(expect.any(String));
      expect(first.lastResponse.headers.get('x-request-id')).toBe(first.lastResponse.requestId);
      expect(Object.keys(first)).not.toContain('lastResponse');
      expect(JSON.parse(JSON.stringify(first))).not.toHaveProperty('lastResponse');
      expect({ ...first }).not.toHaveProperty('lastResponse');
      const again = await tickets.createTicketByWebhook(DEMO_SYSTEM, ticket('c-1'));
      expect(again).toMatchObject({ id: first.id, duplicate: true });
      expect(again.lastResponse).toMatchObject({ status: 200, created: false });
    });

    it('keeps the options and fetches them again after category_fallback (Endpoints: options)', async () => {
      const tickets = client(live);
      const options = await tickets.options();
      expect(options.companies.map((c) => c.id)).toContain('acme');
      expect(options.lastResponse.status).toBe(200);
      // From the cache: the same object, with the facts of the answer that filled it.
      expect(await tickets.options()).toBe(options);
      expect(live.calls.filter((path) => path === OPTIONS)).toHaveLength(1);
      const opened = await tickets.createTicket(ticket('c-2', { category: 999 }));
      expect(opened.warnings.map((w) => w.code)).toContain('category_fallback');
      await tickets.options();
      expect(live.calls.filter((path) => path === OPTIONS)).toHaveLength(2);
      // And after the cache's age, also without a warning.
      live.t.clock.advance(3 * 3_600_000);
      await tickets.options();
      expect(live.calls.filter((path) => path === OPTIONS)).toHaveLength(3);
    });

    it('drops the options on invalid_nature, and the refusal is typed: status, code, param, kind', async () => {
      const tickets = client(live);
      await tickets.options();
      const refused = await tickets
        .createTicket(ticket('c-3', { nature: 'no-such-nature' }))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({
        status: 422,
        code: 'invalid_nature',
        param: 'nature',
        kind: 'invalid_input',
      });
      expect((refused as ApiError).requestId).toEqual(expect.any(String));
      await tickets.options();
      expect(live.calls.filter((path) => path === OPTIONS)).toHaveLength(2);
    });

    it('on 429 waits Retry-After and resends the same external_id: one ticket (Limits)', async () => {
      await live.t.admin('PUT', `/admin/v1/helpdesk/systems/${DEMO_SYSTEM}`, {
        name: 'Demo partner system',
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: 2,
        default_category_id: 30,
        released_category_ids: [10],
      });
      const tickets = client(live);
      await tickets.createTicket(ticket('r-1'));
      await tickets.createTicket(ticket('r-2'));
      const third = await tickets.createTicket(ticket('r-3'));
      expect(third.lastResponse).toMatchObject({ created: true, attempts: 2 });
      expect(live.waits).toHaveLength(1);
      expect(live.waits[0]).toBeGreaterThan(0);
      expect(live.waits[0]).toBeLessThanOrEqual(60_000);
      expect(live.calls.filter((path) => path === TICKET)).toHaveLength(4);
    });

    it('on 503 it waits and resends; after the attempts it throws TicketNotAcknowledgedError, never drops the ticket (Errors, 503)', async () => {
      await live.t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 30 });
      const tickets = client(live, { retry: { attempts: 3 } });
      const failed = await tickets.createTicket(ticket('m-1')).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(TicketNotAcknowledgedError);
      expect(failed).toMatchObject({ externalId: 'm-1', attempts: 3, retryAfter: 30 });
      expect((failed as TicketNotAcknowledgedError).lastError).toMatchObject({
        status: 503,
        code: 'temporarily_unavailable',
        kind: 'unavailable',
      });
      expect((failed as Error).message).toContain('resend it later with the same external_id');
      expect(live.waits).toEqual([30_000, 30_000]);

      // The maintenance ends during the second wait: the ticket goes through on the third attempt.
      live.waits.length = 0;
      const patient = client(live, {
        retry: { attempts: 3 },
        sleep: async (ms) => {
          await live.sleep(ms);
          if (live.waits.length === 2) {
            await live.t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
          }
        },
      });
      const sent = await patient.createTicket(ticket('m-1'));
      expect(sent.lastResponse).toMatchObject({ created: true, status: 201, attempts: 3 });
    });

    it('a Retry-After longer than maxWaitSeconds is not waited: the ticket is handed back at once', async () => {
      await live.t.admin('PUT', '/admin/v1/helpdesk/maintenance', {
        enabled: true,
        retry_after_seconds: 600,
      });
      const failed = await client(live)
        .createTicket(ticket('m-2'))
        .catch((e: unknown) => e);
      expect(failed).toMatchObject({ name: 'TicketNotAcknowledgedError', attempts: 1, retryAfter: 600 });
      expect(live.waits).toEqual([]);
    });

    it('a refusal of the key is an ApiError, not a ticket to resend (Errors, 401)', async () => {
      const refused = await client(live, { key: 'gtes_' + 'x'.repeat(43) })
        .createTicket(ticket('k-1'))
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({
        status: 401,
        code: 'unauthorized',
        kind: 'unauthorized',
        rateLimit: null,
      });
    });
  });
});
