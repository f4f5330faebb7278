import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { buildService } from './build-service.js';
import { openFreshDatabase } from './fresh-database.js';
import { BENCH_ACCOUNT, BENCH_PLACE, benchEvents, benchReceipts, receiptBody } from './sales-data.js';

// `npx tsx bench/upload-year.ts`: a year of receipts of one place (the sales benchmark's: 365 days, 30%
// with an event) sent as one NDJSON upload to the server as production runs it: `node dist/server.js`
// (built first), NODE_ENV=production, on a fresh PostgreSQL database of its own (BENCH_DATABASE_URL or
// TEST_DATABASE_URL names the server; the database is dropped at the end) or, with `--sqlite` or
// without a PostgreSQL URL, a fresh SQLite file (the embedded default), Redis when REDIS_URL is set,
// every time limit at its default. Prints the upload's answer, its wall time and the server process's
// peak resident memory, then checks the sales buckets' totals against the stored receipts: for every slot
// length, the buckets of every receipt and those of the receipts with an event hold as many receipts and
// cents as the counted receipts do (the bucket-by-bucket check, `npm run db:check-buckets`, takes far
// longer at this size). Not part of the tests' pass/fail.
//
//   BENCH_RECEIPTS=200000   a smaller upload (default 1,000,000)
//   BENCH_PORT=20500        the public port; the admin port is the next one (default 20500, 20501)

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 1_000_000);
const PORT = Number(process.env.BENCH_PORT ?? 20500);
const ADMIN_PORT = PORT + 1;
const TOKEN = 'bench-admin-token-0123456789';
const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;

const mib = (kib: number) => `${Math.round(kib / 1024)} MiB`;

/** A figure of /proc/<pid>/status in KiB (VmRSS: now; VmHWM: the peak so far). */
function statusKib(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? Number.NaN);
}

/** One call to the admin listener; resolves with the status and the answer's text. */
function admin(method: string, path: string, body?: unknown, ndjson = false) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const call = request(
      {
        port: ADMIN_PORT,
        host: '127.0.0.1',
        method,
        path: `/admin/v1/pos/accounts/${BENCH_ACCOUNT}${path}`,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': ndjson ? 'application/x-ndjson' : 'application/json',
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode ?? 0, text });
        });
      },
    );
    call.on('error', reject);
    if (ndjson && typeof body === 'string') createReadStream(body).on('error', reject).pipe(call);
    else call.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function put(path: string, body: unknown) {
  const answer = await admin('PUT', path, body);
  if (answer.status >= 300) throw new Error(`PUT ${path} answered ${answer.status} ${answer.text}`);
}

/** The receipts as an NDJSON file; returns its size in bytes. */
async function writeBody(path: string): Promise<number> {
  const out = createWriteStream(path);
  let lines = '';
  let count = 0;
  for (const receipt of benchReceipts(RECEIPTS, benchEvents())) {
    lines += `${JSON.stringify(receiptBody(receipt))}\n`;
    count += 1;
    if (count % 10_000 === 0) {
      if (!out.write(lines)) await once(out, 'drain');
      lines = '';
    }
  }
  out.end(lines);
  await once(out, 'finish');
  return out.bytesWritten;
}

const dialect = postgresUrl === undefined || process.argv.includes('--sqlite') ? 'sqlite' : 'postgres';
const folder = mkdtempSync(join(tmpdir(), 'bench-upload-year-'));
const fresh = await openFreshDatabase(dialect, 'bench-upload-year', postgresUrl);
try {
  await buildService();
  const body = join(folder, 'receipts.ndjson');
  const bytes = await writeBody(body);
  console.log(
    `${RECEIPTS.toLocaleString('en')} receipts, ${Math.round(bytes / 1024 / 1024)} MiB of NDJSON, ${dialect}`,
  );

  const server = spawn(process.execPath, ['dist/server.js'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      DATABASE_URL: fresh.url,
      ...(process.env.REDIS_URL === undefined ? {} : { REDIS_URL: process.env.REDIS_URL }),
      HOST: '127.0.0.1',
      PORT: String(PORT),
      ADMIN_PORT: String(ADMIN_PORT),
      ADMIN_TOKEN: TOKEN,
      CURSOR_SECRET: 'bench-cursor-secret-0123456789',
      DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  const pid = server.pid ?? 0;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await admin('GET', '')).status > 0) break;
      } catch (error) {
        if (tries > 600) throw error;
        await sleep(100);
      }
    }
    await put('', { name: 'Bench' });
    await put(`/places/${BENCH_PLACE}`, { name: 'Bar', timezone: 'America/Sao_Paulo' });
    for (const event of benchEvents()) {
      await put(`/places/${BENCH_PLACE}/events/${event.id}`, {
        name: event.name,
        starts_at: new Date(event.startsAt).toISOString(),
        ends_at: new Date(event.endsAt).toISOString(),
        registered_at: new Date(event.startsAt).toISOString(),
      });
    }
    const atRest = statusKib(pid, 'VmRSS');
    let peak = atRest;
    const sampler = setInterval(() => (peak = Math.max(peak, statusKib(pid, 'VmRSS'))), 250);
    const started = performance.now();
    const answer = await admin('POST', '/receipts', body, true);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const hwm = statusKib(pid, 'VmHWM');
    console.log(`answer: ${answer.status} ${answer.text.slice(0, 300)}`);
    console.log(
      `wall time ${seconds.toFixed(1)} s (${Math.round(RECEIPTS / seconds).toLocaleString('en')} receipts/s); server RSS at rest ${mib(atRest)}, peak while uploading ${mib(peak)} (sampled every 250 ms), VmHWM ${mib(hwm)}`,
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
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
} finally {
  await fresh.drop();
  rmSync(folder, { recursive: true, force: true });
}
