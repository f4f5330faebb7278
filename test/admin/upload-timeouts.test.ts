import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ADMIN_TOKEN, describeEachDialect, testApp, type TestApp } from '../helper.js';
import {
  inFile,
  probeCalls,
  receiptLine,
  seedProbes,
  timed,
  UPLOAD_URL,
  type ProbeKeys,
} from './upload-fixtures.js';

// An upload that stops sending must not freeze the service (issue "Steady under faults and abuse",
// finding 2). Measured before: an NDJSON upload that sent one line and then nothing held its database
// connection for ever; on SQLite every public call then timed out, on PostgreSQL ten of them took the
// whole pool (every public call 500 after 5 s). Now the body is staged without a connection while it
// arrives, and an upload idle for UPLOAD_IDLE_TIMEOUT_MS or longer than UPLOAD_TIMEOUT_MS is answered
// 408 `request_timeout`, nothing stored (docs/admin-rules.md, Point of sale: POST receipts).

const IDLE_MS = 1500;
/** More uploads than the test pool's five PostgreSQL connections. */
const STALLED = 7;

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** A receipts upload over a socket of its own: headers and a first part of a chunked body; the answer is read until the server closes. */
function startUpload(
  port: number,
  type: string,
  first: string,
): Promise<{ socket: Socket; answer: Promise<RawAnswer> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(
        `POST ${UPLOAD_URL} HTTP/1.1\r\nHost: admin.test\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n` +
          `Content-Type: ${type}\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
      );
      sendChunk(socket, first);
      const answer = new Promise<RawAnswer>((done) => {
        let text = '';
        socket.on('data', (data: Buffer) => {
          text += data.toString('utf8');
        });
        socket.on('close', () => {
          const [head = '', ...rest] = text.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(
            lines.map((line) => [
              line.slice(0, line.indexOf(':')).toLowerCase(),
              line.slice(line.indexOf(':') + 1).trim(),
            ]),
          );
          const raw = rest.join('\r\n\r\n');
          // The answer is sent with Content-Length or chunked: keep the JSON object either way.
          const json = raw.slice(raw.indexOf('{'), raw.lastIndexOf('}') + 1);
          let body: Record<string, unknown>;
          try {
            body = JSON.parse(json) as Record<string, unknown>;
          } catch {
            // No answer (the socket closed without one): the assertions on the status say so.
            body = { text };
          }
          done({ status: Number(statusLine.split(' ')[1]), headers, body });
        });
      });
      resolve({ socket, answer });
    });
    socket.on('error', reject);
  });
}

function sendChunk(socket: Socket, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  socket.write(`${bytes.length.toString(16)}\r\n`);
  socket.write(bytes);
  socket.write('\r\n');
}

describeEachDialect('receipts upload deadlines', (dialect) => {
  const fileDialect = inFile(dialect);
  let t: TestApp;
  let keys: ProbeKeys;
  let port: number;
  let drop: () => Promise<void>;
  const sockets: Socket[] = [];

  beforeEach(async () => {
    const opened = await fileDialect.open();
    drop = () => opened.drop();
    t = testApp({
      db: opened.db,
      rateLimits: await fileDialect.openStore(),
      config: { UPLOAD_IDLE_TIMEOUT_MS: String(IDLE_MS), UPLOAD_TIMEOUT_MS: '4000' },
    });
    keys = await seedProbes(t);
    await t.app.admin.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.admin.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await t.app.close();
    await drop();
  });

  async function storedUploads(): Promise<number> {
    const row = await t.db
      .selectFrom('pos_receipts')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('id', 'like', 'u%')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it(`${STALLED} uploads that send one line and then nothing: the public APIs answer at once meanwhile, and each upload gets 408 request_timeout after UPLOAD_IDLE_TIMEOUT_MS, nothing stored`, async () => {
    const uploads = await Promise.all(
      Array.from({ length: STALLED }, (_, n) =>
        n % 2 === 0
          ? startUpload(port, 'application/x-ndjson', `${receiptLine(n)}\n`)
          : startUpload(port, 'application/json', `{"receipts":[${receiptLine(n)},`),
      ),
    );
    sockets.push(...uploads.map((upload) => upload.socket));
    const started = performance.now();

    // While they stall, the public APIs answer as usual: reads and a ticket write.
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (let round = 0; round < 3; round += 1) {
      t.clock.advance(2000);
      const calls = probeCalls(t, keys, round);
      for (const call of [calls.ping, calls.options, calls.ticket]) {
        const { ms, response } = await timed(call);
        expect(response.statusCode, response.body).toBeLessThan(300);
        expect(ms).toBeLessThan(IDLE_MS);
      }
    }

    const answers = await Promise.all(uploads.map((upload) => upload.answer));
    const waited = performance.now() - started;
    for (const answer of answers) {
      expect(answer.status).toBe(408);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(answer.headers.connection).toBe('close');
      expect(answer.body).toMatchObject({ status: 408, code: 'request_timeout' });
      expect(String(answer.body.detail)).toContain('nothing of it was stored');
    }
    // The idle deadline, not the total one (4 s), ended them.
    expect(waited).toBeGreaterThanOrEqual(IDLE_MS * 0.9);
    expect(waited).toBeLessThan(4000);
    expect(await storedUploads()).toBe(0);
  }, 30_000);

  it('an upload that keeps sending past UPLOAD_TIMEOUT_MS gets 408 request_timeout, nothing stored; one that ends in time is stored', async () => {
    const slow = await startUpload(port, 'application/x-ndjson', `${receiptLine(1)}\n`);
    sockets.push(slow.socket);
    let n = 2;
    // A line every 250 ms: never idle for UPLOAD_IDLE_TIMEOUT_MS, but longer than the 4 s in all.
    const trickle = setInterval(() => {
      if (!slow.socket.destroyed) sendChunk(slow.socket, `${receiptLine(n++)}\n`);
    }, 250);
    const started = performance.now();
    try {
      const answer = await slow.answer;
      expect(answer.status).toBe(408);
      expect(answer.body).toMatchObject({ code: 'request_timeout' });
      expect(String(answer.body.detail)).toContain('took longer than 4 s');
      expect(performance.now() - started).toBeGreaterThanOrEqual(4000 * 0.9);
    } finally {
      clearInterval(trickle);
    }
    expect(await storedUploads()).toBe(0);

    const quick = await startUpload(port, 'application/x-ndjson', `${receiptLine(1)}\n`);
    sockets.push(quick.socket);
    await new Promise((resolve) => setTimeout(resolve, 500));
    sendChunk(quick.socket, `${receiptLine(2)}\n`);
    quick.socket.write('0\r\n\r\n');
    const answer = await quick.answer;
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    expect(await storedUploads()).toBe(2);
  }, 30_000);
});
