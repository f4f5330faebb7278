import { SERVICE_ACTOR } from '../src/audit/actor.js';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { buildApp, type App } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { type Db } from '../src/db/database.js';
import { isPostgres } from '../src/db/dialect.js';
import { createBucketSalesReader } from '../src/pos/sales/bucket-sales-reader.js';
import { rawSalesReader } from '../src/pos/sales/raw-sales-reader.js';
import { rebuildSalesBuckets } from '../src/pos/sales/sales-bucket-audit.js';
import { SLOT_LENGTHS } from '../src/pos/sales/sales-bucket-layout.js';
import type { SalesReader } from '../src/pos/sales/sales-reader.js';
import { createServices, type Services } from '../src/services.js';
import { openFreshDatabase } from './fresh-database.js';
import { recordTargets, targetCell } from './targets.js';
import {
  BENCH_ACCOUNT,
  BENCH_PLACE,
  benchEvents,
  benchReceipts,
  loadReceipts,
  receiptBody,
} from './sales-data.js';
import { posDataOutcomeValue } from '../src/pos/places/pos-data-refusal.js';
import { keyOutcomeValue } from '../src/pos/keys/merchant-key-problem.js';

// `npm run bench:sales` (and part of `npm run bench`): the receipts-by-payment-method route over one busy
// place, read from the pre-aggregated buckets, against a covering-index scan of the same raw receipts
// (the fastest the raw receipts can be summed) measured in the same run, and how the route's time grows
// from 100,000 to 1,000,000 receipts. SQLite (a file in a temporary directory) always; PostgreSQL when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set (a database of its own, dropped at the end).
//
//   --quick                  100,000 and 10,000 receipts, fewer rounds (under a minute)
//   BENCH_SLOTS=15m,1h,1d    another slot layout (the buckets are rebuilt in it), to compare layouts
//
// The receipts are bulk-loaded (multi-row inserts, then a bucket rebuild), not sent through the admin
// API. Timings of things compared are taken in turns, spread evenly over one sequence, so that a machine
// busy with other work slows them alike. Not part of the tests' pass/fail.

const quick = process.argv.includes('--quick');
const SIZES = quick ? ([100_000, 10_000] as const) : ([1_000_000, 100_000] as const);
const ROUNDS = { route: quick ? 40 : 200, raw: quick ? 3 : 5, baseline: quick ? 8 : 20, writes: 10 };
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const UNIT: Record<string, number> = { m: MINUTE, h: HOUR, d: DAY };

/** `15m,1h,4h` → slot lengths in ms. */
function parseSlots(text: string): number[] {
  return text.split(',').map((part) => {
    const match = /^(\d+)([mhd])$/.exec(part.trim());
    if (match === null) throw new Error(`BENCH_SLOTS: "${part}" is not a length such as 15m, 4h or 1d`);
    return Number(match[1]) * UNIT[match[2]!]!;
  });
}
const slotName = (ms: number) =>
  ms % DAY === 0 ? `${ms / DAY}d` : ms % HOUR === 0 ? `${ms / HOUR}h` : `${ms / MINUTE}m`;
const lengths = process.env.BENCH_SLOTS === undefined ? SLOT_LENGTHS : parseSlots(process.env.BENCH_SLOTS);
const bucketReader = createBucketSalesReader(lengths);

/** The measured query: 120 days, bounds at :30 past local midnight in UTC-03:00. */
const PERIOD = { from: '2026-06-01T00:00:30-03:00', to: '2026-09-29T00:00:30-03:00' };
/** The same days at local midnights of UTC+05:45 (bounds on quarter-hours). */
const PERIOD_0545 = { from: '2026-06-01T00:00:00+05:45', to: '2026-09-29T00:00:00+05:45' };
/** Two years: one event's whole life (no period limit with an event). */
const TWO_YEARS = { from: '2025-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };

const salesUrl = (period: { from: string; to: string }, event?: string) =>
  `/v1/api-public/sales/by-payment-method?place=${BENCH_PLACE}&from=${encodeURIComponent(period.from)}` +
  `&to=${encodeURIComponent(period.to)}${event === undefined ? '' : `&event=${event}`}`;

/** A clock moved a rate window (61 s) before every call, so that no call meets the key's quota. */
class SteppingClock implements Clock {
  constructor(private ms: number) {}
  now(): number {
    return this.ms;
  }
  step(): void {
    this.ms += 61_000;
  }
}

/** Something timed: `rounds` times, after three warm-up runs. */
interface Timed {
  name: string;
  rounds: number;
  run: () => Promise<unknown>;
}

/**
 * The median time (ms) of each, their rounds spread evenly over one sequence: the k-th round of a task
 * of n rounds sits at (k + 1/2) / n of it, so tasks of few rounds are interleaved with those of many.
 */
async function p50s(tasks: readonly Timed[]): Promise<Map<string, number>> {
  for (const task of tasks) for (let i = 0; i < 3; i += 1) await task.run();
  const order = tasks
    .flatMap((task, index) =>
      Array.from({ length: task.rounds }, (_, k) => ({ index, at: (k + 0.5) / task.rounds })),
    )
    .sort((a, b) => a.at - b.at);
  const times = tasks.map((): number[] => []);
  for (const { index } of order) {
    const start = process.hrtime.bigint();
    await tasks[index]!.run();
    times[index]!.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return new Map(
    tasks.map((task, index) => {
      const sorted = times[index]!.sort((a, b) => a - b);
      return [task.name, sorted[Math.floor(sorted.length / 2)]!];
    }),
  );
}

const ms = (value: number) => `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
const times = (value: number) => `${value.toFixed(value < 10 ? 2 : 1)}x`;
const seconds = (started: number) => `${((performance.now() - started) / 1000).toFixed(1)} s`;
const count = (n: number) => n.toLocaleString('en');

/** One place's receipts loaded into a database of its own, and the apps that answer from it. */
interface Place {
  size: number;
  db: Db;
  services: Services;
  apps: { buckets: App; raw: App };
  /** A GET of the sales route with the merchant's key, through one app; throws unless 200. */
  route(app: 'buckets' | 'raw', url: string): () => Promise<string>;
  close(): Promise<void>;
}

async function loadPlace(dialect: 'sqlite' | 'postgres', size: number): Promise<Place> {
  const fresh = await openFreshDatabase(dialect, 'bench-sales', postgresUrl);
  const { db } = fresh;
  const config = loadConfig({ NODE_ENV: 'test', ADMIN_TOKEN: 'bench-admin-token-0123', LOG_LEVEL: 'silent' });
  const clock = new SteppingClock(Date.UTC(2026, 10, 20, 12));
  const servicesWith = (salesReader: SalesReader) => createServices({ db, clock, config, salesReader });
  const services = servicesWith(bucketReader);
  await services.posData.putAccount(BENCH_ACCOUNT, {
    name: 'Bench',
    currency: 'BRL',
    active: true,
    email: null,
  });
  posDataOutcomeValue(
    await services.posData.putPlace(BENCH_ACCOUNT, BENCH_PLACE, {
      name: 'Bar',
      timezone: 'America/Sao_Paulo',
      active: true,
    }),
  );
  const events = benchEvents();
  for (const event of events) {
    posDataOutcomeValue(
      await services.posData.putEvent(BENCH_ACCOUNT, BENCH_PLACE, event.id, {
        name: event.name,
        starts_at: event.startsAt,
        ends_at: event.endsAt,
        active: true,
        registered_at: event.startsAt,
      }),
    );
  }
  const { key } = keyOutcomeValue(
    await services.merchantKeys.create(
      BENCH_ACCOUNT,
      {
        name: 'Bench',
        permissions: ['sale-by-payment-method.view'],
        places: 'all',
      },
      SERVICE_ACTOR,
    ),
  );

  let started = performance.now();
  await loadReceipts(db, benchReceipts(size, events), clock.now());
  const loaded = seconds(started);
  started = performance.now();
  const buckets = await rebuildSalesBuckets(db, { lengths });
  const rebuilt = seconds(started);
  // As after a while of autovacuum: statistics, and PostgreSQL's visibility map (index-only scans).
  if (isPostgres(db)) await sql`vacuum analyze pos_receipts, pos_sales_buckets`.execute(db);
  else await sql`analyze`.execute(db);
  console.log(
    `  ${count(size)} receipts loaded in ${loaded}; ${count(buckets)} buckets rebuilt from them in ${rebuilt}`,
  );

  const apps = {
    buckets: buildApp(config, { services, logger: false }),
    raw: buildApp(config, { services: servicesWith(rawSalesReader), logger: false }),
  };
  return {
    size,
    db,
    services,
    apps,
    route: (app, url) => async () => {
      clock.step();
      const response = await apps[app].public.inject({ url, headers: { authorization: `Bearer ${key}` } });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.body;
    },
    close: async () => {
      await apps.buckets.close();
      await apps.raw.close();
      await fresh.drop();
    },
  };
}

/** The raw receipts of the period summed by the raw reader's query, straight on the database. */
const rawScan = (place: Place) => () =>
  rawSalesReader.receiptGroups(place.db, {
    accountId: BENCH_ACCOUNT,
    placeId: BENCH_PLACE,
    eventId: null,
    from: Date.parse(PERIOD.from),
    to: Date.parse(PERIOD.to),
  });

async function measure(dialect: 'sqlite' | 'postgres'): Promise<void> {
  console.log(`\n${dialect === 'sqlite' ? 'SQLite (a file, WAL)' : 'PostgreSQL'}`);
  const [large, small] = [await loadPlace(dialect, SIZES[0]), await loadPlace(dialect, SIZES[1])];
  try {
    const event = benchEvents()[52]!.id;
    // Both readers answer the same figures (the contract test checks it; here on this data too).
    for (const place of [large, small]) {
      for (const url of [salesUrl(PERIOD), salesUrl(PERIOD_0545), salesUrl(TWO_YEARS, event)]) {
        if ((await place.route('buckets', url)()) !== (await place.route('raw', url)()))
          throw new Error(`the bucket reader and the raw reader answer ${url} differently`);
      }
    }

    // 1. The route as served, on the tables as they are.
    const route = await p50s([
      { name: 'large', rounds: ROUNDS.route, run: large.route('buckets', salesUrl(PERIOD)) },
      { name: 'small', rounds: ROUNDS.route, run: small.route('buckets', salesUrl(PERIOD)) },
      { name: '0545', rounds: ROUNDS.route, run: large.route('buckets', salesUrl(PERIOD_0545)) },
      { name: 'event', rounds: ROUNDS.route, run: large.route('buckets', salesUrl(TWO_YEARS, event)) },
      { name: 'raw large', rounds: ROUNDS.raw, run: large.route('raw', salesUrl(PERIOD)) },
      { name: 'raw small', rounds: ROUNDS.raw * 4, run: small.route('raw', salesUrl(PERIOD)) },
    ]);
    // 2. The baseline: the same raw receipts summed through an index that covers every column the query
    // reads (no table row visited), created for this only; the bucket route timed in the same turns.
    for (const place of [large, small]) {
      await place.db.schema
        .createIndex('bench_receipts_covering')
        .on('pos_receipts')
        .columns([
          'account_id',
          'place_id',
          'occurred_at',
          'counted',
          'payment_method',
          'brand',
          'amount_cents',
        ])
        .execute();
      if (isPostgres(place.db)) await sql`vacuum analyze pos_receipts`.execute(place.db);
      else await sql`analyze`.execute(place.db);
    }
    const baseline = await p50s([
      { name: 'large', rounds: ROUNDS.baseline, run: rawScan(large) },
      { name: 'small', rounds: ROUNDS.baseline * 4, run: rawScan(small) },
      { name: 'route', rounds: ROUNDS.route, run: large.route('buckets', salesUrl(PERIOD)) },
    ]);
    for (const place of [large, small]) await place.db.schema.dropIndex('bench_receipts_covering').execute();

    // 3. What keeping the buckets costs a write: new receipts of the last days through the receipts
    // service (as POST receipts sends them, 1,000 a call), receipts and buckets in one transaction.
    const written = [...benchReceipts(ROUNDS.writes * 1000, benchEvents(), 7)].map((r, i) =>
      receiptBody({
        ...r,
        id: `W${i}`,
        occurredAt: Date.parse('2026-11-18T03:00:00Z') + (r.occurredAt % (2 * DAY)),
      }),
    );
    const started = performance.now();
    for (let call = 0; call < ROUNDS.writes; call += 1) {
      const receipts = written.slice(call * 1000, (call + 1) * 1000);
      await large.services.receipts.importJson(
        BENCH_ACCOUNT,
        Readable.from([Buffer.from(JSON.stringify({ receipts }))]),
      );
    }
    const perCall = (performance.now() - started) / ROUNDS.writes;

    const of = (map: Map<string, number>, name: string) => map.get(name)!;
    const n = (place: Place) => `${count(place.size)} receipts`;
    console.log(`  120 days, bounds at :30 in UTC-03:00 (${PERIOD.from} to ${PERIOD.to}), p50:`);
    console.log(
      `    sales route, bucket reader, ${n(large)}: ${ms(of(route, 'large'))}; ${n(small)}: ${ms(of(route, 'small'))}`,
    );
    console.log(
      `    sales route, raw reader,    ${n(large)}: ${ms(of(route, 'raw large'))}; ${n(small)}: ${ms(of(route, 'raw small'))}`,
    );
    console.log(
      `    the same days at +05:45 midnights, bucket reader, ${n(large)}: ${ms(of(route, '0545'))}`,
    );
    console.log(`    one event over two years, bucket reader, ${n(large)}: ${ms(of(route, 'event'))}`);
    console.log(
      `    baseline, covering-index scan of the raw receipts, ${n(large)}: ${ms(of(baseline, 'large'))}; ${n(small)}: ${ms(of(baseline, 'small'))}` +
        ` (bucket route in the same turns: ${ms(of(baseline, 'route'))})`,
    );
    console.log(
      `  => bucket route ${times(of(baseline, 'large') / of(baseline, 'route'))} faster than the baseline at ${n(large)} (target: at least 20x)`,
    );
    const faster = of(baseline, 'large') / of(baseline, 'route');
    const growth = of(route, 'large') / of(route, 'small');
    recordTargets(
      {
        figure: `sales route, 120 days, ${n(large)}, p50`,
        database: dialect,
        measured: ms(of(baseline, 'route')),
        baseline: `${ms(of(baseline, 'large'))} (covering-index scan)`,
        ratio: `${times(faster)} faster`,
        target: targetCell('>= 20x faster', faster >= 20),
        met: faster >= 20,
      },
      {
        figure: `sales route growth, ${n(large)} vs ${n(small)}`,
        database: dialect,
        measured: ms(of(route, 'large')),
        baseline: `${ms(of(route, 'small'))} (${n(small)})`,
        ratio: times(growth),
        target: targetCell('<= 1.5x', growth <= 1.5),
        met: growth <= 1.5,
      },
    );
    console.log(
      `  => growth ${count(large.size)} vs ${count(small.size)} receipts: bucket route ${times(of(route, 'large') / of(route, 'small'))} (target: at most 1.5x);` +
        ` raw route ${times(of(route, 'raw large') / of(route, 'raw small'))}, baseline ${times(of(baseline, 'large') / of(baseline, 'small'))}`,
    );
    console.log(
      `  writes: 1,000 new receipts a call through the receipts service with their buckets: ${ms(perCall)} a call (${count(Math.round(1000 / (perCall / 1000)))} receipts/s)`,
    );
  } finally {
    await large.close();
    await small.close();
  }
}

console.log('sales by payment method: one place, receipts over 365 days (30% with an event)');
console.log(`slots: ${lengths.map(slotName).join(', ')}`);
const dialects: ('sqlite' | 'postgres')[] = postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
if (postgresUrl === undefined)
  console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
for (const dialect of dialects) await measure(dialect);
