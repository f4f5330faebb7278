import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, dialects, testApp, type TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';
import { inFile, receiptLines, UPLOAD_URL } from './upload-fixtures.js';

// SQLite (src/pos/receipts/receipt-apply.ts): the writer connection writes an upload with a larger page
// cache for the service's tables and a smaller one for its temporary tables, and sets both back when
// the upload ends, stored or not: the caches the service's other writes see afterwards are the ones they
// had before (set back explicitly: detaching the staging file leaves them as the upload set them).

const sqliteFile = inFile(dialects.find((dialect) => dialect.name === 'sqlite') ?? dialects[0]!);

/** The writer connection's page cache settings, main and temporary (a raw statement runs on the writer). */
async function cacheSize(t: TestApp): Promise<{ main: number; temp: number }> {
  const [main, temp] = await Promise.all(
    [sql`pragma main.cache_size`, sql`pragma temp.cache_size`].map(async (pragma) => {
      const { rows } = await pragma.execute(t.db);
      return Number((rows[0] as { cache_size: number } | undefined)?.cache_size);
    }),
  );
  return { main: main ?? Number.NaN, temp: temp ?? Number.NaN };
}

/** Settings of the writer's caches that no upload uses, so that an upload's own cannot pass for them. */
async function setDistinctCaches(t: TestApp): Promise<{ main: number; temp: number }> {
  await sql`pragma main.cache_size = -4321`.execute(t.db);
  await sql`pragma temp.cache_size = -1234`.execute(t.db);
  return { main: -4321, temp: -1234 };
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

  it('an upload stored: the caches are what they were before', async () => {
    await open();
    const before = await setDistinctCaches(t);
    expect(await cacheSize(t)).toEqual(before);
    const response = await upload(3_000);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ inserted: 3_000 });
    expect(await cacheSize(t)).toEqual(before);
  });

  it('an upload stopped by its time limit (nothing stored): the caches are what they were before', async () => {
    await open({ UPLOAD_WRITE_TIMEOUT_MS: '100' });
    const before = await setDistinctCaches(t);
    expect(await cacheSize(t)).toEqual(before);
    const response = await upload(100_000);
    expect(response.statusCode).toBe(503);
    expect(await cacheSize(t)).toEqual(before);
  });
});
