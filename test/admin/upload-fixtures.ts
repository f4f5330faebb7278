import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedHelpdesk, ticket, TICKET_URL, OPTIONS_URL } from '../helpdesk/fixtures.js';
import type { Dialect, TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';
import { publicRequest } from '../request.js';

// What the suites about uploads and the public APIs share (docs/admin-rules.md, Point of sale: POST
// receipts): a database as production has it (SQLite in a file, so that the public reads get a connection of
// their own; PostgreSQL with its pool), an account and a partner system to call the public APIs with, and
// latency figures.

/** The receipts URL of the fixture account (`acme`, place P1, as seedPos writes it). */
export const UPLOAD_URL = '/admin/v1/pos/accounts/acme/receipts';

/**
 * The dialect with SQLite in a file of a temporary folder instead of `:memory:` (which has one
 * connection only); PostgreSQL as the suites open it.
 */
export function inFile(dialect: Dialect): Dialect {
  return dialect.name === 'postgres'
    ? dialect
    : {
        ...dialect,
        async open(): Promise<{ db: Db; drop(): Promise<void> }> {
          const folder = mkdtempSync(join(tmpdir(), 'gateway-upload-'));
          const db = openDatabase({ kind: 'sqlite', path: join(folder, 'service.sqlite') });
          await migrateToLatest(db);
          return {
            db,
            drop: async () => {
              await db.destroy();
              rmSync(folder, { recursive: true, force: true });
            },
          };
        },
      };
}

/** A valid NDJSON line of place P1 of `acme`. */
export function receiptLine(n: number, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    id: `u${n}`,
    place: 'P1',
    occurred_at: '2026-11-18T21:30:00-03:00',
    payment_method: n % 3 === 0 ? 'cash' : 'tef_credit',
    brand: n % 3 === 0 ? null : 'VISA',
    amount: `${n % 1000}.${String(n % 100).padStart(2, '0')}`,
    kind: 'sale',
    ...overrides,
  });
}

/** `total` NDJSON lines produced lazily, a few hundred per chunk: the body is never built in memory. */
export function receiptLines(total: number): Readable {
  return Readable.from(
    (function* () {
      for (let start = 1; start <= total; start += 250) {
        let chunk = '';
        for (let n = start; n < start + 250 && n <= total; n += 1) chunk += `${receiptLine(n)}\n`;
        yield chunk;
      }
    })(),
  );
}

/** The keys the probes call with: a merchant's (ping) and a partner system's (tickets). */
export interface ProbeKeys {
  merchant: string;
  partner: string;
}

/** Account `acme` (places P1, P2; three receipts) with a key, and the help-desk catalog with `alpha`. */
export async function seedProbes(t: TestApp): Promise<ProbeKeys> {
  const { key } = await seedPos(t);
  const keys = await seedHelpdesk(t, { rate_limit_per_minute: 1_000_000 });
  return { merchant: key, partner: keys.alpha };
}

/** Milliseconds a request took, with its answer. */
export async function timed(
  send: () => Promise<LightMyRequestResponse>,
): Promise<{ ms: number; response: LightMyRequestResponse }> {
  const started = performance.now();
  const response = await send();
  return { ms: performance.now() - started, response };
}

/** The public calls a probe round makes: a POS ping, the ticket options (reads) and a new ticket (a write). */
export function probeCalls(t: TestApp, keys: ProbeKeys, round: number) {
  return {
    ping: () => publicRequest(t, { url: '/v1/api-public/ping', key: keys.merchant }),
    options: () => publicRequest(t, { url: OPTIONS_URL, key: keys.partner }),
    ticket: () =>
      publicRequest(t, {
        method: 'POST',
        url: TICKET_URL,
        key: keys.partner,
        type: 'application/json',
        payload: JSON.stringify(ticket({ external_id: `probe-${round}` })),
      }),
  };
}

/** The value below which `share` of the samples lie (nearest rank). */
export function percentile(samples: readonly number[], share: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
