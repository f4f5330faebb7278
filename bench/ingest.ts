import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { countsTowardFigures } from '../src/pos/receipts/receipt-rules.js';
import { checkSalesBuckets } from '../src/pos/sales/sales-bucket-audit.js';
import { buildService } from './build-service.js';
import { openFreshDatabase } from './fresh-database.js';
import { BENCH_ACCOUNT, BENCH_PLACE, benchEvents, benchReceipts, type BenchReceipt } from './sales-data.js';
import { startUploadServer, writeReceiptsFile, type Upload } from './upload-server.js';

// `npm run bench:ingest` (and part of `npm run bench`): receipts sent as one NDJSON upload through the
// admin API of the service as production runs it (`node dist/server.js`, NODE_ENV=production, a process
// of its own: bench/upload-server.ts; POST /admin/v1/pos/accounts/{account}/receipts, sales buckets kept
// in the same transaction), against plain inserts of the same rows into the same table of a fresh database
// in the same run: on SQLite one prepared INSERT run per row in one transaction, on PostgreSQL multi-row
// INSERTs (one array parameter per column) in one transaction; neither baseline keeps buckets. SQLite
// (a file, WAL, synchronous = FULL as served) always; PostgreSQL when BENCH_DATABASE_URL or
// TEST_DATABASE_URL is set (databases of their own, dropped at the end).
//
//   --quick          an upload of 50,000 receipts (under a minute with both databases)
//   (default)        uploads of 100,000 and 1,000,000 receipts
//
// The receipts are the sales benchmark's (bench/sales-data.ts: one place, 365 days, 30% with an event).
// The NDJSON body is written to a temporary file first and streamed from it, so that building it is not
// timed. The peak RSS held to issue 23's target is the server process's (VmHWM), not this process's. Not
// part of the tests' pass/fail.

const TARGET = { sqlite: 50_000, postgres: 15_000 } as const;
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const NOW = Date.UTC(2026, 10, 20, 12);

type Dialect = 'sqlite' | 'postgres';

const count = (n: number) => Math.round(n).toLocaleString('en');
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;
/** This process's CPU time so far (s): on a machine busy with other work, what the wall time hides. */
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * The upload of `size` receipts through the admin API of the built service, in a process of its own on a
 * fresh database: its wall time, the server's CPU seconds and the server's peak RSS (bench/upload-server.ts).
 */
async function throughApi(dialect: Dialect, size: number, body: string) {
  const fresh = await openFreshDatabase(dialect, 'bench-ingest', postgresUrl);
  try {
    const server = await startUploadServer(fresh.url);
    let upload: Upload;
    try {
      upload = await server.upload(body);
    } finally {
      await server.stop();
    }
    const expected = JSON.stringify({ inserted: size, updated: 0, unchanged: 0 });
    if (upload.status !== 200 || upload.text !== expected)
      throw new Error(`upload answered ${upload.status} ${upload.text.slice(0, 200)}`);
    // BENCH_CHECK=true: the buckets the upload kept are checked against the sums of its receipts (what
    // `npm run db:check-buckets` does; minutes on SQLite past a few hundred thousand buckets).
    if (process.env.BENCH_CHECK === 'true') {
      const check = await checkSalesBuckets(fresh.db);
      if (check.differing !== 0) throw new Error(`${check.differing} buckets differ from the receipts' sums`);
    }
    return { seconds: upload.seconds, cpu: upload.cpuSeconds, peak: upload.peakKib * 1024 };
  } finally {
    await fresh.drop();
  }
}

/** A receipt's row as pos_receipts stores it, its columns in table order. */
function row(r: BenchReceipt): unknown[] {
  return [
    BENCH_ACCOUNT,
    r.id,
    BENCH_PLACE,
    r.eventId,
    r.occurredAt,
    r.paymentMethod,
    r.brand,
    r.amountCents,
    r.kind,
    r.status,
    r.demo ? 1 : 0,
    countsTowardFigures(r) ? 1 : 0,
    NOW,
    NOW,
  ];
}

const COLUMNS =
  'account_id, id, place_id, event_id, occurred_at, payment_method, brand, amount_cents, kind, status, demo, counted, received_at, updated_at';

/**
 * Seconds that plain inserts of the same rows take into a fresh database's pos_receipts (no buckets),
 * and this process's CPU seconds meanwhile.
 */
async function plainInserts(dialect: Dialect, size: number): Promise<{ seconds: number; cpu: number }> {
  const fresh = await openFreshDatabase(dialect, 'bench-ingest', postgresUrl);
  try {
    if (dialect === 'sqlite') {
      await fresh.db.destroy();
      const database = new SQLite(fresh.url.slice('file:'.length));
      database.pragma('journal_mode = WAL');
      database.pragma('synchronous = FULL');
      try {
        const insert = database.prepare(
          `insert into pos_receipts (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        const started = performance.now();
        const cpu = cpuSeconds();
        database.transaction(() => {
          for (const receipt of benchReceipts(size, benchEvents())) insert.run(...row(receipt));
        })();
        return { seconds: (performance.now() - started) / 1000, cpu: cpuSeconds() - cpu };
      } finally {
        database.close();
      }
    }
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      const types = ['text', 'text', 'text', 'text', 'int8', 'text', 'text', 'int8', 'text', 'text'];
      const more = ['int4', 'int4', 'int8', 'int8'];
      const unnest = [...types, ...more].map((type, at) => `$${at + 1}::${type}[]`).join(', ');
      const text = `insert into pos_receipts (${COLUMNS}) select * from unnest(${unnest})`;
      const started = performance.now();
      const cpu = cpuSeconds();
      await client.query('begin');
      let batch: unknown[][] = [];
      const flush = async () => {
        if (batch.length === 0) return;
        const columns = batch[0]!.map((_, at) => batch.map((values) => values[at]));
        await client.query({ name: 'bench-plain-insert', text, values: columns });
        batch = [];
      };
      for (const receipt of benchReceipts(size, benchEvents())) {
        batch.push(row(receipt));
        if (batch.length >= 10_000) await flush();
      }
      await flush();
      await client.query('commit');
      return { seconds: (performance.now() - started) / 1000, cpu: cpuSeconds() - cpu };
    } finally {
      await client.end();
    }
  } finally {
    await fresh.drop();
  }
}

/** One line of the printed table. */
interface Line {
  dialect: Dialect;
  size: number;
  api: number;
  plain: number;
  /** CPU seconds: of the server process for the upload; of this process for the plain inserts. */
  apiCpu: number;
  plainCpu: number;
  peak: number;
}

/** One figure of the run against its target (the summary table of bench/run.ts reads these). */
export interface IngestRow {
  name: string;
  database: Dialect;
  /** receipts/s, or MiB for the peak RSS. */
  measured: number;
  /** Plain inserts of the same rows in the same run (receipts/s); null where there is none. */
  baseline: number | null;
  target: string;
  met: boolean;
}

/** Peak RSS of the server process over an upload that issue 23 allows, in MB. */
const RSS_TARGET_MB = 300;

function rowsOf(lines: readonly Line[]): IngestRow[] {
  return lines.flatMap((line): IngestRow[] => [
    {
      name: `NDJSON ingestion, ${count(line.size)} receipts, buckets included (receipts/s)`,
      database: line.dialect,
      measured: Math.round(line.api),
      baseline: Math.round(line.plain),
      target: `>= ${count(TARGET[line.dialect])}/s`,
      met: line.api >= TARGET[line.dialect],
    },
    {
      name: `NDJSON ingestion, ${count(line.size)} receipts: server peak RSS (MB)`,
      database: line.dialect,
      measured: Math.round(line.peak / 1e6),
      baseline: null,
      target: `< ${RSS_TARGET_MB} MB`,
      met: line.peak / 1e6 < RSS_TARGET_MB,
    },
  ]);
}

/**
 * Runs the ingestion bench (`quick`: one upload of 50,000; else 100,000 and 1,000,000), prints each
 * figure beside its target, and returns them.
 */
export async function runIngestBench(options: { quick: boolean }): Promise<IngestRow[]> {
  await buildService();
  const lines: Line[] = [];
  const folder = mkdtempSync(join(tmpdir(), 'bench-ingest-body-'));
  try {
    console.log(
      'NDJSON ingestion through the admin API of the built service (sales buckets included) against plain inserts',
    );
    const dialects: Dialect[] = postgresUrl === undefined ? ['sqlite'] : ['sqlite', 'postgres'];
    if (postgresUrl === undefined)
      console.log('(PostgreSQL skipped: set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
    for (const size of options.quick ? [50_000] : [100_000, 1_000_000]) {
      const body = join(folder, `receipts-${size}.ndjson`);
      const bytes = await writeReceiptsFile(body, size);
      console.log(`  ${count(size)} receipts, ${mib(bytes)} of NDJSON`);
      for (const dialect of dialects) {
        const plain = await plainInserts(dialect, size);
        const api = await throughApi(dialect, size, body);
        lines.push({
          dialect,
          size,
          api: size / api.seconds,
          plain: size / plain.seconds,
          apiCpu: api.cpu,
          plainCpu: plain.cpu,
          peak: api.peak,
        });
        console.log(
          `    ${dialect.padEnd(8)} upload ${api.seconds.toFixed(2)} s (${api.cpu.toFixed(2)} s CPU of the server), ` +
            `plain inserts ${plain.seconds.toFixed(2)} s (${plain.cpu.toFixed(2)} s CPU)`,
        );
      }
      rmSync(body, { force: true });
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  console.log(
    `\nload average at the end: ${loadavg()
      .map((n) => n.toFixed(2))
      .join(', ')}`,
  );
  console.log(
    '\n| database | receipts | upload (receipts/s) | plain inserts (receipts/s) | ratio | target | server peak RSS | target |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |');
  for (const line of lines) {
    const target = TARGET[line.dialect];
    const rss = line.peak / 1e6;
    console.log(
      `| ${line.dialect} | ${count(line.size)} | ${count(line.api)} | ${count(line.plain)} | ` +
        `${(line.plain / line.api).toFixed(1)}x slower | >= ${count(target)}/s ${line.api >= target ? 'met' : 'NOT met'} | ` +
        `${Math.round(rss)} MB | < ${RSS_TARGET_MB} MB ${rss < RSS_TARGET_MB ? 'met' : 'NOT met'} |`,
    );
  }
  return rowsOf(lines);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runIngestBench({ quick: process.argv.includes('--quick') });
}
