import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { App } from '../src/app.js';
import { openDatabase } from '../src/db/database.js';
import { createMemoryRateLimitStore } from '../src/rate-limit/memory-store.js';
import { connectRedisRateLimitStore } from '../src/rate-limit/redis-store.js';
import { startTcpProxy } from '../test/support/tcp-proxy.js';
import { demoTicketApp } from './demo-app.js';

// `npm run bench`, second part: what running as a fleet costs, and how fast it recovers.
// 1. The rate-limit overhead of Redis against the in-process store: the same requests through the whole
//    app (inject, SQLite in memory), and single store operations, as ratios measured in this run.
// 2. Recovery: Redis, then PostgreSQL, cut off for a second through a TCP proxy (every connection dropped
//    and new ones refused, as in a restart) and given back; the time from their return to the first call
//    measured again (Redis) or stored again (PostgreSQL).
// Needs BENCH_REDIS_URL (or TEST_REDIS_URL), and BENCH_DATABASE_URL (or TEST_DATABASE_URL) for the
// PostgreSQL part; what is missing is skipped with a message.

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3000);
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const OUTAGE_MS = 1000;
const RECOVERY_ROUNDS = 5;

async function perCall(run: (i: number) => Promise<unknown>, rounds = ROUNDS): Promise<number> {
  for (let i = 0; i < Math.min(300, rounds); i += 1) await run(-1 - i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < rounds; i += 1) await run(i);
  return Number(process.hrtime.bigint() - start) / rounds / 1000;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const ticketCall = (app: App, key: string, externalId: string) =>
  app.public.inject({
    method: 'POST',
    url: '/v1/api-external-system/help-desk-ticket',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({ external_id: externalId, company: 'acme', description: 'Bench.' }),
  });

async function overhead(url: string): Promise<void> {
  console.log(`\nrate-limit overhead: Redis against the in-process store, ${ROUNDS} requests each`);
  const prefix = `bench:${randomBytes(4).toString('hex')}:`;
  const stores = {
    memory: createMemoryRateLimitStore(),
    redis: await connectRedisRateLimitStore({ url, keyPrefix: prefix, commandTimeoutMs: 1000 }),
  };
  const requests: Record<string, Record<'memory' | 'redis', number>> = {};
  const measureBoth = async (
    name: string,
    run: (store: 'memory' | 'redis', i: number) => Promise<unknown>,
  ) => {
    requests[name] = {
      memory: await perCall((i) => run('memory', i)),
      redis: await perCall((i) => run('redis', i)),
    };
  };
  const apps = {
    memory: await demoTicketApp(openDatabase({ kind: 'sqlite', path: ':memory:' }), stores.memory),
    redis: await demoTicketApp(openDatabase({ kind: 'sqlite', path: ':memory:' }), stores.redis),
  };
  await measureBoth('GET help-desk-ticket-options', (store) =>
    apps[store].app.public.inject({
      url: '/v1/api-external-system/help-desk-ticket-options',
      headers: { authorization: `Bearer ${apps[store].key}` },
    }),
  );
  await measureBoth('POST help-desk-ticket (new, 201)', (store, i) =>
    ticketCall(apps[store].app, apps[store].key, `bench-${i}`),
  );
  const now = () => Date.now();
  await measureBoth('store: take (one sliding window)', (store, i) =>
    stores[store].take(`w${i % 100}`, 1_000_000, 60_000, now()),
  );
  await measureBoth('store: takeAll (key + account windows)', (store, i) =>
    stores[store].takeAll(
      [
        { key: `{a${i % 10}}:k`, limit: 1_000_000 },
        { key: `{a${i % 10}}:a`, limit: 1_000_000 },
      ],
      60_000,
      now(),
    ),
  );
  await measureBoth('store: acquire + release (a sales lease)', async (store) => {
    const lease = await stores[store].acquire('lease', 1_000_000, 30_000, now());
    if (lease.acquired) await stores[store].release('lease', lease.token);
  });
  for (const [name, { memory, redis }] of Object.entries(requests)) {
    console.log(
      `  ${name.padEnd(42)} in-process ${memory.toFixed(1).padStart(7)} µs, Redis ${redis
        .toFixed(1)
        .padStart(7)} µs: ${(redis / memory).toFixed(2)}x`,
    );
  }
  for (const { app } of Object.values(apps)) await app.close();
}

/** Cuts the path to a server for OUTAGE_MS while a client calls every 10 ms; ms to the first good call. */
async function recovery(
  proxy: Awaited<ReturnType<typeof startTcpProxy>>,
  good: (i: number) => Promise<boolean>,
): Promise<number[]> {
  const times: number[] = [];
  let i = 0;
  for (let round = 0; round < RECOVERY_ROUNDS; round += 1) {
    await proxy.refuse();
    const until = Date.now() + OUTAGE_MS;
    while (Date.now() < until) {
      await good((i += 1));
      await pause(10);
    }
    await proxy.restore();
    const back = Date.now();
    while (!(await good((i += 1)))) await pause(10);
    times.push(Date.now() - back);
    await pause(200);
  }
  return times;
}

async function redisRecovery(url: string): Promise<void> {
  const target = new URL(url);
  const proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 6379) });
  const store = await connectRedisRateLimitStore({
    url: proxy.url(url),
    keyPrefix: `bench:${randomBytes(4).toString('hex')}:`,
    commandTimeoutMs: 500,
  });
  const { app, key } = await demoTicketApp(openDatabase({ kind: 'sqlite', path: ':memory:' }), store);
  const times = await recovery(
    proxy,
    async (i) => (await ticketCall(app, key, `r-${i}`)).headers['x-ratelimit-remaining'] !== undefined,
  );
  console.log(
    `  Redis back → calls measured again: median ${median(times)} ms, max ${Math.max(...times)} ms (${times.join(', ')})`,
  );
  await app.close();
  await proxy.close();
}

async function postgresRecovery(url: string): Promise<void> {
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const server = openDatabase({ kind: 'postgres', url }, { poolSize: 1 });
  await sql`create database ${sql.id(name)}`.execute(server);
  const databaseUrl = new URL(url);
  databaseUrl.pathname = `/${name}`;
  const proxy = await startTcpProxy({
    targetHost: databaseUrl.hostname,
    targetPort: Number(databaseUrl.port || 5432),
  });
  const db = openDatabase(
    { kind: 'postgres', url: proxy.url(databaseUrl.toString()) },
    { connectTimeoutMs: 1000, queryTimeoutMs: 5000 },
  );
  try {
    const { app, key } = await demoTicketApp(db, createMemoryRateLimitStore());
    const times = await recovery(
      proxy,
      async (i) => (await ticketCall(app, key, `p-${i}`)).statusCode === 201,
    );
    console.log(
      `  PostgreSQL back → tickets stored again: median ${median(times)} ms, max ${Math.max(...times)} ms (${times.join(', ')})`,
    );
    await app.close();
  } finally {
    await db.destroy();
    await proxy.close();
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
    await server.destroy();
  }
}

if (redisUrl === undefined) {
  console.log('\nfleet: skipped, set BENCH_REDIS_URL (or TEST_REDIS_URL) to measure Redis');
} else {
  await overhead(redisUrl);
  console.log(`\nrecovery after a ${OUTAGE_MS} ms outage (${RECOVERY_ROUNDS} rounds, a call every 10 ms)`);
  await redisRecovery(redisUrl);
  if (postgresUrl === undefined)
    console.log('  PostgreSQL: skipped, set BENCH_DATABASE_URL (or TEST_DATABASE_URL)');
  else await postgresRecovery(postgresUrl);
}
