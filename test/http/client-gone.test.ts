import { connect } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { createServices } from '../../src/services.js';
import { ADMIN_TOKEN, describeEachDialect, ManualClock, testConfig } from '../helper.js';

// A client that goes away before its answer is no fault of the service (robustness review, "Clients that
// go away"): it is counted in `client_aborted_requests_total`, logged below error, and nothing is written
// back. The uploads are real ones, cut short on a listening server: `inject` cannot abort a body.

const TICKET_URL = '/v1/api-external-system/help-desk-ticket';
const ABORTED_UPLOADS = 20;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  err?: { message?: string; code?: string };
}

/** Sends headers announcing 5,000 bytes and part of the body, then destroys the socket. */
function abortUpload(port: number, head: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`${head}Content-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"subject":"`);
      socket.write('x'.repeat(100), () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on('error', reject);
  });
}

/** Waits until `done` holds, polling; fails after `ms`. */
async function waitFor(done: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDialect('client gone', (dialect) => {
  let app: App;
  let drop: () => Promise<void>;
  let lines: LogLine[];

  beforeEach(async () => {
    const opened = await dialect.open();
    const rateLimits = await dialect.openStore();
    drop = () => opened.drop();
    lines = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        for (const text of chunk.toString('utf8').split('\n')) {
          if (text !== '') lines.push(JSON.parse(text) as LogLine);
        }
        callback();
      },
    });
    const config = testConfig();
    const services = createServices({ db: opened.db, clock: new ManualClock(), rateLimits, config });
    app = buildApp(config, { services, logger: pino({ level: 'info' }, destination) });
    await app.public.listen({ port: 0, host: '127.0.0.1' });
    await app.admin.listen({ port: 0, host: '127.0.0.1' });
  });

  afterEach(async () => {
    await app.close();
    await drop();
  });

  const portOf = (listener: App['public']) => (listener.server.address() as { port: number }).port;
  const settled = () => lines.filter((line) => line.err?.message === 'aborted');
  const metrics = async () =>
    (await app.admin.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).body;

  it('an aborted ticket upload is counted and logged below error; the server still answers', async () => {
    const port = portOf(app.public);
    const head = `POST ${TICKET_URL} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
    await Promise.all(Array.from({ length: ABORTED_UPLOADS }, () => abortUpload(port, head)));
    await waitFor(() => settled().length >= ABORTED_UPLOADS);

    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    for (const line of settled()) {
      expect(line).toMatchObject({ level: 30, msg: 'client went away before the answer' });
      expect(line.reqId).toEqual(expect.any(String));
    }
    expect(await metrics()).toContain(`client_aborted_requests_total{listener="public"} ${ABORTED_UPLOADS}`);

    const answer = await fetch(`http://127.0.0.1:${port}${TICKET_URL}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(401);
  });

  it('an aborted admin upload is counted and logged below error, not answered as malformed JSON', async () => {
    const head =
      `PUT /admin/v1/helpdesk/priorities/1 HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;
    await abortUpload(portOf(app.admin), head);
    await waitFor(() => settled().length >= 1);

    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(settled()).toMatchObject([{ level: 30, msg: 'client went away before the answer' }]);
    expect(await metrics()).toContain('client_aborted_requests_total{listener="admin"} 1');
  });
});
