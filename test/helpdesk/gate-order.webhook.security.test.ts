import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectApiProblem as expectProblem, expectNoRateHeaders, expectRateHeaders } from '../expect-http.js';
import { publicRequest } from '../request.js';
import { BODY_LIMIT, INVALID_UTF8, seedHelpdesk, ticket, ticketOfBytes, webhookUrl } from './fixtures.js';

// The webhook's own rules (helpdesk-ticket-api.md, POST webhook; Errors, 413 and 400): any Content-Type,
// and the body's shape checked only after the key and the rate check, so with X-RateLimit-*.

describeEachDialect('ticket API, webhook body rules', (dialect) => {
  const t = useTestApp(dialect);

  describe("webhook's own order", () => {
    it('webhook: 413 comes before the key (Errors, 413)', async () => {
      await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        type: 'text/plain',
        payload: ticketOfBytes(BODY_LIMIT + 1, 'x'),
      });
      expectProblem(response, 413, 'payload_too_large');
      expectNoRateHeaders(response);
    });

    for (const type of [
      undefined,
      'text/plain',
      'Application/JSON',
      'application/x-www-form-urlencoded',
      'application/octet-stream',
    ]) {
      it(`webhook: any Content-Type is accepted, no 415 (${type ?? 'none'}) (POST webhook)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          type,
          payload: JSON.stringify(ticket()),
        });
        expect(response.statusCode, response.body).toBe(201);
      });
    }

    for (const type of ['', 'json']) {
      it(`webhook: an empty or malformed Content-Type (${JSON.stringify(type)}) is accepted too, no 415 nor 500 (POST webhook)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url: webhookUrl('alpha'),
          key: keys.alpha,
          type,
          payload: JSON.stringify(ticket()),
        });
        expect(response.statusCode, response.body).toBe(201);
      });
    }

    it('webhook: the body shape is checked only after the key: a broken body without key is 401 (POST webhook)', async () => {
      await seedHelpdesk(t);
      for (const [type, payload] of [
        ['application/json', '{broken'],
        ['application/json', '[]'],
        ['text/plain', 'hello'],
      ] as const) {
        const response = await publicRequest(t, { method: 'POST', url: webhookUrl('alpha'), type, payload });
        expectProblem(response, 401, 'unauthorized');
        expect(response.headers['www-authenticate']).toBe('Bearer');
        expectNoRateHeaders(response);
      }
    });

    const serverLevel: [string, string | Buffer][] = [
      ['broken JSON', '{"external_id": '],
      ['invalid UTF-8', INVALID_UTF8],
      ['a string', '"ticket"'],
      ['a number', '12'],
      ['true', 'true'],
      ['null', 'null'],
      ['an empty body', ''],
    ];
    for (const [label, payload] of serverLevel) {
      for (const type of [
        'application/json',
        'application/json; charset=utf-8',
        'application/vnd.partner+json',
      ]) {
        it(`webhook: ${label} under ${type} gets 400 WITHOUT code, with X-RateLimit-* (POST webhook; Errors, 400)`, async () => {
          const keys = await seedHelpdesk(t);
          const response = await publicRequest(t, {
            method: 'POST',
            url: webhookUrl('alpha'),
            key: keys.alpha,
            type,
            payload,
          });
          expectProblem(response, 400, null);
          expectRateHeaders(response, 120, 119);
        });
      }
    }

    it('webhook: a JSON list under a JSON type gets 422 invalid_body with X-RateLimit-* (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify([ticket()]),
      });
      const body = expectProblem(response, 422, 'invalid_body');
      expect(body).not.toHaveProperty('param');
      expectRateHeaders(response, 120, 119);
    });

    const otherType: [string, string | Buffer][] = [
      ['broken JSON', '{"external_id": '],
      ['invalid UTF-8', INVALID_UTF8],
      ['a list', '[]'],
      ['a string', '"ticket"'],
      ['null', 'null'],
      ['plain text', 'please open a ticket'],
    ];
    for (const [label, payload] of otherType) {
      for (const type of ['text/plain', undefined]) {
        it(`webhook: ${label} under ${type ?? 'no type'} gets 422 invalid_body with X-RateLimit-* (POST webhook)`, async () => {
          const keys = await seedHelpdesk(t);
          const response = await publicRequest(t, {
            method: 'POST',
            url: webhookUrl('alpha'),
            key: keys.alpha,
            type,
            payload,
          });
          expectProblem(response, 422, 'invalid_body');
          expectRateHeaders(response, 120, 119);
        });
      }
    }
  });
});
