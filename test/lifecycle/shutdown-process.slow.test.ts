import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { FLEET_ADMIN_TOKEN, FLEET_SYSTEM, fleetEnv, setUpTicketSystem } from '../fleet/fleet-fixtures.js';
import { TICKET_URL } from '../helpdesk/fixtures.js';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { http, startServer, type ServerProcess } from '../support/server-process.js';
import { timeUntil } from '../support/timing.js';
import { keepAliveAgent, send, type Outcome } from './keep-alive.js';
import { openConnection, type RawConnection } from './raw-connection.js';
import { errorLines, tally, ticketAnswerProblems, unavailableDeviations } from './shutdown-outcomes.js';

// SIGTERM on the real server process under ticket load (docs/operations.md, Running a fleet: Shutdown): every
// answer is a 201/200 or the ticket API's own 503 (docs/ticket-api.md, Errors, 503), never
// Fastify's; every ticket acknowledged is stored; the requests in progress finish before the stores
// close; the exit is 0 without an error line. On SQLite, and on PostgreSQL with Redis when their URLs
// are set. Timings are generous: the machine running the suites has two busy cores.

const redisUrl = process.env.TEST_REDIS_URL;

/** The burst: this many POSTs at once, each on a kept-alive connection of its own, SIGTERM this far in. */
const BURST = 300;
const SIGNAL_AFTER_MS = 30;

/** POSTs sent at once during a drain: few enough to be served inside it on a busy machine. */
const DRAIN_BURST = 100;

/**
 * The backlog: POSTs offered at this rate whatever the answers, for this long, SIGTERM half way. Every
 * fourth client gives up after GIVE_UP_MS: its request may still be waiting for the database when its
 * connection is gone, and the stores must stay open for it all the same ("driver has already been
 * destroyed" otherwise).
 */
const OFFERED_PER_SECOND = 400;
const OFFERED_FOR_MS = 2000;
const GIVE_UP_MS = 250;
const givesUp = (i: number) => i % 4 === 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const ticket = (externalId: string) => ({
  external_id: externalId,
  company: 'acme',
  description: 'Opened during a shutdown.',
});

describeEachProcessDatabase('shutdown under ticket load (real process)', (kind) => {
  let database: ProcessDatabase | undefined;
  const servers: ServerProcess[] = [];
  const start = async (overrides: Record<string, string>) => {
    const server = await startServer(
      fleetEnv(database!.url, {
        ...(kind === 'postgres' && redisUrl !== undefined
          ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `shutdown-${randomBytes(4).toString('hex')}:` }
          : {}),
        // Every burst comes from this one address: lift the per-IP connection limit out of its way.
        MAX_CONNECTIONS_PER_IP: '10000',
        ...overrides,
      }),
    );
    servers.push(server);
    await server.waitUntilListening();
    const key = await setUpTicketSystem(server, { rateLimitPerMinute: 1_000_000 });
    return { server, key };
  };

  /** The acknowledged tickets that are not in the database as acknowledged (external_id and id). */
  const notStored = async (acknowledged: Map<string, string>): Promise<string[]> => {
    const db = database!.open();
    try {
      const rows = await db
        .selectFrom('hd_tickets')
        .select(['external_id', 'id'])
        .where('system_id', '=', FLEET_SYSTEM)
        .execute();
      const stored = new Map(rows.map((row) => [row.external_id, row.id]));
      return [...acknowledged]
        .filter(([externalId, id]) => stored.get(externalId) !== id)
        .map(([externalId, id]) => `${externalId}: acknowledged ${id}, stored ${stored.get(externalId)}`);
    } finally {
      await db.destroy();
    }
  };

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('SIGTERM 30 ms into a burst of 300 ticket POSTs on kept-alive connections: every answer is a 201 or the ticket API’s own 503, every 201 is stored, exit 0 without an error line (Errors, 503)', async ({
    annotate,
  }) => {
    // At the production log level: writing the request lines is part of what keeps requests waiting.
    const { server, key } = await start({ SHUTDOWN_DRAIN_MS: '0', LOG_LEVEL: 'info' });
    const agent = keepAliveAgent(BURST);
    const outcomes: Promise<Outcome>[] = [];
    for (let i = 0; i < BURST; i++) {
      outcomes.push(
        send(agent, server.port, 'POST', TICKET_URL, {
          headers: { authorization: `Bearer ${key}` },
          body: ticket(`burst-${i}`),
        }),
      );
    }
    await sleep(SIGNAL_AFTER_MS);
    server.kill('SIGTERM');
    const answered = await Promise.all(outcomes);
    agent.destroy();

    expect(await server.exited).toBe(0);
    expect(errorLines(server.output())).toEqual([]);
    const { acknowledged, problems } = ticketAnswerProblems(
      answered,
      (i) => `burst-${i}`,
      // Connections the kernel had queued but the process had not accepted when it stopped listening
      // are reset: no answer, nothing acknowledged (the drain exists so that none arrive by then).
      { connectionErrors: ['ECONNRESET', 'ECONNREFUSED', 'EPIPE'] },
    );
    expect(problems).toEqual([]);
    expect(await notStored(acknowledged)).toEqual([]);
    await annotate(`outcomes: ${tally(answered)}`);
  }, 60_000);

  it('a backlog offered at 400 requests a second, some clients giving up, SIGTERM half way: no 500, no closed-store error, every acknowledged ticket stored, exit 0', async ({
    annotate,
  }) => {
    const { server, key } = await start({ SHUTDOWN_DRAIN_MS: '0' });
    const agent = keepAliveAgent(Infinity);
    const outcomes: Promise<Outcome>[] = [];
    const total = (OFFERED_PER_SECOND * OFFERED_FOR_MS) / 1000;
    const started = Date.now();
    let signalled = false;
    for (let i = 0; i < total; i++) {
      // Open loop: each request leaves at its time, whether or not the earlier ones were answered.
      const due = started + (i * 1000) / OFFERED_PER_SECOND;
      if (due > Date.now()) await sleep(due - Date.now());
      if (!signalled && Date.now() - started >= OFFERED_FOR_MS / 2) {
        signalled = true;
        server.kill('SIGTERM');
      }
      outcomes.push(
        send(agent, server.port, 'POST', TICKET_URL, {
          headers: { authorization: `Bearer ${key}` },
          body: ticket(`backlog-${i}`),
          ...(givesUp(i) ? { timeoutMs: GIVE_UP_MS } : {}),
        }),
      );
    }
    const answered = await Promise.all(outcomes);
    agent.destroy();

    expect(await server.exited).toBe(0);
    const output = server.output();
    expect(output).not.toMatch(/destroyed/);
    expect(errorLines(output)).toEqual([]);
    const { acknowledged, problems } = ticketAnswerProblems(answered, (i) => `backlog-${i}`, {
      // After the close, new connections are refused and queued ones reset: no answer, nothing acknowledged.
      connectionErrors: ['ECONNRESET', 'ECONNREFUSED', 'EPIPE'],
      gaveUp: givesUp,
    });
    expect(problems).toEqual([]);
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(await notStored(acknowledged)).toEqual([]);
    await annotate(`outcomes: ${tally(answered)}`);
  }, 90_000);

  it('/readyz answers 503 draining at once on SIGTERM, while the ticket API still answers 201 with Connection: close during the drain, a burst of 100 included (Running a fleet: Shutdown)', async ({
    annotate,
  }) => {
    const DRAIN_MS = 4000;
    const { server, key } = await start({ SHUTDOWN_DRAIN_MS: String(DRAIN_MS) });
    expect((await http(server.adminPort, 'GET', '/readyz')).status).toBe(200);

    const signalled = Date.now();
    server.kill('SIGTERM');
    let ready = await http(server.adminPort, 'GET', '/readyz');
    while (ready.status === 200) {
      await sleep(10);
      ready = await http(server.adminPort, 'GET', '/readyz');
    }
    const readyzMs = Date.now() - signalled;
    expect(ready.status).toBe(503);
    expect(ready.json).toMatchObject({ status: 'draining', database: 'ok', shared_store: 'ok' });
    expect(ready.headers.connection).toBe('close');

    // A burst like the one the close refuses in part (first test) is served whole inside the drain.
    const agent = keepAliveAgent(DRAIN_BURST);
    const answered = await Promise.all(
      Array.from({ length: DRAIN_BURST }, (_, i) =>
        send(agent, server.port, 'POST', TICKET_URL, {
          headers: { authorization: `Bearer ${key}` },
          body: ticket(`during-the-drain-${i}`),
        }),
      ),
    );
    agent.destroy();
    const servedMs = Date.now() - signalled;
    expect(tally(answered)).toBe(`201×${DRAIN_BURST}`);
    const closing = answered.filter(
      (outcome) => outcome.ok && outcome.response.headers.connection === 'close',
    );
    expect(closing.length).toBe(DRAIN_BURST);
    // "At once" with room for a busy machine: a fifth of the drain; the 201 came inside the drain.
    expect(readyzMs).toBeLessThan(DRAIN_MS / 5);
    expect(servedMs).toBeLessThan(DRAIN_MS);

    expect(await server.exited).toBe(0);
    const exitMs = Date.now() - signalled;
    expect(exitMs).toBeGreaterThanOrEqual(DRAIN_MS);
    expect(errorLines(server.output())).toEqual([]);
    const { acknowledged, problems } = ticketAnswerProblems(answered, (i) => `during-the-drain-${i}`, {
      connectionErrors: [],
    });
    expect(problems).toEqual([]);
    expect(await notStored(acknowledged)).toEqual([]);
    await annotate(
      `/readyz 503 after ${readyzMs} ms, ${DRAIN_BURST} × 201 by ${servedMs} ms, exit at ${exitMs} ms (drain ${DRAIN_MS} ms)`,
    );
  }, 60_000);

  it('a request admitted before the close finishes (201, stored); requests that arrive after it on kept-alive connections get each listener’s own 503, and new connections are refused', async () => {
    // Debug: a request's arrival is logged there (its one info line comes once it is answered).
    const { server, key } = await start({ SHUTDOWN_DRAIN_MS: '0', LOG_LEVEL: 'debug' });
    const connections: RawConnection[] = [];
    const open = async (port: number) => {
      const connection = await openConnection(port);
      connections.push(connection);
      return connection;
    };
    try {
      // Admitted: its headers are in (the server logged its arrival), its body not yet.
      const body = JSON.stringify(ticket('admitted-before-the-close'));
      const admitted = await open(server.port);
      admitted.write(
        `POST ${TICKET_URL} HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
      );
      await server.waitForOutput(/"method":"POST","url":"\/v1\/api-external-system\/help-desk-ticket"/);

      // Kept alive: one answered request each, then the start of the next one when the signal comes.
      const kept = {
        ticket: { port: server.port, path: '/v1/api-external-system/help-desk-ticket-options' },
        pos: { port: server.port, path: '/v1/api-public/ping' },
        admin: { port: server.adminPort, path: '/admin/v1/helpdesk/companies' },
        other: { port: server.port, path: '/index.html' },
      };
      const held = new Map<keyof typeof kept, RawConnection>();
      for (const [name, { port, path }] of Object.entries(kept) as [
        keyof typeof kept,
        { port: number; path: string },
      ][]) {
        const connection = await open(port);
        connection.write(`GET /healthz HTTP/1.1\r\nHost: gw\r\n\r\n`);
        const first = await connection.response();
        expect(first.headers.connection).not.toBe('close');
        connection.write(`GET ${path} HTTP/1.1\r\nHost: gw\r\n`);
        held.set(name, connection);
      }

      server.kill('SIGTERM');
      await server.waitForOutput(/closing: no new connections/);
      // The listener closes a moment after the log line: new connections are refused from then on.
      const refused = () =>
        http(server.port, 'GET', '/healthz').then(
          () => false,
          (error: unknown) => (error as NodeJS.ErrnoException).code === 'ECONNREFUSED',
        );
      await timeUntil(refused, 5000);

      const finish = async (name: keyof typeof kept, authorization: string) => {
        const connection = held.get(name)!;
        connection.write(`Authorization: ${authorization}\r\n\r\n`);
        const response = await connection.response();
        await connection.ended;
        return response;
      };
      const ticketRefusal = await finish('ticket', `Bearer ${key}`);
      expect(unavailableDeviations(ticketRefusal, { retryAfter: '5' })).toEqual([]);
      const posRefusal = await finish('pos', 'Bearer gtpk_unknown');
      expect(unavailableDeviations(posRefusal, { retryAfter: '60' })).toEqual([]);
      expect((posRefusal.json as { detail: string }).detail).toBe(
        'This endpoint is temporarily unable to accept requests. Retry after the time in the Retry-After header.',
      );
      const adminRefusal = await finish('admin', `Bearer ${FLEET_ADMIN_TOKEN}`);
      expect(unavailableDeviations(adminRefusal, { retryAfter: '5', requestId: false })).toEqual([]);
      const otherRefusal = await finish('other', 'none');
      expect(otherRefusal).toMatchObject({ status: 503, text: 'Service Unavailable' });
      expect(otherRefusal.headers).toMatchObject({
        'content-type': 'text/plain; charset=utf-8',
        'retry-after': '5',
        connection: 'close',
      });

      // The admitted request was waited for: its body completes now, and it is answered and stored.
      admitted.write(body.slice(10));
      const created = await admitted.response();
      expect(created.status).toBe(201);
      expect(created.headers.connection).toBe('close');
      expect(await server.exited).toBe(0);
      expect(errorLines(server.output())).toEqual([]);
      const id = (created.json as { id: string }).id;
      expect(await notStored(new Map([['admitted-before-the-close', id]]))).toEqual([]);
    } finally {
      for (const connection of connections) connection.destroy();
    }
  }, 60_000);
});
