import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import {
  expectApiProblem as expectProblem,
  expectNoRateHeaders,
  PROBLEM_TYPE,
  UUID,
} from '../expect-http.js';
import { publicRequest } from '../request.js';
import {
  LEAD_URL,
  OPTIONS_URL,
  PREFIX,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  webhookUrl,
} from './fixtures.js';

// The route and method gates of the ticket API (helpdesk-ticket-api.md, Endpoints; Method handling; Errors,
// 404 and 405): a path that names no route, the webhook's {system} pattern, other versions, the HTML 404
// outside the prefix, and 405 with Allow. All before the key, none counted.

describeEachDialect('ticket API, routes and methods', (dialect) => {
  const t = useTestApp(dialect);

  describe('404 not_found', () => {
    const notRoutes = [
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
    for (const url of notRoutes) {
      it(`${url}: 404 not_found with X-Request-Id, before the key (Errors, 404)`, async () => {
        await seedHelpdesk(t);
        const response = await publicRequest(t, { method: 'GET', url });
        expectProblem(response, 404, 'not_found');
        expectNoRateHeaders(response);
      });
    }

    const outsidePattern = [
      'Alpha',
      'ALPHA',
      'a'.repeat(41),
      'al.pha',
      'al%20pha',
      'alpha%2F',
      'ção',
      'al+pha',
    ];
    for (const system of outsidePattern) {
      it(`webhook/${system}: {system} outside ^[a-z0-9_-]{1,40}$ is not a route, 404 even with a key (POST webhook)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url: `${PREFIX}webhook/${system}`,
          key: keys.alpha,
          payload: JSON.stringify(ticket()),
        });
        expectProblem(response, 404, 'not_found');
        expectNoRateHeaders(response);
      });
    }

    it('webhook: an identifier inside the pattern (40 characters, digits, - and _) is a route, so an unknown one is 401 (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      for (const system of ['a'.repeat(40), '0', 'a-b_c', '-', '_']) {
        const response = await publicRequest(t, {
          method: 'POST',
          url: webhookUrl(system),
          key: keys.alpha,
          payload: '{}',
        });
        expectProblem(response, 401, 'unauthorized');
      }
    });

    for (const url of [
      '/v2/api-external-system/help-desk-ticket',
      '/v0/api-external-system/help-desk-ticket-options',
      '/v1.1/api-external-system/lead',
      '/api-external-system/help-desk-ticket',
      '/api-external-system/webhook/alpha',
      '/v2/api-external-system/',
    ]) {
      it(`${url}: a path of this API in another or no version gets the JSON 404 with X-Request-Id (Endpoints; Errors, 404)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          key: keys.alpha,
          type: 'application/json',
          payload: '{}',
        });
        expectProblem(response, 404, 'not_found');
        expectNoRateHeaders(response);
      });
    }

    for (const url of [
      '/v1/api-external-system',
      '/v1/api-external-systems/help-desk-ticket',
      '/v1/help-desk-ticket',
      '/',
      '/help-desk-ticket',
    ]) {
      it(`${url}: a path outside the prefix gets the HTML 404 without X-Request-Id (Errors, 404 HTML page)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          key: keys.alpha,
          type: 'application/json',
          payload: '{}',
        });
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['x-request-id']).toBeUndefined();
        expectNoRateHeaders(response);
        expect(response.body).toMatch(/<html/i);
      });
    }

    it('404: does not count toward the rate limit (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await publicRequest(t, { method: 'GET', url: `${OPTIONS_URL}/`, key: keys.alpha });
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });
  });

  describe('405 method_not_allowed', () => {
    const wrong: [string, string, string][] = [
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
    for (const [url, method, allow] of wrong) {
      it(`${method} ${url}: 405 with Allow, before the key (Method handling)`, async () => {
        await seedHelpdesk(t);
        const response = await publicRequest(t, { method, url });
        expectProblem(response, 405, 'method_not_allowed');
        expect(response.headers.allow).toBe(allow);
        expectNoRateHeaders(response);
      });
    }

    it('HEAD on the GET route: 405 with Allow (Method handling)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, { method: 'HEAD', url: OPTIONS_URL, key: keys.alpha });
      expect(response.statusCode).toBe(405);
      expect(response.headers.allow).toBe('GET, OPTIONS');
      expect(response.headers['content-type']).toBe(PROBLEM_TYPE);
      expect(response.headers['x-request-id']).toMatch(UUID);
      expectNoRateHeaders(response);
    });

    for (const method of ['TRACE', 'PROPFIND', 'PURGE', 'QUERY']) {
      it(`${method} on a route: 405 with Allow, with or without Content-Type (Method handling)`, async () => {
        await seedHelpdesk(t);
        for (const type of [undefined, 'application/json']) {
          const response = await publicRequest(t, {
            method,
            url: TICKET_URL,
            type,
            payload: method === 'TRACE' ? undefined : '{}',
          });
          expectProblem(response, 405, 'method_not_allowed');
          expect(response.headers.allow).toBe('POST, OPTIONS');
        }
      });
    }

    it('405: with a valid key, not counted in the rate limit (Method handling)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, { method: 'DELETE', url: TICKET_URL, key: keys.alpha });
      expectProblem(response, 405, 'method_not_allowed');
      expectNoRateHeaders(response);
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });
  });
});
