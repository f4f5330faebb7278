import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../src/db/database.js';
import { isPostgres } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createBucketSalesReader } from '../src/pos/sales/bucket-sales-reader.js';
import { rebuildSalesBuckets } from '../src/pos/sales/sales-bucket-audit.js';
import { periodReading, SLOT_LENGTHS } from '../src/pos/sales/sales-bucket-layout.js';
import type { SalesQuery } from '../src/pos/sales/sales-reader.js';
import { applyBucketDeltas } from '../src/pos/sales/sales-bucket-writes.js';
import { bucketDeltas, type ReceiptChange } from '../src/pos/sales/sales-buckets.js';
import { BENCH_ACCOUNT, BENCH_PLACE, benchEvents, benchReceipts, loadReceipts } from './sales-data.js';

// `npm run bench:layouts [-- --quick]`: how the slot layout of the sales buckets was chosen. One place's receipts (1,000,000 over 365 days; --quick: 100,000) are loaded
// once, then for each candidate layout the buckets are rebuilt and measured: how many there are, how many
// a query reads and in how many index ranges (counted, so independent of the machine's load), the reader's
// p50 on the database alone, and what a write costs in bucket upserts (counted) and time: 1,000 new
// receipts of one day, and 1,000 corrections spread over the year. SQLite always; PostgreSQL too when
// BENCH_DATABASE_URL or TEST_DATABASE_URL is set. Not part of the tests' pass/fail.

const quick = process.argv.includes('--quick');
const SIZE = quick ? 100_000 : 1_000_000;
const ROUNDS = quick ? 30 : 100;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const M = 60_000;
const H = 60 * M;
const D = 24 * H;
const LAYOUTS: Record<string, readonly number[]> = {
  'chosen: 15m x4 to 1024h': SLOT_LENGTHS,
  '15m x4 to 4096h': [15 * M, H, 4 * H, 16 * H, 64 * H, 256 * H, 1024 * H, 4096 * H],
  '15m, 1h, 1d': [15 * M, H, D],
  '15m, 1h, 1d, 8d, 64d': [15 * M, H, D, 8 * D, 64 * D],
  '15m x8 to 1024h': [15 * M, 2 * H, 16 * H, 128 * H, 1024 * H],
  '15m, 1h, 4h, 1d, 4d, 16d, 64d': [15 * M, H, 4 * H, D, 4 * D, 16 * D, 64 * D],
  '1h x4 to 4096h (no 15m)': [H, 4 * H, 16 * H, 64 * H, 256 * H, 1024 * H, 4096 * H],
  '15m x2 to 170d': Array.from({ length: 15 }, (_, k) => 15 * M * 2 ** k),
};

const query = (from: string, to: string, eventId: string | null = null): SalesQuery => ({
  accountId: BENCH_ACCOUNT,
  placeId: BENCH_PLACE,
  eventId,
  from: Date.parse(from),
  to: Date.parse(to),
});
const QUERIES: Record<string, SalesQuery> = {
  '120d :30 -03:00': query('2026-06-01T00:00:30-03:00', '2026-09-29T00:00:30-03:00'),
  '120d +05:45': query('2026-06-01T00:00:00+05:45', '2026-09-29T00:00:00+05:45'),
  'event, 2 years': query('2025-01-01T00:00:00Z', '2027-01-01T00:00:00Z', benchEvents()[52]!.id),
  '7d -03:00': query('2026-11-13T00:00:00-03:00', '2026-11-20T00:00:00-03:00'),
};

/**
 * Forty periods of 120 days over the year of receipts, each starting at :30 past a local midnight of a
 * different offset (−03:00, +05:45, −03:30, +14:00, Z): what a layout reads on average, not on one query.
 */
const RANDOM_PERIODS: SalesQuery[] = Array.from({ length: 40 }, (_, i) => {
  const offsetMinutes = [-180, 345, -210, 840, 0][i % 5]!;
  const from = Date.parse('2025-11-20T00:00:30Z') - offsetMinutes * M + ((i * 37) % 240) * D;
  return { accountId: BENCH_ACCOUNT, placeId: BENCH_PLACE, eventId: null, from, to: from + 120 * D };
});

async function p50(rounds: number, run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
}

/** How many buckets (and raw receipts) a query reads with the layout, and in how many index ranges. */
async function rowsRead(db: Db, q: SalesQuery, lengths: readonly number[]): Promise<string> {
  const { buckets, raw, ranges } = await readCounts(db, q, lengths);
  return `${buckets}+${raw} in ${ranges}`;
}

async function readCounts(
  db: Db,
  q: SalesQuery,
  lengths: readonly number[],
): Promise<{ buckets: number; raw: number; ranges: number }> {
  const reading = periodReading(q.from, q.to, lengths);
  let buckets = 0;
  for (const run of reading.slots) {
    const { n } = await db
      .selectFrom('pos_sales_buckets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('account_id', '=', q.accountId)
      .where('place_id', '=', q.placeId)
      .where('event_id', '=', q.eventId ?? '')
      .where('slot_ms', '=', run.length)
      .where('slot_start', '>=', run.from)
      .where('slot_start', '<', run.to)
      .executeTakeFirstOrThrow();
    buckets += Number(n);
  }
  let raw = 0;
  for (const range of reading.raw) {
    let select = db
      .selectFrom('pos_receipts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('occurred_at', '>=', range.from)
      .where('occurred_at', '<', range.to);
    if (q.eventId !== null) select = select.where('event_id', '=', q.eventId);
    raw += Number((await select.executeTakeFirstOrThrow()).n);
  }
  return { buckets, raw, ranges: reading.slots.length + reading.raw.length };
}

/** The time of applying the changes' deltas, in a transaction rolled back (median of 5). */
async function writeTime(db: Db, changes: ReceiptChange[], lengths: readonly number[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    await db
      .transaction()
      .execute(async (trx) => {
        await applyBucketDeltas(trx, bucketDeltas(BENCH_ACCOUNT, changes, lengths));
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[2]!;
}
class RolledBack extends Error {}

async function compare(dialect: 'sqlite' | 'postgres'): Promise<void> {
  let db: Db;
  let drop: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'bench-layouts-'));
    db = openDatabase({ kind: 'sqlite', path: join(dir, 'bench.sqlite') });
    drop = async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const name = `bench_${randomBytes(6).toString('hex')}`;
    const server = openDatabase({ kind: 'postgres', url: postgresUrl! }, { poolSize: 1 });
    await sql`create database ${sql.id(name)}`.execute(server);
    const url = new URL(postgresUrl!);
    url.pathname = `/${name}`;
    db = openDatabase({ kind: 'postgres', url: url.toString() });
    drop = async () => {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
      await server.destroy();
    };
  }
  try {
    await migrateToLatest(db);
    await db
      .insertInto('pos_accounts')
      .values({ id: BENCH_ACCOUNT, name: 'Bench', currency: 'BRL', active: 1, created_at: 0, updated_at: 0 })
      .execute();
    await db
      .insertInto('pos_places')
      .values({
        account_id: BENCH_ACCOUNT,
        id: BENCH_PLACE,
        name: 'Bar',
        timezone: 'America/Sao_Paulo',
        active: 1,
        created_at: 0,
        updated_at: 0,
      })
      .execute();
    await loadReceipts(db, benchReceipts(SIZE, benchEvents()), 0);
    // 1,000 new receipts of the last day, as devices send them; 1,000 corrections anywhere in the year.
    const fresh: ReceiptChange[] = [...benchReceipts(1000, benchEvents(), 7)].map((r) => ({
      before: undefined,
      after: {
        ...r,
        placeId: BENCH_PLACE,
        occurredAt: Date.parse('2026-11-19T03:00:00Z') + (r.occurredAt % D),
        counted: true,
      },
    }));
    const corrections: ReceiptChange[] = [...benchReceipts(1000, benchEvents(), 9)].map((r) => ({
      before: { ...r, placeId: BENCH_PLACE, counted: true },
      after: { ...r, placeId: BENCH_PLACE, amountCents: 100, counted: true },
    }));
    console.log(`\n${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${SIZE.toLocaleString('en')} receipts`);
    console.log(
      'layout | buckets | read: buckets+raw receipts in index ranges, p50 (' +
        Object.keys(QUERIES).join('; ') +
        '; mean of 40 periods of 120 days) | upserts and time of 1,000 new receipts of a day; of 1,000 corrections over the year',
    );
    for (const [name, lengths] of Object.entries(LAYOUTS)) {
      const buckets = await rebuildSalesBuckets(db, { lengths });
      if (isPostgres(db)) await sql`vacuum analyze pos_receipts, pos_sales_buckets`.execute(db);
      else await sql`analyze`.execute(db);
      const reader = createBucketSalesReader(lengths);
      const reads: string[] = [];
      for (const q of Object.values(QUERIES)) {
        const time = await p50(ROUNDS, () => reader.receiptGroups(db, q));
        reads.push(`${await rowsRead(db, q, lengths)}, ${time.toFixed(2)} ms`);
      }
      let [sumBuckets, sumRaw, sumRanges] = [0, 0, 0];
      for (const q of RANDOM_PERIODS) {
        const counts = await readCounts(db, q, lengths);
        [sumBuckets, sumRaw, sumRanges] = [
          sumBuckets + counts.buckets,
          sumRaw + counts.raw,
          sumRanges + counts.ranges,
        ];
      }
      const n = RANDOM_PERIODS.length;
      reads.push(`${Math.round(sumBuckets / n)}+${Math.round(sumRaw / n)} in ${(sumRanges / n).toFixed(1)}`);
      const writes = [fresh, corrections].map(
        (changes) => bucketDeltas(BENCH_ACCOUNT, changes, lengths).length,
      );
      const [freshTime, correctionTime] = [
        await writeTime(db, fresh, lengths),
        await writeTime(db, corrections, lengths),
      ];
      console.log(
        `${name} | ${buckets.toLocaleString('en')} | ${reads.join('; ')} | ` +
          `${writes[0]}, ${freshTime.toFixed(0)} ms; ${writes[1]}, ${correctionTime.toFixed(0)} ms`,
      );
    }
  } finally {
    await drop();
  }
}

await compare('sqlite');
if (postgresUrl !== undefined) await compare('postgres');
