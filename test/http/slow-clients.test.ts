import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, dialects, testApp, type TestApp } from '../helper.js';
import { openConnection, portOf, type RawAnswer, type RawConnection } from './raw-connection.js';

// Slow clients do not hold connections (HTTP_* variables; docs/operations.md, Connections and time limits). Measured
// before: a POST whose body came one byte every 5 s still held its connection after 150 s; a slow head
// and a silent connection were closed only after about 87 s, a kept-alive one after 73 s. The limits are
// shortened here so that each case takes a second or two; the bounds are ratios of the limit, generous
// for a loaded machine.

const LIMITS = { headers: 500, request: 1500, keepAlive: 300, idle: 800 };
/** A cut may come late by the check interval and a busy machine, never early. */
const LATE = 4;

const TICKET_HEAD =
  'POST /v1/api-external-system/help-desk-ticket HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n';
const ADMIN_PUT_HEAD =
  `PUT /admin/v1/helpdesk/companies/acme HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
  'Content-Type: application/json\r\n';

/** Writes `text` one character at a time, `everyMs` apart, while the connection is open. */
async function drip(connection: RawConnection, text: string, everyMs: number): Promise<void> {
  for (const character of text) {
    if (connection.socket.destroyed) return;
    connection.socket.write(character);
    await sleep(everyMs);
  }
}

function expectTimeout(answer: RawAnswer): void {
  expect(answer.status, JSON.stringify(answer)).toBe(408);
  expect(JSON.parse(answer.body)).toMatchObject({ status: 408, code: 'request_timeout' });
  expect(answer.headers.connection).toBe('close');
}

describe('slow clients on a listening server [sqlite]', () => {
  let t: TestApp;

  beforeAll(async () => {
    const opened = await dialects[0]!.open();
    t = testApp({
      db: opened.db,
      config: {
        HTTP_HEADERS_TIMEOUT_MS: String(LIMITS.headers),
        HTTP_REQUEST_TIMEOUT_MS: String(LIMITS.request),
        HTTP_KEEP_ALIVE_TIMEOUT_MS: String(LIMITS.keepAlive),
        HTTP_IDLE_TIMEOUT_MS: String(LIMITS.idle),
      },
    });
    // A route that works twice the idle limit before it answers: the service's time, not the client's.
    t.app.admin.get('/admin/v1/test/slow-answer', async () => {
      await sleep(LIMITS.idle * 2);
      return { done: true };
    });
    await t.app.public.listen({ port: 0, host: '127.0.0.1' });
    await t.app.admin.listen({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t.app.close();
    await t.db.destroy();
  });

  it('a head sent one line at a time is cut at HTTP_HEADERS_TIMEOUT_MS with 408 request_timeout, on both listeners', async () => {
    for (const listener of [t.app.public, t.app.admin]) {
      const connection = await openConnection(portOf(listener));
      void drip(
        connection,
        `GET /v1/api-public/ping HTTP/1.1\r\nHost: a\r\n${'X-Slow: 1\r\n'.repeat(50)}`,
        25,
      );
      const answer = await connection.answer;
      expectTimeout(answer);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headers * 0.9);
      expect(answer.closedAfterMs).toBeLessThan(LIMITS.headers * LATE);
    }
  });

  it('a connection that sends nothing is closed at HTTP_HEADERS_TIMEOUT_MS, on both listeners', async () => {
    for (const listener of [t.app.public, t.app.admin]) {
      const answer = await (await openConnection(portOf(listener))).answer;
      expectTimeout(answer);
      expect(answer.closedAfterMs).toBeLessThan(LIMITS.headers * LATE);
    }
  });

  it('public: a body sent one byte at a time, never silent, is cut at HTTP_REQUEST_TIMEOUT_MS with 408', async () => {
    const connection = await openConnection(portOf(t.app.public));
    connection.socket.write(`${TICKET_HEAD}Content-Length: 1000\r\n\r\n{`);
    void drip(connection, ' '.repeat(999), 100);
    const answer = await connection.answer;
    expectTimeout(answer);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.request * 0.9);
    expect(answer.closedAfterMs).toBeLessThan(LIMITS.request * LATE);
  });

  it('admin: an upload that keeps sending past the public whole-request limit is answered, not cut', async () => {
    const body = `{"name":"Acme"${' '.repeat(28)}}`;
    const connection = await openConnection(portOf(t.app.admin));
    connection.socket.write(`${ADMIN_PUT_HEAD}Content-Length: ${body.length}\r\n\r\n`);
    // 43 bytes, 80 ms apart: about 3.4 s, more than twice HTTP_REQUEST_TIMEOUT_MS, never silent for long.
    await drip(connection, body, 80);
    await sleep(100);
    connection.socket.end();
    const answer = await connection.answer;
    expect(answer.status, JSON.stringify(answer)).toBe(201);
    expect(answer.closedAfterMs).toBeGreaterThan(LIMITS.request * 2);
  });

  it('admin: a body that stops arriving is cut after HTTP_IDLE_TIMEOUT_MS of silence with 408; nothing is stored', async () => {
    const connection = await openConnection(portOf(t.app.admin));
    connection.socket.write(`${ADMIN_PUT_HEAD}Content-Length: 100\r\n\r\n{"name":"Stalled"`);
    const answer = await connection.answer;
    expectTimeout(answer);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.idle * 0.9);
    expect(answer.closedAfterMs).toBeLessThan(LIMITS.idle * LATE);
    const companies = await t.adminRaw({ url: '/admin/v1/helpdesk/companies' });
    expect(JSON.parse(companies.body)).not.toContainEqual(expect.objectContaining({ name: 'Stalled' }));
  });

  it('admin: an answer given before the body arrived (a refused token) closes the connection, so that a slow body cannot hold it', async () => {
    const connection = await openConnection(portOf(t.app.admin));
    connection.socket.write(
      'PUT /admin/v1/helpdesk/companies/acme HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{',
    );
    void drip(connection, ' '.repeat(999), 100);
    const answer = await connection.answer;
    expect(answer.status, JSON.stringify(answer)).toBe(401);
    expect(answer.headers.connection).toBe('close');
    // Closed with the answer, before any time limit could do it.
    expect(answer.closedAfterMs).toBeLessThan(LIMITS.keepAlive);
  });

  it('admin: the time the service spends on an answer is not silence: a route slower than the idle limit answers', async () => {
    const connection = await openConnection(portOf(t.app.admin));
    connection.socket.write(
      `GET /admin/v1/test/slow-answer HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\nConnection: close\r\n\r\n`,
    );
    const answer = await connection.answer;
    expect(answer.status, JSON.stringify(answer)).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ done: true });
  });

  it('an idle kept-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS (and Node’s extra second)', async () => {
    for (const listener of [t.app.public, t.app.admin]) {
      const connection = await openConnection(portOf(listener));
      connection.socket.write('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n');
      const answer = await connection.answer;
      expect(answer.status).toBeGreaterThanOrEqual(200);
      expect(answer.closedAfterMs).toBeGreaterThanOrEqual(LIMITS.keepAlive * 0.9);
      expect(answer.closedAfterMs).toBeLessThan(LIMITS.keepAlive + 1000 + LIMITS.keepAlive * LATE);
    }
  });
});
