import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectApiProblem as expectProblem, expectNoRateHeaders, expectRateHeaders } from '../expect-http.js';
import { publicRequest } from '../request.js';
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
} from './fixtures.js';

// The order in which the ticket API answers problems (helpdesk-ticket-api.md, Authentication: "Order in
// which problems are answered"; the webhook's own rules under POST webhook; Errors; Limits): pairs of
// gates that can both fire on one request, where the earlier one wins. gate-order.pair-table.security.test.ts
// derives every such pair from the exported gate array; these are the hand-written ones with their finer
// points (several bodies, the webhook, Allow and WWW-Authenticate left out).

describeEachDialect('ticket API, gate order', (dialect) => {
  const t = useTestApp(dialect);

  describe('pairs: the earlier gate wins', () => {
    it('maintenance + conflicting header: 503 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const response = await publicRequest(t, {
        method: 'GET',
        url: OPTIONS_URL,
        headers: { 'Account-Token': 'x' },
      });
      expectProblem(response, 503, 'temporarily_unavailable');
      expect(response.headers['retry-after']).toBe('60');
    });

    it('maintenance + unknown path, wrong method, oversized body, wrong type, broken body: 503 (DECISIONS, Ticket API)', async () => {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const responses = [
        await publicRequest(t, { method: 'GET', url: `${PREFIX}nope` }),
        await publicRequest(t, { method: 'DELETE', url: TICKET_URL }),
        await publicRequest(t, {
          method: 'POST',
          url: TICKET_URL,
          type: 'application/json',
          payload: ticketOfBytes(BODY_LIMIT + 1, 'x'),
        }),
        await publicRequest(t, { method: 'POST', url: TICKET_URL, type: 'text/plain', payload: '{}' }),
        await publicRequest(t, { method: 'POST', url: TICKET_URL, type: 'application/json', payload: '[' }),
        await getOptions(t, UNKNOWN_KEY),
        await publicRequest(t, {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          type: 'application/json',
          payload: '[',
        }),
      ];
      for (const response of responses) expectProblem(response, 503, 'temporarily_unavailable');
    });

    it('maintenance + malformed Content-Type: 503, not a framework error (DECISIONS, Ticket API)', async () => {
      await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const response = await publicRequest(t, { method: 'POST', url: TICKET_URL, type: '/', payload: '{}' });
      expectProblem(response, 503, 'temporarily_unavailable');
    });

    it('conflicting header + unknown path: 400 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [`${PREFIX}nope`, `${TICKET_URL}/`, `${PREFIX}webhook/ALPHA`]) {
        const response = await publicRequest(t, { method: 'GET', url, headers: { 'Producer-Token': 'x' } });
        expectProblem(response, 400, 'conflicting_credentials');
      }
    });

    it('conflicting header + wrong method: 400 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'DELETE',
        url: TICKET_URL,
        headers: { 'EventOrganizer-Host': 'x' },
      });
      expectProblem(response, 400, 'conflicting_credentials');
      expect(response.headers.allow).toBeUndefined();
    });

    it('conflicting header + oversized body, wrong type, broken body, no key: 400 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const headers = { 'Online-Catalog-Identifier': 'x' };
      for (const [type, payload] of [
        ['application/json', ticketOfBytes(BODY_LIMIT + 1, 'x')],
        ['text/plain', '{}'],
        ['application/json', '['],
      ] as const) {
        const response = await publicRequest(t, { method: 'POST', url: TICKET_URL, type, payload, headers });
        expectProblem(response, 400, 'conflicting_credentials');
      }
    });

    it('404 + wrong method: 404 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [`${TICKET_URL}/`, `${PREFIX}webhook/Alpha`, `${PREFIX}nope`]) {
        const response = await publicRequest(t, { method: 'DELETE', url });
        expectProblem(response, 404, 'not_found');
        expect(response.headers.allow).toBeUndefined();
      }
    });

    it('404 + oversized body, wrong type, broken body: 404 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const [type, payload] of [
        ['application/json', ticketOfBytes(BODY_LIMIT + 1, 'x')],
        ['text/plain', '{}'],
        ['application/json', '['],
      ] as const) {
        const response = await publicRequest(t, { method: 'POST', url: `${TICKET_URL}/`, type, payload });
        expectProblem(response, 404, 'not_found');
      }
    });

    it('405 + oversized body: 405 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'PUT',
        url: TICKET_URL,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT + 1, 'x'),
      });
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('POST, OPTIONS');
    });

    it('405 + wrong type, broken body, no key: 405 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const [type, payload] of [
        ['text/plain', '{}'],
        ['application/json', '['],
      ] as const) {
        const response = await publicRequest(t, { method: 'PATCH', url: LEAD_URL, type, payload });
        expectProblem(response, 405, 'method_not_allowed');
      }
    });

    it('413 + wrong type: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [TICKET_URL, LEAD_URL]) {
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          type: 'text/plain',
          payload: 'x'.repeat(BODY_LIMIT + 1),
        });
        expectProblem(response, 413, 'payload_too_large');
      }
    });

    it('413 + no Content-Type, chunked: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        payload: chunked('x'.repeat(BODY_LIMIT + 1)),
      });
      expectProblem(response, 413, 'payload_too_large');
    });

    it('413 + broken body, no key: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        type: 'application/json',
        payload: '['.repeat(BODY_LIMIT + 1),
      });
      expectProblem(response, 413, 'payload_too_large');
    });

    it('415 + broken JSON: 415 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [TICKET_URL, LEAD_URL]) {
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          type: 'text/plain',
          payload: '{broken',
        });
        expectProblem(response, 415, 'unsupported_media_type');
      }
    });

    it('415 + no key: 415 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: 'not a key',
        type: 'text/plain',
        payload: '{}',
      });
      expectProblem(response, 415, 'unsupported_media_type');
      expect(response.headers['www-authenticate']).toBeUndefined();
    });

    it('invalid_body + no key: 422 invalid_body (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [TICKET_URL, LEAD_URL]) {
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          key: UNKNOWN_KEY,
          type: 'application/json',
          payload: '[]',
        });
        expectProblem(response, 422, 'invalid_body');
        expect(response.headers['www-authenticate']).toBeUndefined();
      }
    });

    it('invalid_body + lead without lead.create: 422 invalid_body (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: LEAD_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '"x"',
      });
      expectProblem(response, 422, 'invalid_body');
    });

    it('invalid_body + inactive system: 422 invalid_body (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { active: false });
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '1',
      });
      expectProblem(response, 422, 'invalid_body');
    });

    it('pre-key problems come before the IP block: a blocked IP still gets 405 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) await getOptions(t, UNKNOWN_KEY);
      const response = await publicRequest(t, { method: 'DELETE', url: TICKET_URL });
      expectProblem(response, 405, 'method_not_allowed');
    });

    it('401 + IP block: 429 rate_limited without X-RateLimit-* (Limits, IP block)', async () => {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) {
        expectProblem(await getOptions(t, UNKNOWN_KEY), 401, 'unauthorized');
      }
      const response = await getOptions(t, UNKNOWN_KEY);
      expectProblem(response, 429, 'rate_limited');
      expect(response.headers['retry-after']).toBe('60');
      expect(response.headers['www-authenticate']).toBeUndefined();
      expectNoRateHeaders(response);
    });

    it("webhook: another system's key + that system inactive: 401 (POST webhook)", async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'beta', ['help-desk-ticket.create', 'lead.create'], { active: false });
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.beta,
        payload: JSON.stringify(ticket()),
      });
      expectProblem(response, 401, 'unauthorized');
    });

    it('401 + webhook body shape: 401 (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('beta'),
        key: keys.alpha,
        type: 'application/json',
        payload: '[',
      });
      expectProblem(response, 401, 'unauthorized');
    });

    it('system_inactive + rate exhausted: 403 without rate headers (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2 });
      await exhaust(t, keys.alpha, 2);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 2, active: false });
      const response = await getOptions(t, keys.alpha);
      expectProblem(response, 403, 'system_inactive');
      expectNoRateHeaders(response);
      expect(response.headers['retry-after']).toBeUndefined();
    });

    it('system_inactive + forbidden_scope: 403 system_inactive without required_scope (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'gamma', ['lead.create'], { active: false });
      const response = await getOptions(t, keys.gamma);
      const body = expectProblem(response, 403, 'system_inactive');
      expect(body).not.toHaveProperty('required_scope');
      expectNoRateHeaders(response);
    });

    it('system_inactive + webhook body shape or field 422: 403 system_inactive (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { active: false });
      for (const [url, payload] of [
        [webhookUrl('alpha'), '['],
        [TICKET_URL, JSON.stringify(ticket({ company: 'nowhere' }))],
      ] as const) {
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          key: keys.alpha,
          type: 'application/json',
          payload,
        });
        expectProblem(response, 403, 'system_inactive');
      }
    });

    it('rate 429 + forbidden_scope: 429 with rate headers (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'gamma', ['lead.create'], { rate_limit_per_minute: 1 });
      const first = await getOptions(t, keys.gamma);
      expectProblem(first, 403, 'forbidden_scope');
      expectRateHeaders(first, 1, 0);
      const second = await getOptions(t, keys.gamma);
      const body = expectProblem(second, 429, 'rate_limited');
      expect(body).not.toHaveProperty('required_scope');
      expectRateHeaders(second, 1, 0);
    });

    it('rate 429 + webhook body shape: 429 (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 1 });
      await exhaust(t, keys.alpha, 1);
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        type: 'application/json',
        payload: '[',
      });
      expectProblem(response, 429, 'rate_limited');
      expectRateHeaders(response, 1, 0);
    });

    it('rate 429 + field 422: 429 (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD_SCOPES, { rate_limit_per_minute: 1 });
      await exhaust(t, keys.alpha, 1);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket({ external_id: '' })),
      });
      expectProblem(response, 429, 'rate_limited');
    });

    it('forbidden_scope + field 422: 403 forbidden_scope (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: JSON.stringify(ticket({ company: 'nowhere', external_id: '' })),
      });
      const body = expectProblem(response, 403, 'forbidden_scope');
      expect(body.required_scope).toBe('help-desk-ticket.create');
      expect(body).not.toHaveProperty('param');
      expectRateHeaders(response, 120, 119);
    });

    it('forbidden_scope + webhook body shape: 403 forbidden_scope (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('gamma'),
        key: keys.gamma,
        type: 'application/json',
        payload: '[',
      });
      const body = expectProblem(response, 403, 'forbidden_scope');
      expect(body.required_scope).toBe('help-desk-ticket.create');
    });

    it('forbidden_scope + lead field 422: 403 forbidden_scope with required_scope lead.create (POST lead)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: LEAD_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '{}',
      });
      const body = expectProblem(response, 403, 'forbidden_scope');
      expect(body.required_scope).toBe('lead.create');
    });

    it('lead: field 422 comes before 501, with X-RateLimit-* (POST lead)', async () => {
      const keys = await seedHelpdesk(t);
      const missing = await publicRequest(t, {
        method: 'POST',
        url: LEAD_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: '{}',
      });
      const body = expectProblem(missing, 422, 'missing_external_id');
      expect(body.param).toBe('external_id');
      expectRateHeaders(missing, 120, 119);
      const planned = await publicRequest(t, {
        method: 'POST',
        url: LEAD_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: '{"external_id":"l-1"}',
      });
      expectProblem(planned, 501, 'not_implemented');
      expectRateHeaders(planned, 120, 118);
    });
  });
});
