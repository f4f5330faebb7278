import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import {
  expectApiProblem as expectProblem,
  expectNoRateHeaders,
  FOREIGN_HEADERS,
  PROBLEM_TYPE,
  UUID,
} from '../expect-http.js';
import {
  CATALOG,
  LEAD_URL,
  OPTIONS_URL,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  UNKNOWN_KEY,
  webhookUrl,
} from './fixtures.js';

// The order in which the ticket API answers problems (helpdesk-ticket-api.md, Authentication: "Order in
// which problems are answered"; the webhook's own rules under POST webhook; Errors; Limits): one test per
// gate, then one test per pair of gates that can both fire on one request, where the earlier one wins.

const PREFIX = '/v1/api-external-system/';
const BODY_LIMIT = 65_536;

/** A request to the public listener: key, type and raw payload as given, nothing added. */
function send(
  t: TestApp,
  options: {
    method?: InjectOptions['method'];
    url: string;
    key?: string;
    type?: string;
    payload?: InjectOptions['payload'];
    headers?: Record<string, string>;
  },
): Promise<LightMyRequestResponse> {
  return t.call({
    method: options.method ?? 'POST',
    url: options.url,
    headers: {
      ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
      ...(options.type === undefined ? {} : { 'content-type': options.type }),
      ...options.headers,
    },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
}

function expectRateHeaders(response: LightMyRequestResponse, limit: number, remaining: number) {
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(response.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
}

/** Rewrites a fixture system (PUT replaces every setting, so the fixture's values are repeated). */
function putSystem(t: TestApp, identifier: string, scopes: string[], settings: Record<string, unknown> = {}) {
  return t.admin('PUT', `/admin/v1/helpdesk/systems/${identifier}`, {
    name: identifier,
    scopes,
    default_category_id: CATALOG.defaultCategory,
    released_category_ids: [...CATALOG.released],
    ...settings,
  });
}

const HD = ['help-desk-ticket.create'];

/** The remaining balance of `alpha` as a fresh call sees it (that call spends one). */
async function remainingAfterOneMore(t: TestApp, key: string): Promise<string | undefined> {
  const response = await send(t, { method: 'GET', url: OPTIONS_URL, key });
  expect(response.statusCode).toBe(200);
  return response.headers['x-ratelimit-remaining'] as string | undefined;
}

/** Spends the whole balance of a system whose limit is `limit`. */
async function exhaust(t: TestApp, key: string, limit: number) {
  for (let i = 0; i < limit; i += 1) {
    expect((await send(t, { method: 'GET', url: OPTIONS_URL, key })).statusCode).toBe(200);
  }
}

/** A JSON ticket of exactly `bytes` bytes as sent, its description padded with `unit`. */
function ticketOfBytes(bytes: number, unit: string, externalId = 'big-1'): string {
  const base = JSON.stringify({ external_id: externalId, company: 'acme', description: '' });
  const room = bytes - Buffer.byteLength(base);
  const unitBytes = Buffer.byteLength(unit);
  const description = unit.repeat(Math.floor(room / unitBytes)) + 'a'.repeat(room % unitBytes);
  const text = `${base.slice(0, -2)}${description}"}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** A JSON ticket of exactly `bytes` bytes as sent, padded with JSON whitespace (bytes, no characters). */
function ticketPaddedWithSpaces(bytes: number): string {
  const base = JSON.stringify(ticket({ external_id: 'big-spaces' }));
  const text = `{${' '.repeat(bytes - Buffer.byteLength(base))}${base.slice(1)}`;
  expect(Buffer.byteLength(text)).toBe(bytes);
  return text;
}

/** A body streamed in chunks, without Content-Length (chunked transfer). */
function chunked(text: string, chunkBytes = 8192): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) chunks.push(bytes.subarray(at, at + chunkBytes));
  return Readable.from(chunks);
}

const INVALID_UTF8 = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"a":"\xff\xfe"}

describeEachDialect('ticket API, gate order', (dialect) => {
  const t = useTestApp(dialect);

  describe('503 temporarily_unavailable', () => {
    it('maintenance: every route answers 503 with Retry-After before any other check (Errors, 503)', async () => {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 120 });
      const calls = [
        send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha }),
        send(t, {
          url: TICKET_URL,
          key: keys.alpha,
          type: 'application/json',
          payload: JSON.stringify(ticket()),
        }),
        send(t, { url: webhookUrl('alpha'), key: keys.alpha, payload: JSON.stringify(ticket()) }),
        send(t, {
          url: LEAD_URL,
          key: keys.beta,
          type: 'application/json',
          payload: '{"external_id":"l-1"}',
        }),
        send(t, { method: 'OPTIONS', url: TICKET_URL, key: keys.alpha }),
        send(t, { method: 'GET', url: OPTIONS_URL }),
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
      const during = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha });
      expectProblem(during, 503, 'temporarily_unavailable');
      expect(during.headers['retry-after']).toBe('300');
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      const after = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha });
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
          const response = await send(t, {
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
        const response = await send(t, {
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
      const response = await send(t, {
        method: 'GET',
        url: OPTIONS_URL,
        key: keys.alpha,
        headers: { 'x-api-key': 'x', 'x-request-id': 'mine' },
      });
      expect(response.statusCode).toBe(200);
    });
  });

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
        const response = await send(t, { method: 'GET', url });
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
        const response = await send(t, {
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
        const response = await send(t, { url: webhookUrl(system), key: keys.alpha, payload: '{}' });
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
        const response = await send(t, { url, key: keys.alpha, type: 'application/json', payload: '{}' });
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
        const response = await send(t, { url, key: keys.alpha, type: 'application/json', payload: '{}' });
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/^text\/html/);
        expect(response.headers['x-request-id']).toBeUndefined();
        expectNoRateHeaders(response);
        expect(response.body).toMatch(/<html/i);
      });
    }

    it('404: does not count toward the rate limit (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await send(t, { method: 'GET', url: `${OPTIONS_URL}/`, key: keys.alpha });
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
        const response = await send(t, { method, url });
        expectProblem(response, 405, 'method_not_allowed');
        expect(response.headers.allow).toBe(allow);
        expectNoRateHeaders(response);
      });
    }

    it('HEAD on the GET route: 405 with Allow (Method handling)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, { method: 'HEAD', url: OPTIONS_URL, key: keys.alpha });
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
          const response = await send(t, {
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
      const response = await send(t, { method: 'DELETE', url: TICKET_URL, key: keys.alpha });
      expectProblem(response, 405, 'method_not_allowed');
      expectNoRateHeaders(response);
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });
  });

  describe('413 payload_too_large', () => {
    it('ticket: 65,536 bytes as sent pass, 65,537 get 413 before the key (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      const fits = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketPaddedWithSpaces(BODY_LIMIT),
      });
      expect(fits.statusCode, fits.body).toBe(201);
      const over = await send(t, {
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
      const fits = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT, '😀'),
      });
      expect(fits.statusCode, fits.body).toBe(201);
      for (const unit of ['😀', 'é']) {
        const over = await send(t, {
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
      const over = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT + 1, '\\ud83d\\ude00'),
      });
      expectProblem(over, 413, 'payload_too_large');
      const fits = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: ticketOfBytes(BODY_LIMIT, '\\u00e9'),
      });
      expect(fits.statusCode, fits.body).toBe(201);
    });

    it('413 for a chunked body without Content-Length as soon as it passes the limit (Errors, 413)', async () => {
      const keys = await seedHelpdesk(t);
      const over = await t.call({
        method: 'POST',
        url: TICKET_URL,
        headers: { authorization: `Bearer ${keys.alpha}`, 'content-type': 'application/json' },
        payload: chunked(ticketOfBytes(BODY_LIMIT + 1, 'x')),
      });
      expectProblem(over, 413, 'payload_too_large');
      expectNoRateHeaders(over);
      const fits = await t.call({
        method: 'POST',
        url: TICKET_URL,
        headers: { authorization: `Bearer ${keys.alpha}`, 'content-type': 'application/json' },
        payload: chunked(ticketOfBytes(BODY_LIMIT, '😀')),
      });
      expect(fits.statusCode, fits.body).toBe(201);
    });

    it('413 on every route, webhook and lead included, not counted (Errors, 413; Limits)', async () => {
      const keys = await seedHelpdesk(t);
      const big = ticketOfBytes(BODY_LIMIT + 1, 'x');
      for (const url of [TICKET_URL, webhookUrl('alpha'), LEAD_URL]) {
        const response = await send(t, { url, key: keys.alpha, type: 'application/json', payload: big });
        expectProblem(response, 413, 'payload_too_large');
        expectNoRateHeaders(response);
      }
      for (const [method, url] of [
        ['GET', OPTIONS_URL],
        ['OPTIONS', TICKET_URL],
      ] as const) {
        const response = await send(t, {
          method,
          url,
          key: keys.alpha,
          type: 'application/json',
          payload: big,
        });
        expectProblem(response, 413, 'payload_too_large');
      }
      const chunkedWebhook = await t.call({
        method: 'POST',
        url: webhookUrl('alpha'),
        headers: { authorization: `Bearer ${keys.alpha}`, 'content-type': 'text/plain' },
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
          const response = await send(t, { url, type, payload: JSON.stringify(ticket()) });
          expectProblem(response, 415, 'unsupported_media_type');
          expectNoRateHeaders(response);
        }
      });
    }

    for (const type of ['', 'json', '/']) {
      it(`ticket: an empty or malformed Content-Type (${JSON.stringify(type)}) gets 415 unsupported_media_type, not a framework 500 (POST ticket; Errors, 415)`, async () => {
        await seedHelpdesk(t);
        const response = await send(t, { url: TICKET_URL, type, payload: JSON.stringify(ticket()) });
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
        const response = await send(t, {
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
      await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'text/plain',
        payload: JSON.stringify(ticket()),
      });
      expect(await remainingAfterOneMore(t, keys.alpha)).toBe('119');
    });

    it('the options route has no body rule: GET without Content-Type is fine (POST ticket, 415 for ticket and lead only)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
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
          const response = await send(t, { url, type: 'application/json', payload });
          const body = expectProblem(response, 422, 'invalid_body');
          expect(body).not.toHaveProperty('param');
          expectNoRateHeaders(response);
        }
      });
    }

    it('invalid_body: with a valid key, not counted (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
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

  describe("webhook's own order", () => {
    it('webhook: 413 comes before the key (Errors, 413)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, {
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
        const response = await send(t, {
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
        const response = await send(t, {
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
        const response = await send(t, { url: webhookUrl('alpha'), type, payload });
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
          const response = await send(t, { url: webhookUrl('alpha'), key: keys.alpha, type, payload });
          expectProblem(response, 400, null);
          expectRateHeaders(response, 120, 119);
        });
      }
    }

    it('webhook: a JSON list under a JSON type gets 422 invalid_body with X-RateLimit-* (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
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
          const response = await send(t, { url: webhookUrl('alpha'), key: keys.alpha, type, payload });
          expectProblem(response, 422, 'invalid_body');
          expectRateHeaders(response, 120, 119);
        });
      }
    }
  });

  describe('after the key', () => {
    it('401 unauthorized: WWW-Authenticate: Bearer, no X-RateLimit-* (Errors, 401)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: UNKNOWN_KEY });
      expectProblem(response, 401, 'unauthorized');
      expect(response.headers['www-authenticate']).toBe('Bearer');
      expectNoRateHeaders(response);
    });

    it('403 system_inactive: before the rate check, no X-RateLimit-* (Errors, 403)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { active: false });
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha });
      const body = expectProblem(response, 403, 'system_inactive');
      expect(body).not.toHaveProperty('required_scope');
      expectNoRateHeaders(response);
    });

    it('429 rate_limited: with X-RateLimit-* and Retry-After (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { rate_limit_per_minute: 2 });
      await exhaust(t, keys.alpha, 2);
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha });
      expectProblem(response, 429, 'rate_limited');
      expectRateHeaders(response, 2, 0);
      expect(response.headers['retry-after']).toBe('60');
    });

    it('403 forbidden_scope: required_scope, with X-RateLimit-* (Errors, 403)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.gamma });
      const body = expectProblem(response, 403, 'forbidden_scope');
      expect(body.required_scope).toBe('help-desk-ticket.create');
      expectRateHeaders(response, 120, 119);
    });

    it('field 422: last, with param and X-RateLimit-* (Errors, field 422s)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket({ company: 'nowhere' })),
      });
      const body = expectProblem(response, 422, 'invalid_company');
      expect(body.param).toBe('company');
      expectRateHeaders(response, 120, 119);
    });

    it('X-Request-Id is generated by the server on every API response, never taken from the client (DECISIONS, Both APIs)', async () => {
      const keys = await seedHelpdesk(t);
      const responses = await Promise.all([
        send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha, headers: { 'x-request-id': 'mine' } }),
        send(t, {
          method: 'GET',
          url: OPTIONS_URL,
          headers: { 'x-request-id': 'mine', 'request-id': 'mine' },
        }),
        send(t, {
          method: 'OPTIONS',
          url: OPTIONS_URL,
          key: keys.alpha,
          headers: { 'x-request-id': 'mine' },
        }),
      ]);
      const ids = responses.map((response) => response.headers['x-request-id']);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(new Set(ids).size).toBe(ids.length);
    });
  });

  describe('pairs: the earlier gate wins', () => {
    it('maintenance + conflicting header: 503 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, headers: { 'Account-Token': 'x' } });
      expectProblem(response, 503, 'temporarily_unavailable');
      expect(response.headers['retry-after']).toBe('60');
    });

    it('maintenance + unknown path, wrong method, oversized body, wrong type, broken body: 503 (DECISIONS, Ticket API)', async () => {
      const keys = await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const responses = [
        await send(t, { method: 'GET', url: `${PREFIX}nope` }),
        await send(t, { method: 'DELETE', url: TICKET_URL }),
        await send(t, {
          url: TICKET_URL,
          type: 'application/json',
          payload: ticketOfBytes(BODY_LIMIT + 1, 'x'),
        }),
        await send(t, { url: TICKET_URL, type: 'text/plain', payload: '{}' }),
        await send(t, { url: TICKET_URL, type: 'application/json', payload: '[' }),
        await send(t, { method: 'GET', url: OPTIONS_URL, key: UNKNOWN_KEY }),
        await send(t, { url: webhookUrl('alpha'), key: keys.alpha, type: 'application/json', payload: '[' }),
      ];
      for (const response of responses) expectProblem(response, 503, 'temporarily_unavailable');
    });

    it('maintenance + malformed Content-Type: 503, not a framework error (DECISIONS, Ticket API)', async () => {
      await seedHelpdesk(t);
      await t.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: true, retry_after_seconds: 60 });
      const response = await send(t, { url: TICKET_URL, type: '/', payload: '{}' });
      expectProblem(response, 503, 'temporarily_unavailable');
    });

    it('conflicting header + unknown path: 400 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [`${PREFIX}nope`, `${TICKET_URL}/`, `${PREFIX}webhook/ALPHA`]) {
        const response = await send(t, { method: 'GET', url, headers: { 'Producer-Token': 'x' } });
        expectProblem(response, 400, 'conflicting_credentials');
      }
    });

    it('conflicting header + wrong method: 400 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, {
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
        const response = await send(t, { url: TICKET_URL, type, payload, headers });
        expectProblem(response, 400, 'conflicting_credentials');
      }
    });

    it('404 + wrong method: 404 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [`${TICKET_URL}/`, `${PREFIX}webhook/Alpha`, `${PREFIX}nope`]) {
        const response = await send(t, { method: 'DELETE', url });
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
        const response = await send(t, { url: `${TICKET_URL}/`, type, payload });
        expectProblem(response, 404, 'not_found');
      }
    });

    it('405 + oversized body: 405 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, {
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
        const response = await send(t, { method: 'PATCH', url: LEAD_URL, type, payload });
        expectProblem(response, 405, 'method_not_allowed');
      }
    });

    it('413 + wrong type: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [TICKET_URL, LEAD_URL]) {
        const response = await send(t, { url, type: 'text/plain', payload: 'x'.repeat(BODY_LIMIT + 1) });
        expectProblem(response, 413, 'payload_too_large');
      }
    });

    it('413 + no Content-Type, chunked: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await t.call({
        method: 'POST',
        url: TICKET_URL,
        payload: chunked('x'.repeat(BODY_LIMIT + 1)),
      });
      expectProblem(response, 413, 'payload_too_large');
    });

    it('413 + broken body, no key: 413 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, {
        url: TICKET_URL,
        type: 'application/json',
        payload: '['.repeat(BODY_LIMIT + 1),
      });
      expectProblem(response, 413, 'payload_too_large');
    });

    it('415 + broken JSON: 415 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (const url of [TICKET_URL, LEAD_URL]) {
        const response = await send(t, { url, type: 'text/plain', payload: '{broken' });
        expectProblem(response, 415, 'unsupported_media_type');
      }
    });

    it('415 + no key: 415 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      const response = await send(t, {
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
        const response = await send(t, { url, key: UNKNOWN_KEY, type: 'application/json', payload: '[]' });
        expectProblem(response, 422, 'invalid_body');
        expect(response.headers['www-authenticate']).toBeUndefined();
      }
    });

    it('invalid_body + lead without lead.create: 422 invalid_body (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
        url: LEAD_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '"x"',
      });
      expectProblem(response, 422, 'invalid_body');
    });

    it('invalid_body + inactive system: 422 invalid_body (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { active: false });
      const response = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: '1',
      });
      expectProblem(response, 422, 'invalid_body');
    });

    it('pre-key problems come before the IP block: a blocked IP still gets 405 (Authentication, order)', async () => {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) await send(t, { method: 'GET', url: OPTIONS_URL, key: UNKNOWN_KEY });
      const response = await send(t, { method: 'DELETE', url: TICKET_URL });
      expectProblem(response, 405, 'method_not_allowed');
    });

    it('401 + IP block: 429 rate_limited without X-RateLimit-* (Limits, IP block)', async () => {
      await seedHelpdesk(t);
      for (let i = 0; i < 20; i += 1) {
        expectProblem(
          await send(t, { method: 'GET', url: OPTIONS_URL, key: UNKNOWN_KEY }),
          401,
          'unauthorized',
        );
      }
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: UNKNOWN_KEY });
      expectProblem(response, 429, 'rate_limited');
      expect(response.headers['retry-after']).toBe('60');
      expect(response.headers['www-authenticate']).toBeUndefined();
      expectNoRateHeaders(response);
    });

    it("webhook: another system's key + that system inactive: 401 (POST webhook)", async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'beta', ['help-desk-ticket.create', 'lead.create'], { active: false });
      const response = await send(t, {
        url: webhookUrl('alpha'),
        key: keys.beta,
        payload: JSON.stringify(ticket()),
      });
      expectProblem(response, 401, 'unauthorized');
    });

    it('401 + webhook body shape: 401 (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
        url: webhookUrl('beta'),
        key: keys.alpha,
        type: 'application/json',
        payload: '[',
      });
      expectProblem(response, 401, 'unauthorized');
    });

    it('system_inactive + rate exhausted: 403 without rate headers (Limits)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { rate_limit_per_minute: 2 });
      await exhaust(t, keys.alpha, 2);
      await putSystem(t, 'alpha', HD, { rate_limit_per_minute: 2, active: false });
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.alpha });
      expectProblem(response, 403, 'system_inactive');
      expectNoRateHeaders(response);
      expect(response.headers['retry-after']).toBeUndefined();
    });

    it('system_inactive + forbidden_scope: 403 system_inactive without required_scope (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'gamma', ['lead.create'], { active: false });
      const response = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.gamma });
      const body = expectProblem(response, 403, 'system_inactive');
      expect(body).not.toHaveProperty('required_scope');
      expectNoRateHeaders(response);
    });

    it('system_inactive + webhook body shape or field 422: 403 system_inactive (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { active: false });
      for (const [url, payload] of [
        [webhookUrl('alpha'), '['],
        [TICKET_URL, JSON.stringify(ticket({ company: 'nowhere' }))],
      ] as const) {
        const response = await send(t, { url, key: keys.alpha, type: 'application/json', payload });
        expectProblem(response, 403, 'system_inactive');
      }
    });

    it('rate 429 + forbidden_scope: 429 with rate headers (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'gamma', ['lead.create'], { rate_limit_per_minute: 1 });
      const first = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.gamma });
      expectProblem(first, 403, 'forbidden_scope');
      expectRateHeaders(first, 1, 0);
      const second = await send(t, { method: 'GET', url: OPTIONS_URL, key: keys.gamma });
      const body = expectProblem(second, 429, 'rate_limited');
      expect(body).not.toHaveProperty('required_scope');
      expectRateHeaders(second, 1, 0);
    });

    it('rate 429 + webhook body shape: 429 (POST webhook)', async () => {
      const keys = await seedHelpdesk(t);
      await putSystem(t, 'alpha', HD, { rate_limit_per_minute: 1 });
      await exhaust(t, keys.alpha, 1);
      const response = await send(t, {
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
      await putSystem(t, 'alpha', HD, { rate_limit_per_minute: 1 });
      await exhaust(t, keys.alpha, 1);
      const response = await send(t, {
        url: TICKET_URL,
        key: keys.alpha,
        type: 'application/json',
        payload: JSON.stringify(ticket({ external_id: '' })),
      });
      expectProblem(response, 429, 'rate_limited');
    });

    it('forbidden_scope + field 422: 403 forbidden_scope (Authentication, order)', async () => {
      const keys = await seedHelpdesk(t);
      const response = await send(t, {
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
      const response = await send(t, {
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
      const response = await send(t, {
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
      const missing = await send(t, {
        url: LEAD_URL,
        key: keys.gamma,
        type: 'application/json',
        payload: '{}',
      });
      const body = expectProblem(missing, 422, 'missing_external_id');
      expect(body.param).toBe('external_id');
      expectRateHeaders(missing, 120, 119);
      const planned = await send(t, {
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
