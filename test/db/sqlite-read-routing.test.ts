import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

// A SQLite file gives the reads outside transactions a connection of their own (WAL), so that a long
// write transaction (a receipts upload's final step) never holds up a public API's read; writes and
// transactions keep the one writer connection, in order.

const account = (id: string) => ({ id, name: id, currency: 'BRL', active: 1, created_at: 0, updated_at: 0 });

async function accountIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('pos_accounts').select('id').orderBy('id').execute()).map((row) => row.id);
}

describe('SQLite file: reads beside the writer', () => {
  let folder: string;
  let db: Db;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'gateway-routing-'));
    db = openDatabase({ kind: 'sqlite', path: join(folder, 'service.sqlite') });
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('a read outside a transaction answers while a write transaction is open, and sees only what is committed', async () => {
    await db.insertInto('pos_accounts').values(account('a')).execute();
    let finish: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let inside: string[] = [];
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('pos_accounts').values(account('b')).execute();
      inside = await accountIds(trx);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));

    // The transaction holds the writer: the read does not wait for it.
    const read = await Promise.race([
      accountIds(db),
      new Promise<'waited'>((resolve) => {
        setTimeout(() => {
          resolve('waited');
        }, 2000);
      }),
    ]);
    expect(read).toEqual(['a']);
    expect(inside).toEqual(['a', 'b']);

    // A write waits for the transaction, in order.
    let written = false;
    const write = db
      .insertInto('pos_accounts')
      .values(account('c'))
      .execute()
      .then(() => {
        written = true;
      });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBe(false);
    finish();
    await transaction;
    await write;
    expect(await accountIds(db)).toEqual(['a', 'b', 'c']);
  });

  it('the reader never writes: statements that are not a SELECT, and a transaction, take the writer', async () => {
    await sql`insert into pos_accounts (id, name, currency, active, created_at, updated_at) values ('r', 'r', 'BRL', 1, 0, 0)`.execute(
      db,
    );
    await db.connection().execute(async (connection) => {
      await connection.insertInto('pos_accounts').values(account('s')).execute();
      // Once a connection wrote, it keeps the writer: it reads its own write in order.
      expect(await accountIds(connection)).toEqual(['r', 's']);
    });
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('pos_accounts').values(account('t')).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await accountIds(db)).toEqual(['r', 's']);
  });
});
