import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { lockReceiptWrites } from '../../src/pos/receipts/receipt-repository.js';
import { expectApiProblem } from '../expect-http.js';
import { ADMIN_TOKEN, describeEachDialect, describePostgres, testApp, type TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { timeUntil } from '../support/timing.js';
import { inFile, receiptLines, UPLOAD_URL } from './upload-fixtures.js';

// The last step of a receipts upload (docs/back-office.md, Point of sale: receipts) runs under a time limit of its own,
// UPLOAD_WRITE_TIMEOUT_MS; an upload that cannot finish it (the limit passed, the database gone) gets a
// 503 that says why (operation importPosReceipts: upload_write_timeout, upload_interrupted), never a 500,
// and nothing of it is stored.

/** What the account's upload could have changed: its receipts and its sales buckets. */
async function storedState(db: Db) {
  const receipts = await db
    .selectFrom('pos_receipts')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', 'acme')
    .executeTakeFirstOrThrow();
  const buckets = await db
    .selectFrom('pos_sales_buckets')
    .select(['place_id', 'event_id', 'slot_ms', 'slot_start', 'payment_method', 'brand', 'receipts'])
    .select(sql<string>`cast(amount_cents as text)`.as('cents'))
    .where('account_id', '=', 'acme')
    .orderBy('place_id')
    .orderBy('event_id')
    .orderBy('slot_ms')
    .orderBy('slot_start')
    .orderBy('payment_method')
    .orderBy('brand')
    .execute();
  return { receipts: receipts.n, buckets: buckets.map((row) => ({ ...row })) };
}

const uploadOf = (t: TestApp, receipts: number) =>
  t.app.admin.inject({
    method: 'POST',
    url: UPLOAD_URL,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload: receiptLines(receipts),
  });

describeEachDialect('receipts upload: the write step’s own time limit', (dialect) => {
  const fileDialect = inFile(dialect);
  let t: TestApp;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    const opened = await fileDialect.open();
    drop = () => opened.drop();
    // The limit's lowest value (100 ms) against a last step several times longer on an idle machine.
    t = testApp({
      db: opened.db,
      rateLimits: await fileDialect.openStore(),
      config: { UPLOAD_WRITE_TIMEOUT_MS: '100' },
    });
    await seedPos(t);
  });
  afterEach(async () => {
    await t.app.close();
    await drop();
  });

  it('a write step longer than UPLOAD_WRITE_TIMEOUT_MS: 503 upload_write_timeout naming the limit, Retry-After, nothing stored', async () => {
    const before = await storedState(t.db);
    // PostgreSQL writes 100,000 receipts in 20 statements, far more than 100 ms. SQLite's last step runs
    // inside SQLite: 100,000 took about 105 ms on an idle machine, and a run once wrote them within the
    // limit; 400,000 take about 480 ms.
    const response = await uploadOf(t, dialect.name === 'sqlite' ? 400_000 : 100_000);
    const body = expectApiProblem(response, 503, 'upload_write_timeout');
    expect(body.detail).toContain('UPLOAD_WRITE_TIMEOUT_MS (100 ms)');
    expect(body.detail).toContain('nothing of this upload was stored');
    expect(response.headers['retry-after']).toBe('60');
    expect(await storedState(t.db)).toEqual(before);
  }, 60_000);
});

describePostgres('receipts upload: the database lost during the write step', (dialect) => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Db;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    const opened = await dialect.open();
    direct = opened.db;
    drop = () => opened.drop();
    const connection = opened.connection;
    if (connection === undefined) throw new Error('PostgreSQL connection details missing');
    const target = new URL(connection.url);
    proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 5432) });
    const db = openDatabase(
      { kind: 'postgres', url: proxy.url(connection.url) },
      {
        searchPath: connection.searchPath,
        poolSize: 5,
        connectTimeoutMs: 1000,
        onConnectionError: () => undefined,
      },
    );
    t = testApp({ db, rateLimits: await dialect.openStore() });
    await seedPos(t);
  });
  afterEach(async () => {
    await t.app.close();
    await t.db.destroy();
    await proxy.close();
    await drop();
  });

  it('the connection lost while the receipts are written: 503 upload_interrupted, Retry-After, nothing stored', async () => {
    const before = await storedState(direct);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    // Another upload of the account writing (as from another process): this one's write step waits.
    const holding = direct.transaction().execute(async (trx) => {
      await lockReceiptWrites(trx, 'acme');
      await released;
    });
    try {
      const answer = uploadOf(t, 500);
      await timeUntil(async () => {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock' and wait_event = 'advisory'`.execute(
          direct,
        );
        return (rows[0]?.n ?? 0) > 0;
      }, 20_000);
      // The path to the server breaks, as when PostgreSQL restarts.
      await proxy.refuse();
      const response = await answer;
      const body = expectApiProblem(response, 503, 'upload_interrupted');
      expect(body.detail).toContain('rolled back');
      expect(response.headers['retry-after']).toBe('60');
    } finally {
      release();
      await holding;
    }
    expect(await storedState(direct)).toEqual(before);
  }, 60_000);
});
