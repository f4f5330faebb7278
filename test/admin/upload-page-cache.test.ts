import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, dialects, testApp, type TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';
import { inFile, receiptLines, UPLOAD_URL } from './upload-fixtures.js';

// SQLite (src/pos/receipts/receipt-apply.ts): the writer connection writes an upload with a larger page
// cache, and gives it back when the upload ends, stored or not: the cache the service's other writes
// see afterwards is the one they had before (set back explicitly; detaching the staging file also
// reloads the schema, which resets it).

const sqliteFile = inFile(dialects.find((dialect) => dialect.name === 'sqlite') ?? dialects[0]!);

/** The writer connection's page cache setting (a raw statement runs on the writer). */
async function cacheSize(t: TestApp): Promise<number> {
  const { rows } = await sql<{ cache_size: number }>`pragma main.cache_size`.execute(t.db);
  return Number(rows[0]?.cache_size);
}

describe('receipts upload: the page cache of the write step [sqlite file]', () => {
  let t: TestApp;
  let drop: () => Promise<void>;

  async function open(config: Record<string, string> = {}) {
    const opened = await sqliteFile.open();
    drop = () => opened.drop();
    t = testApp({ db: opened.db, rateLimits: await sqliteFile.openStore(), config });
    await seedPos(t);
  }
  afterEach(async () => {
    await t.app.close();
    await drop();
  });

  const upload = (receipts: number) =>
    t.app.admin.inject({
      method: 'POST',
      url: UPLOAD_URL,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
      payload: receiptLines(receipts),
    });

  it('an upload stored: the cache is what it was before', async () => {
    await open();
    const before = await cacheSize(t);
    const response = await upload(3_000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ inserted: 3_000 });
    expect(await cacheSize(t)).toBe(before);
  });

  it('an upload stopped by its time limit (nothing stored): the cache is what it was before', async () => {
    await open({ UPLOAD_WRITE_TIMEOUT_MS: '100' });
    const before = await cacheSize(t);
    const response = await upload(100_000);
    expect(response.statusCode).toBe(503);
    expect(await cacheSize(t)).toBe(before);
  });
});
