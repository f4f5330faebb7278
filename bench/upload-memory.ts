import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createServices } from '../src/services.js';

// `npx tsx bench/upload-memory.ts`: the memory that four receipts uploads in the JSON form take at once
// (docs/admin-rules.md, Point of sale: `{receipts: [...]}`, up to 10,000 per call). Each body holds 10,000
// receipts with every text written as \u escapes (about 30 MB): the largest a batch legitimately gets
// (BENCH_ESCAPED=false: as plain UTF-8, about 7 MB).
// Prints the process's resident memory at rest and at its peak while the four uploads run, over a real
// listener on a SQLite file. Not part of the tests' pass/fail.

const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 4);
/** `BENCH_ESCAPED=false`: the same receipts with their text as plain UTF-8, as most clients send it. */
const ESCAPED = process.env.BENCH_ESCAPED !== 'false';
const RECEIPTS = 10_000;
const TOKEN = 'bench-admin-token-0123456789';

/** Every character of `text` as a \u escape: the same string, six bytes a character. */
function escaped(text: string): string {
  if (!ESCAPED) return text;
  let out = '';
  for (let at = 0; at < text.length; at += 1)
    out += `\\u${text.charCodeAt(at).toString(16).padStart(4, '0')}`;
  return out;
}

const PLACE = 'P'.repeat(64);
const EVENT = 'E'.repeat(64);

function body(upload: number): Buffer {
  const parts: string[] = [];
  for (let n = 0; n < RECEIPTS; n += 1) {
    const id = `R${upload}x${n}`.padEnd(64, 'z');
    parts.push(
      `{"id":"${escaped(id)}","place":"${escaped(PLACE)}","event":"${escaped(EVENT)}",` +
        `"occurred_at":"${escaped('2026-11-20T21:30:00-03:00')}","payment_method":"${escaped('tef_credit'.padEnd(64, 'x'))}",` +
        `"brand":"${escaped('é'.repeat(200))}","amount":"${escaped('12.50')}","kind":"${escaped('sale')}",` +
        `"status":"${escaped('paid')}","demo":false}`,
    );
  }
  return Buffer.from(`{"receipts":[${parts.join(',')}]}`, 'utf8');
}

function post(port: number, payload: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const call = request(
      {
        port,
        host: '127.0.0.1',
        method: 'POST',
        path: '/admin/v1/pos/accounts/bench/receipts',
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          'content-length': payload.length,
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
    call.end(payload);
  });
}

const folder = mkdtempSync(join(tmpdir(), 'gateway-bench-'));
const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: `file:${join(folder, 'service.sqlite')}`,
  ADMIN_TOKEN: TOKEN,
  LOG_LEVEL: 'silent',
});
const db = openDatabase(config.database);
await migrateToLatest(db);
const app = buildApp(config, { services: createServices({ db, config }), logger: false });
await app.admin.listen({ port: 0, host: '127.0.0.1' });
const address = app.admin.server.address();
const port = typeof address === 'object' && address !== null ? address.port : 0;
const put = (path: string, value: unknown) =>
  app.admin.inject({
    method: 'PUT',
    url: `/admin/v1/pos/accounts/bench${path}`,
    headers: { authorization: `Bearer ${TOKEN}` },
    payload: value as Record<string, unknown>,
  });
await put('', { name: 'Bench' });
await put(`/places/${PLACE}`, { timezone: 'America/Sao_Paulo' });
await put(`/places/${PLACE}/events/${EVENT}`, { name: 'Bench' });

const bodies = Array.from({ length: UPLOADS }, (_, n) => body(n));
const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
global.gc?.();
const atRest = process.memoryUsage().rss;
let peak = atRest;
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage().rss);
}, 10);
const started = performance.now();
const answers = await Promise.all(bodies.map((payload) => post(port, payload)));
const took = performance.now() - started;
clearInterval(sampler);
peak = Math.max(peak, process.memoryUsage().rss);

console.log(
  `${UPLOADS} concurrent JSON uploads of ${RECEIPTS} receipts, ${megabytes(bodies[0]?.length ?? 0)} MB each (text ${ESCAPED ? 'as \\u escapes' : 'as plain UTF-8'})`,
);
console.log(
  `answers: ${answers.map((answer) => `${answer.status} ${answer.text.slice(0, 60)}`).join(' | ')}`,
);
console.log(`resident memory: ${megabytes(atRest)} MiB at rest (bodies built), peak ${megabytes(peak)} MiB`);
console.log(
  `peak above rest: ${megabytes(peak - atRest)} MiB; all uploads answered in ${(took / 1000).toFixed(1)} s`,
);

await app.close();
await db.destroy();
rmSync(folder, { recursive: true, force: true });
