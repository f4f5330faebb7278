import Fastify from 'fastify';
import { openDatabase } from '../src/db/database.js';
import { demoTicketApp } from './demo-app.js';
import { printTargets, recordTargets, targetCell } from './targets.js';
import { benchTicketPath, printTable } from './ticket-path.js';

// `npm run bench` (`-- --quick`: fewer rounds and shorter loads, under a minute without PostgreSQL and
// Redis): time per request of the ticket API through the whole app (inject, no sockets), as a
// ratio to a bare Fastify route measured in the same run. Not part of the tests' pass/fail.

const QUICK = process.argv.includes('--quick');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 300 : 3000));

async function measure(name: string, run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < Math.min(300, ROUNDS); i += 1) await run(-1 - i); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i += 1) await run(i);
  const perCall = Number(process.hrtime.bigint() - start) / ROUNDS / 1000;
  console.log(`${name.padEnd(44)} ${perCall.toFixed(1).padStart(8)} µs/request`);
  return perCall;
}

const bare = Fastify();
bare.get('/ping', () => ({ ok: true }));
await bare.ready();

const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
const { app, key } = await demoTicketApp(db);

const auth = { authorization: `Bearer ${key}` };
const json = { ...auth, 'content-type': 'application/json' };
const body = (id: string) =>
  JSON.stringify({
    external_id: id,
    company: 'acme',
    description: 'Printer jams on receipt 3.',
    category: 10,
  });

console.log(`ticket API, ${ROUNDS} requests each, SQLite in memory`);
const baseline = await measure('baseline: bare Fastify GET', () => bare.inject({ url: '/ping' }));
const results: [string, number][] = [
  [
    'GET help-desk-ticket-options',
    await measure('GET help-desk-ticket-options', () =>
      app.public.inject({ url: '/v1/api-external-system/help-desk-ticket-options', headers: auth }),
    ),
  ],
  [
    'POST help-desk-ticket (new, 201)',
    await measure('POST help-desk-ticket (new, 201)', (i) =>
      app.public.inject({
        method: 'POST',
        url: '/v1/api-external-system/help-desk-ticket',
        headers: json,
        payload: body(`bench-${i}`),
      }),
    ),
  ],
  [
    'POST help-desk-ticket (duplicate, 200)',
    await measure('POST help-desk-ticket (duplicate, 200)', () =>
      app.public.inject({
        method: 'POST',
        url: '/v1/api-external-system/help-desk-ticket',
        headers: json,
        payload: body('bench-1'),
      }),
    ),
  ],
  [
    'POST with an unknown key (401)',
    await measure('POST with an unknown key (401)', () =>
      app.public.inject({
        method: 'POST',
        url: '/v1/api-external-system/help-desk-ticket',
        headers: { ...json, authorization: `Bearer gtes_${'x'.repeat(43)}` },
        payload: body('x'),
      }),
    ),
  ],
];
console.log('\nratio to the baseline (lower is better):');
for (const [name, perCall] of results)
  console.log(`  ${name.padEnd(42)} ${(perCall / baseline).toFixed(1)}x`);

await app.close();
await bare.close();
await db.destroy();

// The ticket path on real listening servers, each figure against its baseline of this run.
const ticketRows = await benchTicketPath({ quick: QUICK });
printTable('ticket path on real listeners (autocannon)', ticketRows);
recordTargets(...ticketRows.filter((row) => row.met !== undefined));

// What one POS call costs the shared store, in operations (round trips to Redis), from the service's own
// metrics: a figure the machine's load does not move (bench/store-round-trips.ts).
const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
if (redisUrl !== undefined) {
  const { storeOperationsPerPing } = await import('./store-round-trips.js');
  const perCall = await storeOperationsPerPing(redisUrl);
  console.log('\nrate-limit store operations per POS ping (Redis):');
  for (const [operation, n] of perCall) console.log(`  ${operation.padEnd(14)} ${n.toFixed(2)}`);
}

// The sales route over pre-aggregated buckets against a covering-index scan (bench/sales.ts, which reads
// --quick from the same command line).
await import('./sales.js');

// The events of one place at depth: page 1,000 and a rare-word search against page 1, and the creation
// rate through the admin API as the place grows (bench/events.ts, which reads --quick too).
await import('./events.js');

// NDJSON ingestion through the admin API against plain inserts of the same rows (bench/ingest.ts): its
// figures beside their targets, returned as rows too.
const { runIngestBench } = await import('./ingest.js');
recordTargets(
  ...(await runIngestBench({ quick: QUICK })).map((row) => ({
    figure: row.name,
    database: row.database,
    measured: row.measured.toLocaleString('en-US'),
    baseline: row.baseline === null ? '-' : `${row.baseline.toLocaleString('en-US')} (plain inserts)`,
    ratio: row.baseline === null ? '-' : `${(row.baseline / row.measured).toFixed(1)}x slower`,
    target: targetCell(row.target, row.met),
    met: row.met,
  })),
);

// Then what running as a fleet costs (bench/fleet.ts; it reads BENCH_ROUNDS when it loads).
if (QUICK) process.env.BENCH_ROUNDS ??= String(ROUNDS);
await import('./fleet.js');

// Last, every figure held to a target, beside it (bench/targets.ts).
printTargets();
