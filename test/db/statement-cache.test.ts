import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/statement-cache.js';

// The SQLite statement cache (src/db/statement-cache.ts): a SQL text is compiled once, whatever its
// parameters, and a statement still being iterated is never handed out again.

function counted() {
  const database = new SQLite(':memory:');
  let prepared = 0;
  const prepare = database.prepare.bind(database);
  database.prepare = (text: string) => {
    prepared += 1;
    return prepare(text);
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return { db, prepared: () => prepared };
}

describe('SQLite statement cache', () => {
  it('a query run many times with other parameters is compiled once', async () => {
    const { db, prepared } = counted();
    await sql`create table t (id integer primary key, name text)`.execute(db);
    const before = prepared();
    for (let i = 0; i < 50; i += 1)
      await db
        .insertInto('t')
        .values({ id: i, name: `n${i}` })
        .execute();
    for (let i = 0; i < 50; i += 1) {
      const row = await db.selectFrom('t').select('name').where('id', '=', i).executeTakeFirst();
      expect(row).toEqual({ name: `n${i}` });
    }
    expect(prepared() - before).toBe(2);
    await db.destroy();
  });

  it('a statement still being iterated is not handed out again', () => {
    const database = new SQLite(':memory:');
    const cached = withStatementCache(database);
    const text = 'select 1 as one union all select 2';
    const first = cached.prepare(text);
    const rows = first.iterate([]);
    rows.next();
    const second = cached.prepare(text);
    expect(second).not.toBe(first);
    expect(second.all([])).toHaveLength(2);
    rows.return?.();
    expect(cached.prepare(text)).toBe(first);
    cached.close();
  });
});
