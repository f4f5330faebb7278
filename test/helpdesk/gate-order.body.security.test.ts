import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectApiProblem as expectProblem, expectNoRateHeaders } from '../expect-http.js';
import { publicRequest } from '../request.js';
import {
  BODY_LIMIT,
  chunked,
  INVALID_UTF8,
  LEAD_URL,
  OPTIONS_URL,
  remainingAfterOneMore,
  seedHelpdesk,
  ticket,
  ticketOfBytes,
  ticketPaddedWithSpaces,
  TICKET_URL,
  webhookUrl,
} from './fixtures.js';

// The body gates of the ticket API before the key (helpdesk-ticket-api.md, POST ticket; Errors, 413, 415 and
// 422 invalid_body): 65,536 bytes as sent, a lowercase JSON Content-Type on the ticket and lead routes, and
// a JSON object. None is counted.

describeEachDialect('ticket API, body size, type and shape', (dialect) => {
  const t = useTestApp(dialect);

  describe('413 payload_too_large', () => {
    it('ticket: 65,536 bytes as sent pass, 65,537 get 413 before the key (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      const fits = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketPaddedWithSpaces(BODY_LIMIT),
      });
      expect(fits.statusCode, fits.body).toBe(201);
      const over = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        type: 'application/json',
        payload: ticketPaddedWithSpaces(BODY_LIMIT + 1),
      });
      expectProblem(over, 413, 'payload_too_large');
      expectNoRateHeaders(over);
    });

    it('413 counts bytes, not characters: emoji (4 bytes) and accents (2 bytes) (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      // About 16,380 emoji: far fewer than 65,536 characters, and within the 20,000 of `description`.
      const fits = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT, '😀'),
      });
      expect(fits.statusCode, fits.body).toBe(201);
      for (const unit of ['😀', 'é']) {
        const over = await publicRequest(t, {
          method: 'POST',
          url: TICKET_URL,
          key: keys.alpha,
          type: 'application/json',
          payload: ticketOfBytes(BODY_LIMIT + 1, unit, 'big-2'),
        });
        expectProblem(over, 413, 'payload_too_large');
      }
    });

    it('413 counts JSON unicode escapes as sent: \\u00e9 costs 6 bytes, an escaped emoji 12 (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      const over = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT + 1, '\\ud83d\\ude00'),
      });
      expectProblem(over, 413, 'payload_too_large');
      const fits = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT, '\\u00e9'),
      });
      expect(fits.statusCode, fits.body).toBe(201);
    });

    it('413 for a chunked body without Content-Length as soon as it passes the limit (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      const over = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: chunked(ticketOfBytes(BODY_LIMIT + 1, 'x')),
      });
      expectProblem(over, 413, 'payload_too_large');
      expectNoRateHeaders(over);
      const fits = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: chunked(ticketOfBytes(BODY_LIMIT, '😀')),
      });
      expect(fits.statusCode, fits.body).toBe(201);
    });

    it('413 on every route, webhook and lead included, not counted (Errors, 413; Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const big = ticketOfBytes(BODY_LIMIT + 1, 'x');
      for (const url of [TICKET_URL, webhookUrl('alpha'), LEAD_URL]) {
        const response = await publicRequest(t, {
          method: 'POST',
          url,
          key: keys.alpha,
          type: 'application/json',
          payload: big,
        });
        expectProblem(response, 413, 'payload_too_large');
        expectNoRateHeaders(response);
      }
      for (const [method, url] of [
        ['GET', OPTIONS_URL],
        ['OPTIONS', TICKET_URL],
      ] as const) {
        const response = await publicRequest(t, {
          method,
          url,
          key: keys.alpha,
          type: 'application/json',
          payload: big,
        });
        expectProblem(response, 413, 'payload_too_large');
      }
      const chunkedWebhook = await publicRequest(t, {
        method: 'POST',
        url: webhookUrl('alpha'),
        key: keys.alpha,
        type: 'text/plain',
        payload: chunked(big),
      });
      expectProblem(chunkedWebhook, 413, 'payload_too_large');
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });
  });

  describe('415 unsupported_media_type', () => {
    for (const [label, type] of [
      ['missing type', undefined],
      ['Application/JSON', 'Application/JSON'],
      ['APPLICATION/JSON', 'APPLICATION/JSON'],
      ['text/plain', 'text/plain'],
      ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
      ['text/json', 'text/json'],
      ['application/json with another charset', 'application/json; charset=iso-8859-1'],
    ] as const) {
      it(`ticket and lead: ${label} gets 415 before the key (POST ticket; Errors, 415)`, async () => {
        await seedHelpdesk(t);
        for (const url of [TICKET_URL, LEAD_URL]) {
          const response = await publicRequest(t, {
            method: 'POST',
            url,
            type,
            payload: JSON.stringify(ticket()),
          });
          expectProblem(response, 415, 'unsupported_media_type');
          expectNoRateHeaders(response);
        }
      });
    }

    for (const type of ['', 'json', '/']) {
      it(`ticket: an empty or malformed Content-Type (${JSON.stringify(type)}) gets 415 unsupported_media_type, not a framework 500 (POST ticket; Errors, 415)`, async () => {
        await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url: TICKET_URL,
          type,
          payload: JSON.stringify(ticket()),
        });
        expectProblem(response, 415, 'unsupported_media_type');
      });
    }

    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=utf-8',
      'application/vnd.x+json',
      'application/problem+json; charset=utf-8',
    ]) {
      it(`ticket: ${type} is accepted (POST ticket)`, async () => {
        const keys = await seedHelpdesk(t);
        const response = await publicRequest(t, {
          method: 'POST',
          url: TICKET_URL,
          key: keys.alpha,
          type,
          payload: JSON.stringify(ticket()),
        });
        expect(response.statusCode, response.body).toBe(201);
      });
    }

    it('415: with a valid key, not counted (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'text/plain',
        payload: JSON.stringify(ticket()),
      });
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });

    it('the options route has no body rule: GET without Content-Type is fine (POST ticket, 415 for ticket and lead only)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'GET',
        url: OPTIONS_URL,
        key: keys.alpha,
        type: 'text/plain',
      });
      expect(response.statusCode).toBe(200);
    });
  });

  describe('422 invalid_body on the JSON routes', () => {
    const bodies: [string, string | Buffer][] = [
      ['broken JSON', '{"external_id": "x",'],
      ['invalid UTF-8 bytes', INVALID_UTF8],
      ['a list', JSON.stringify([ticket()])],
      ['a string', '"ticket"'],
      ['a number', '42'],
      ['true', 'true'],
      ['null', 'null'],
      ['an empty body', ''],
      ['two objects', '{}{}'],
    ];
    for (const [label, payload] of bodies) {
      it(`ticket and lead: ${label} gets 422 invalid_body before the key, without param or X-RateLimit-* (Errors, 422 invalid_body)`, async () => {
        await seedHelpdesk(t);
        for (const url of [TICKET_URL, LEAD_URL]) {
          const response = await publicRequest(t, { method: 'POST', url, type: 'application/json', payload });
          const body = expectProblem(response, 422, 'invalid_body');
          expect(body).not.toHaveProperty('param');
          expectNoRateHeaders(response);
        }
      });
    }

    it('invalid_body: with a valid key, not counted (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '[]',
      });
      expectProblem(response, 422, 'invalid_body');
      expectNoRateHeaders(response);
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });
  });
});
