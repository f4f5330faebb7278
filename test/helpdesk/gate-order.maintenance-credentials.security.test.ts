import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import {
  expectApiProblem as expectProblem,
  expectNoRateHeaders,
  expectRateHeaders,
  FOREIGN_HEADERS,
} from '../expect-http.js';
import { publicRequest } from '../request.js';
import {
  getOptions,
  LEAD_URL,
  OPTIONS_URL,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  webhookUrl,
} from './fixtures.js';

// The first two gates of the ticket API (helpdesk-ticket-api.md, Authentication: "Order in which problems
// are answered"; Errors, 503 and 400; DECISIONS, Both APIs and Ticket API): the maintenance switch answers
// 503 before anything else, then another system's credential header 400. Neither is counted.

describeEachDialect('ticket API, maintenance and foreign credentials', (dialect) => {
  const t = useTestApp(dialect);

  describe('503 temporarily_unavailable', () => {
    it('maintenance: every route answers 503 with Retry-After before any other check (Errors, 503)', async () => {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 120 });
      const calls = [
        getOptions(t, keys.alpha),
        publicRequest(t, {
          method: 'POST',
          url: TICKET_URL,
          key: keys.alpha,
          type: 'application/json',
          payload: JSON.stringify(ticket()),
        }),
        publicRequest(t, {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          payload: JSON.stringify(ticket()),
        }),
        publicRequest(t, {
          method: 'POST',
          url: LEAD_URL,
          key: keys.beta,
          type: 'application/json',
          payload: '{"external_id":"l-1"}',
        }),
        publicRequest(t, { method: 'OPTIONS', url: TICKET_URL, key: keys.alpha }),
        getOptions(t),
      ];
      for (const response of await Promise.all(calls)) {
        expectProblem(response, 503, 'temporarily_unavailable');
        expect(response.headers['retry-after']).toBe('120');
        expectNoRateHeaders(response);
      }
    });

    it('maintenance: Retry-After defaults to 300 seconds and the API answers again once it is off (DECISIONS, Ticket API)', async () => {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true });
      const during = await getOptions(t, keys.alpha);
      expectProblem(during, 503, 'temporarily_unavailable');
      expect(during.headers['retry-after']).toBe('300');
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      const after = await getOptions(t, keys.alpha);
      expect(after.statusCode).toBe(200);
      // The 503 did not spend the balance (Limits: responses before the check are not counted).
      expectRateHeaders(after, 120, 119);
    });
  });

  describe('400 conflicting_credentials', () => {
    for (const name of FOREIGN_HEADERS) {
      for (const spelled of [name, name.toLowerCase(), name.toUpperCase()]) {
        it(`header ${spelled}: 400 conflicting_credentials even with a valid key, not counted (Authentication; Errors, 400)`, async () => {
          const keys = await seedHelpdesk(t);
          const response = await publicRequest(t, {
            method: 'GET',
            url: OPTIONS_URL,
            key: keys.alpha,
            headers: { [spelled]: 'whatever' },
          });
          expectProblem(response, 400, 'conflicting_credentials');
          expectNoRateHeaders(response);
          expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
        });
      }
    }

    it('conflicting_credentials: any value, even empty, and on every route (DECISIONS, Both APIs)', async () => {
      const keys = await seedHelpdesk(t);
      for (const [url, method] of [
        [TICKET_URL, 'POST'],
        [webhookUrl('alpha'), 'POST'],
        [LEAD_URL, 'POST'],
        [OPTIONS_URL, 'GET'],
      ] as const) {
        const response = await publicRequest(t, {
          method,
          url,
          key: keys.beta,
          type: 'application/json',
          payload: method === 'POST' ? JSON.stringify(ticket()) : undefined,
          headers: { 'api-token': '' },
        });
        expectProblem(response, 400, 'conflicting_credentials');
      }
    });

    it('a header of this API only (Authorization, X-Request-Id) is not a conflicting credential', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'GET',
        url: OPTIONS_URL,
        key: keys.alpha,
        headers: { 'x-api-key': 'x', 'x-request-id': 'mine' },
      });
      expect(response.statusCode).toBe(200);
    });
  });
});
