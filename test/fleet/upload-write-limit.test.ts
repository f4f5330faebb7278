import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { lockReceiptWrites } from '../../src/pos/receipts/receipt-repository.js';
import { checkSalesBuckets } from '../../src/pos/sales/sales-bucket-audit.js';
import { redisUrl, type AdminClient } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';
import { receiptLine } from '../admin/upload-fixtures.js';
import { http, startServer, type ServerProcess } from '../support/server-process.js';
import { createProcessDatabase, postgresTestUrl, type ProcessDatabase } from '../support/process-database.js';
import { timeUntil } from '../support/timing.js';
import { FLEET_ADMIN_TOKEN, fleetEnv } from './fleet-fixtures.js';

// A receipts upload's last step (docs/back-office.md, Point of sale: receipts) on a production process over
// PostgreSQL and Redis is bounded by its own limit, UPLOAD_WRITE_TIMEOUT_MS, and not by the one the pool
// derives for the API's reads from DATABASE_TIMEOUT_MS and the POS query limits (one second after the
// longest). Before, a year of receipts answered 500 internal_error after minutes ("Query read timeout"
// in the merge of its sales buckets). Here the read limits are shortened to 2 s and the write step made
// longer by another upload of the same account holding the account's write lock, as another process's
// would: it must wait and finish within its own limit, and past that limit get a clear 503.

const skipped = postgresTestUrl === undefined || redisUrl === undefined;
const UPLOAD_URL = '/admin/v1/pos/accounts/acme/receipts';
/** The pool's client-side limit is the longest of these plus one second: 2 s. */
const READ_LIMITS = {
  DATABASE_TIMEOUT_MS: '1000',
  POS_SALES_QUERY_TIMEOUT_MS: '1000',
  POS_EVENTS_QUERY_TIMEOUT_MS: '1000',
};
const WRITE_LIMIT_MS = 6000;
const RECEIPTS = 2000;

describe.skipIf(skipped)(
  `receipts upload past the API's read limits [postgres + redis, production process${
    skipped ? ': skipped, TEST_DATABASE_URL and TEST_REDIS_URL must be set' : ''
  }]`,
  () => {
    let database: ProcessDatabase;
    let db: Db;
    let server: ServerProcess;

    const operator: AdminClient = {
      async admin(method, url, body) {
        // A cold process on a busy machine may take longer than the default 10 s for its first answers.
        const response = await http(server.adminPort, String(method), url, {
          headers: { authorization: `Bearer ${FLEET_ADMIN_TOKEN}` },
          body,
          timeoutMs: 60_000,
        });
        if (response.status >= 300) throw new Error(`admin ${String(method)} ${url}: ${response.text}`);
        return { statusCode: response.status, body: response.text };
      },
    };

    beforeAll(async () => {
      database = await createProcessDatabase('postgres');
      db = database.open();
      server = await startServer(
        fleetEnv(database.url, {
          NODE_ENV: 'production',
          REDIS_URL: redisUrl ?? '',
          REDIS_KEY_PREFIX: `test:upload:${randomBytes(6).toString('hex')}:`,
          ...READ_LIMITS,
          UPLOAD_WRITE_TIMEOUT_MS: String(WRITE_LIMIT_MS),
        }),
      );
      await server.waitUntilListening({ ms: 90_000 });
      await seedPos(operator);
    }, 240_000);

    afterAll(async () => {
      await server.stop();
      await db.destroy();
      await database.drop();
    });

    const body = (from: number) =>
      Array.from({ length: RECEIPTS }, (_, n) =>
        receiptLine(from + n, { occurred_at: `2026-${String((n % 12) + 1).padStart(2, '0')}-15T12:00:00Z` }),
      ).join('\n');

    const stored = async () => {
      const row = await db
        .selectFrom('pos_receipts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', 'acme')
        .executeTakeFirstOrThrow();
      return row.n;
    };

    /**
     * Holds the account's write lock (as another upload of it would) until the upload of `from` waits for
     * it, then `ms` longer; resolves with the upload's answer.
     */
    async function uploadBehindLock(from: number, ms: number) {
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      const holding = db.transaction().execute(async (trx) => {
        await lockReceiptWrites(trx, 'acme');
        await released;
      });
      try {
        const answer = http(server.adminPort, 'POST', UPLOAD_URL, {
          headers: { authorization: `Bearer ${FLEET_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
          body: body(from),
          timeoutMs: 60_000,
        });
        await timeUntil(async () => {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(
            db,
          );
          return (rows[0]?.n ?? 0) > 0;
        }, 30_000);
        await new Promise((resolve) => setTimeout(resolve, ms));
        release();
        return await answer;
      } finally {
        release();
        await holding;
      }
    }

    it('a write step longer than the read limits finishes within UPLOAD_WRITE_TIMEOUT_MS: 200, every figure equal to its receipts', async () => {
      const before = await stored();
      // 3 s: past the 2 s the pool allows a read, within the write step's 6 s.
      const response = await uploadBehindLock(1, 3000);
      expect(response.status, response.text).toBe(200);
      expect(response.json).toEqual({ inserted: RECEIPTS, updated: 0, unchanged: 0 });
      expect(await stored()).toBe(before + RECEIPTS);
      expect((await checkSalesBuckets(db, { accountId: 'acme' })).differing).toBe(0);
    }, 90_000);

    it('a write step past UPLOAD_WRITE_TIMEOUT_MS: 503 upload_write_timeout naming the limit, nothing stored, and the process serves on', async () => {
      const before = await stored();
      const response = await uploadBehindLock(100_001, WRITE_LIMIT_MS + 2000);
      expect(response.status, response.text).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json).toMatchObject({ code: 'upload_write_timeout' });
      expect((response.json as { detail: string }).detail).toContain(
        `UPLOAD_WRITE_TIMEOUT_MS (${WRITE_LIMIT_MS} ms)`,
      );
      expect(response.headers['retry-after']).toBe('60');
      expect(await stored()).toBe(before);
      expect((await checkSalesBuckets(db, { accountId: 'acme' })).differing).toBe(0);
      // The same upload, sent again without the other writer, is stored.
      const again = await http(server.adminPort, 'POST', UPLOAD_URL, {
        headers: { authorization: `Bearer ${FLEET_ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
        body: body(100_001),
        timeoutMs: 60_000,
      });
      expect(again.status, again.text).toBe(200);
      expect(await stored()).toBe(before + RECEIPTS);
    }, 90_000);
  },
);
