import { STATUS_CODES } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import type { Db } from '../../src/db/database.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import { createServices } from '../../src/services.js';
import { PROBLEM_TYPE, UUID } from '../expect-http.js';
import { ADMIN_TOKEN, dialects, ManualClock, testConfig } from '../helper.js';
import { exchange, openConnection, portOf, type RawAnswer } from './raw-connection.js';

// Every refusal of both listeners has the contract's shape (docs/ticket-api.md and docs/pos-api.md,
// Errors: problem+json with type, title, status, detail and code; docs/api-conventions.md: a server-made
// X-Request-Id), also those of Node's HTTP server, which answered `{"error":"Bad Request","message":
// "Client Error"}` or a bare 400, 417 or 431 without X-Request-Id. Each case goes over a raw socket: the
// parser is never reached by `inject`.

/** A key-shaped secret that a refused request carries: it must not reach the logs. */
const SECRET = `gtes_${'S'.repeat(43)}`;

/** The request heads of each case, for a path of the listener. */
function cases(path: string, bodyPath: string, auth: string) {
  return {
    'an unknown method': {
      bytes: `BREW ${path} HTTP/1.1\r\nHost: a\r\n\r\n`,
      status: 400,
      code: 'malformed_request',
    },
    'a NUL in the path': {
      bytes: `GET ${path}\0x HTTP/1.1\r\nHost: a\r\n\r\n`,
      status: 400,
      code: 'malformed_request',
    },
    'both Content-Length and Transfer-Encoding': {
      bytes:
        `POST ${bodyPath} HTTP/1.1\r\nHost: a\r\n${auth}Content-Type: application/json\r\n` +
        'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'malformed_request',
    },
    'oversized headers': {
      bytes: `GET ${path} HTTP/1.1\r\nHost: a\r\nX-Padding: ${'p'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'headers_too_large',
    },
    'an Expect other than 100-continue': {
      bytes: `GET ${path} HTTP/1.1\r\nHost: a\r\nExpect: 200-ok\r\n\r\n`,
      status: 417,
      code: 'expectation_failed',
    },
    'an HTTP/1.1 request without Host': {
      bytes: `GET ${path} HTTP/1.1\r\n\r\n`,
      status: 400,
      code: 'malformed_request',
    },
  } as const;
}

/** The contract's refusal: problem+json with a code, a fresh X-Request-Id, the listener-wide headers, closed. */
function expectEdgeProblem(answer: RawAnswer, status: number, code: string): void {
  expect(answer.status, JSON.stringify(answer)).toBe(status);
  expect(answer.headers['content-type']).toBe(PROBLEM_TYPE);
  expect(answer.headers['x-request-id']).toMatch(UUID);
  expect(answer.headers['cache-control']).toBe('no-store');
  expect(answer.headers['x-content-type-options']).toBe('nosniff');
  expect(answer.headers.connection).toBe('close');
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(body).toMatchObject({ type: 'about:blank', title: STATUS_CODES[status], status, code });
  expect(typeof body.detail).toBe('string');
}

describe('refusals of the HTTP edge on both listeners [sqlite]', () => {
  let app: App;
  let db: Db;
  const lines: string[] = [];

  beforeAll(async () => {
    db = (await dialects[0]!.open()).db;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString('utf8'));
        callback();
      },
    });
    const config = testConfig();
    const services = createServices({
      db,
      clock: new ManualClock(),
      rateLimits: createMemoryRateLimitStore(),
      config,
    });
    app = buildApp(config, { services, logger: pino({ level: 'debug' }, destination) });
    await app.public.listen({ port: 0, host: '127.0.0.1' });
    await app.admin.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  const listeners = {
    public: {
      port: () => portOf(app.public),
      table: cases(
        '/v1/api-public/ping',
        '/v1/api-external-system/help-desk-ticket',
        `Authorization: Bearer ${SECRET}\r\n`,
      ),
      bodyHead: `POST /v1/api-external-system/help-desk-ticket HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${SECRET}\r\n`,
    },
    admin: {
      port: () => portOf(app.admin),
      table: cases(
        '/admin/v1/helpdesk/companies',
        '/admin/v1/helpdesk/companies/acme',
        `Authorization: Bearer ${ADMIN_TOKEN}\r\n`,
      ),
      bodyHead: `PUT /admin/v1/helpdesk/companies/acme HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n`,
    },
  };

  for (const [listener, { port, table, bodyHead }] of Object.entries(listeners)) {
    for (const [name, { bytes, status, code }] of Object.entries(table)) {
      it(`${listener}: ${name} is ${status} ${code} in problem+json with X-Request-Id, and the connection closes`, async () => {
        expectEdgeProblem(await exchange(port(), bytes), status, code);
      });
    }

    it(`${listener}: bad chunking of a body being read is 400 malformed_request, not a client gone`, async () => {
      const { socket, answer } = await openConnection(port());
      socket.write(
        `${bodyHead}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n`,
      );
      // The request is in flight, its body being read, when the bad chunk size arrives.
      await sleep(100);
      socket.write('zz\r\n');
      expectEdgeProblem(await answer, 400, 'malformed_request');
    });
  }

  it('the refusals are counted by listener and code, never as clients gone, logged below error and without a byte of the request', async () => {
    const metrics = await app.admin.inject({
      url: '/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    for (const listener of ['public', 'admin']) {
      for (const [code, count] of [
        ['malformed_request', 5],
        ['headers_too_large', 1],
        ['expectation_failed', 1],
      ] as const) {
        expect(metrics.body).toContain(
          `http_edge_refusals_total{listener="${listener}",code="${code}"} ${count}`,
        );
      }
    }
    expect(metrics.body).not.toMatch(/client_aborted_requests_total\{[^}]*\} [1-9]/);
    const levels = lines
      .flatMap((line) => line.split('\n').filter((text) => text !== ''))
      .map((text) => (JSON.parse(text) as { level: number }).level);
    expect(levels.filter((level) => level >= 50)).toEqual([]);
    const log = lines.join('');
    expect(log).toContain('request refused at the HTTP edge');
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(ADMIN_TOKEN);
    expect(log).not.toContain('rawPacket');
  });
});
