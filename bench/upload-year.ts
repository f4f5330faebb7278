import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildService } from './build-service.js';
import { openFreshDatabase } from './fresh-database.js';
import { BENCH_ACCOUNT } from './sales-data.js';
import { startUploadServer, writeReceiptsFile } from './upload-server.js';

// `npx tsx bench/upload-year.ts`: a year of receipts of one place (the sales benchmark's: 365 days, 30%
// with an event) sent as one NDJSON upload to the server as production runs it: `node dist/server.js`
// (built first), NODE_ENV=production, on a fresh PostgreSQL database of its own (BENCH_DATABASE_URL or
// TEST_DATABASE_URL names the server; the database is dropped at the end) or, with `--sqlite` or
// without a PostgreSQL URL, a fresh SQLite file (the embedded default), Redis when REDIS_URL is set,
// every time limit at its default (bench/upload-server.ts). Prints the upload's answer, its wall time and the server process's
// peak resident memory, then checks the sales buckets' totals against the stored receipts: for every slot
// length, the buckets of every receipt and those of the receipts with an event hold as many receipts and
// cents as the counted receipts do (the bucket-by-bucket check, `npm run db:check-buckets`, takes far
// longer at this size). Not part of the tests' pass/fail.
//
//   BENCH_RECEIPTS=200000   a smaller upload (default 1,000,000)
//   BENCH_SERVER_NODE_OPTIONS=--max-semi-space-size=8
//                           the server under other Node.js flags (its NODE_OPTIONS)

const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 1_000_000);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;

const dialect = postgresUrl === undefined || process.argv.includes('--sqlite') ? 'sqlite' : 'postgres';
const folder = mkdtempSync(join(tmpdir(), 'bench-upload-year-'));
const fresh = await openFreshDatabase(dialect, 'bench-upload-year', postgresUrl);
try {
  await buildService();
  const body = join(folder, 'receipts.ndjson');
  const bytes = await writeReceiptsFile(body, RECEIPTS);
  console.log(
    `${RECEIPTS.toLocaleString('en')} receipts, ${Math.round(bytes / 1024 / 1024)} MiB of NDJSON, ${dialect}`,
  );

  const serverEnv: Record<string, string> = {};
  if (process.env.REDIS_URL !== undefined) serverEnv.REDIS_URL = process.env.REDIS_URL;
  if (process.env.BENCH_SERVER_NODE_OPTIONS !== undefined)
    serverEnv.NODE_OPTIONS = process.env.BENCH_SERVER_NODE_OPTIONS;
  const uploads = await startUploadServer(fresh.url, serverEnv);
  try {
    const answer = await uploads.upload(body);
    console.log(`answer: ${answer.status} ${answer.text.slice(0, 300)}`);
    console.log(
      `wall time ${answer.seconds.toFixed(1)} s (${Math.round(RECEIPTS / answer.seconds).toLocaleString('en')} receipts/s), ` +
        `server CPU ${answer.cpuSeconds.toFixed(1)} s; server RSS at rest ${mib(answer.atRestKib)}, peak (VmHWM) ${mib(answer.peakKib)}`,
    );
    if (answer.status === 200) {
      // Written in SQL both databases read: `every` is 1 for the buckets of every receipt, 0 for those of
      // the receipts with an event.
      const { rows: buckets } = await sql<{ slot: string; every: number; n: string; cents: string }>`
        select cast(slot_ms as text) as slot, case when event_id = '' then 1 else 0 end as every,
          cast(sum(receipts) as text) as n, cast(sum(amount_cents) as text) as cents
        from pos_sales_buckets where account_id = ${BENCH_ACCOUNT} group by 1, 2`.execute(fresh.db);
      const { rows: counted } = await sql<{ every: number; n: string; cents: string }>`
        select 1 as every, cast(count(*) as text) as n, cast(sum(amount_cents) as text) as cents
        from pos_receipts where account_id = ${BENCH_ACCOUNT} and counted = 1
        union all
        select 0, cast(count(*) as text), cast(sum(amount_cents) as text)
        from pos_receipts where account_id = ${BENCH_ACCOUNT} and counted = 1 and event_id is not null`.execute(
        fresh.db,
      );
      const differing = buckets.filter((bucket) => {
        const reference = counted.find((row) => row.every === bucket.every);
        return reference?.n !== bucket.n || reference.cents !== bucket.cents;
      });
      console.log(
        `bucket totals against the counted receipts: ${buckets.length} slot lengths and event keys, ${differing.length} differing` +
          ` (${counted.map((row) => `${row.every === 1 ? 'all' : 'with an event'}: ${row.n} receipts, ${row.cents} cents`).join('; ')})`,
      );
      const stored = await fresh.db
        .selectFrom('pos_receipts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      console.log(`receipts stored: ${stored.n.toLocaleString('en')}`);
    }
  } finally {
    await uploads.stop();
  }
} finally {
  await fresh.drop();
  rmSync(folder, { recursive: true, force: true });
}
