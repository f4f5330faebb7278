import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { expectApiProblem } from '../expect-http.js';
import { OPTIONS_URL, postTicket, seedHelpdesk, ticket, type Keys } from '../helpdesk/fixtures.js';
import { describePostgres, testApp, type TestApp } from '../helper.js';
import { getWithKey, SALES_URL, seedPos } from '../pos/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { timeUntil } from '../support/timing.js';

// PostgreSQL restarted under load (issue "Run as a fleet", Faults): calls during the outage get a
// problem+json 5xx, never a crash nor a wait past the configured timeouts, and the service recovers
// without a restart. The app reaches PostgreSQL through a proxy that the test breaks: dropping every
// connection and refusing new ones is what a restart looks like from the service, and the machine's
// server, which other suites use at the same time, is never touched.

const CONNECT_TIMEOUT_MS = 1000;
const QUERY_TIMEOUT_MS = 3000;

describePostgres('PostgreSQL outage: 5xx problem+json, no hang, recovery without a restart', (dialect) => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Db;
  let drop: () => Promise<void>;
  let keys: Keys;
  let posKey: string;

  beforeEach(async () => {
    const opened = await dialect.open();
    direct = opened.db;
    drop = () => opened.drop();
    const connection = opened.connection;
    if (connection === undefined) throw new Error('PostgreSQL connection details missing');
    const target = new URL(connection.url);
    proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 5432) });
    const db = openDatabase(
      { kind: 'postgres', url: proxy.url(connection.url) },
      {
        searchPath: connection.searchPath,
        poolSize: 5,
        connectTimeoutMs: CONNECT_TIMEOUT_MS,
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        onConnectionError: () => undefined,
      },
    );
    t = testApp({ db });
    // A limit that the load below never reaches: only the outage may refuse a call.
    keys = await seedHelpdesk(t, { rate_limit_per_minute: 1_000_000 });
    posKey = (await seedPos(t)).key;
  });

  afterEach(async () => {
    await t.app.close();
    await t.db.destroy();
    await proxy.close();
    await drop();
  });

  const storedExternalIds = async () =>
    new Set(
      (await direct.selectFrom('hd_tickets').select('external_id').execute()).map((row) => row.external_id),
    );

  /** Every call the APIs answer while the database is gone, each with how long it took. */
  async function callsDuringOutage(): Promise<{ response: LightMyRequestResponse; ms: number }[]> {
    const calls = [
      () => postTicket(t, keys.alpha, ticket({ external_id: 'during' })),
      () => t.call({ method: 'GET', url: OPTIONS_URL, headers: { authorization: `Bearer ${keys.alpha}` } }),
      () => getWithKey(t, posKey, '/v1/api-public/ping'),
      () => getWithKey(t, posKey, '/v1/api-public/places'),
      () => getWithKey(t, posKey, SALES_URL),
    ];
    const answers = [];
    for (const call of calls) {
      const started = Date.now();
      const response = await call();
      answers.push({ response, ms: Date.now() - started });
    }
    return answers;
  }

  it('connections refused: every call gets 500 internal_error problem+json at once; recovered without a restart', async () => {
    expect((await postTicket(t, keys.alpha, ticket({ external_id: 'before' }))).statusCode).toBe(201);
    await proxy.refuse();
    for (const { response, ms } of await callsDuringOutage()) {
      expectApiProblem(response, 500, 'internal_error');
      expect(ms).toBeLessThan(CONNECT_TIMEOUT_MS);
    }
    await proxy.restore();
    await timeUntil(
      async () => (await postTicket(t, keys.alpha, ticket({ external_id: 'after' }))).statusCode === 201,
      10_000,
    );
    // The sales queries that failed released their places: three in a row still pass the limit of 2.
    for (let i = 0; i < 3; i += 1) expect((await getWithKey(t, posKey, SALES_URL)).statusCode).toBe(200);
    expect(await storedExternalIds()).toEqual(new Set(['before', 'after']));
  });

  it('the database goes silent: every call ends with a 5xx within the configured timeouts', async () => {
    proxy.blackhole();
    for (const { response, ms } of await callsDuringOutage()) {
      expectApiProblem(response, 500, 'internal_error');
      expect(ms).toBeLessThan(QUERY_TIMEOUT_MS + CONNECT_TIMEOUT_MS);
    }
    await proxy.restore();
    await timeUntil(
      async () => (await getWithKey(t, posKey, '/v1/api-public/ping')).statusCode === 200,
      10_000,
    );
  });

  it('under load: each answer is a 2xx or a problem+json 5xx, and every acknowledged ticket is stored', async () => {
    const acknowledged = new Set<string>();
    const statuses = new Map<number, number>();
    let sequence = 0;
    let running = true;
    const client = async () => {
      while (running) {
        const externalId = `load-${(sequence += 1)}`;
        const response = await postTicket(t, keys.alpha, ticket({ external_id: externalId }));
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        if (response.statusCode === 201 || response.statusCode === 200) acknowledged.add(externalId);
        else expectApiProblem(response, 500, 'internal_error');
      }
    };
    const clients = Array.from({ length: 8 }, client);
    const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    await pause(300);
    await proxy.refuse();
    await pause(300);
    await proxy.restore();
    await pause(700);
    running = false;
    await Promise.all(clients);
    expect(statuses.get(500) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(201) ?? 0).toBeGreaterThan(0);
    const stored = await storedExternalIds();
    for (const externalId of acknowledged) expect(stored.has(externalId), externalId).toBe(true);
  });
});
