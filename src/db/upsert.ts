import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Db } from './database.js';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';

// The admin API's PUT (docs/admin-rules.md, intro: "PUT creates or replaces the resource named in the path …
// 201 when created") as one atomic statement, `insert … on conflict (key) do update set …`, so that
// calls racing on one new id are one creation and replacements, never a unique-key violation.
//
// Whether the statement created the row:
// - PostgreSQL: `returning (xmax = 0)`. A row version written by the insert has no xmax; the one written
//   by `do update` carries the updating transaction's id (it locked the row it replaced).
// - SQLite cannot tell (its RETURNING has no such column, and `changes()` is 1 either way), so a look
//   for the key comes first, in the same transaction. That is exact: the SQLite driver gives a
//   transaction the database's one connection until it ends, and SQLite is served by one process
//   (docs/operations.md, Running a fleet), so no other write can come between the look and the upsert.
// Comparing a returned `created_at` with the write's instant would not do: calls in the same millisecond
// (or under one test clock) would all look like the creation.

/**
 * Creates `row` in `table`, or when a row with the same `keyColumns` exists, sets `replace` on it (the
 * columns left out keep their values). One atomic statement; returns true when it created the row.
 */
export async function upsertRow<T extends keyof Database>(
  db: Db,
  table: T,
  keyColumns: readonly (keyof Database[T] & string)[],
  row: Insertable<Database[T]>,
  replace: Updateable<Database[T]>,
): Promise<boolean> {
  return upsert(db, table, keyColumns, row, replace);
}

/**
 * Creates or replaces the row of `table` whose `keyColumn` is `key` (the admin API's PUT semantics).
 * Returns true when the row was created.
 */
export async function putRow(
  db: Db,
  table: keyof Database,
  keyColumn: string,
  key: string | number,
  values: Record<string, unknown>,
): Promise<boolean> {
  return upsert(db, table, [keyColumn], { [keyColumn]: key, ...values }, values);
}

async function upsert(
  db: Db,
  table: string,
  keyColumns: readonly string[],
  row: Record<string, unknown>,
  replace: Record<string, unknown>,
): Promise<boolean> {
  // The table is chosen at run time, so the query is built on an untyped view of the database.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const untyped = db as unknown as Kysely<any>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const write = (executor: Kysely<any>) =>
    executor
      .insertInto(table)
      .values(row)
      .onConflict((oc) => oc.columns(keyColumns).doUpdateSet(replace));
  if (isPostgres(db)) {
    const written = await write(untyped)
      .returning(sql<boolean>`xmax = 0`.as('inserted'))
      .executeTakeFirstOrThrow();
    return written.inserted;
  }
  // Inside a caller's transaction (a change written with its audit event) the look and the upsert join it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const inTransaction = <R>(work: (trx: Kysely<any>) => Promise<R>) =>
    untyped.isTransaction ? work(untyped) : untyped.transaction().execute(work);
  return inTransaction(async (trx) => {
    let existing = trx.selectFrom(table).select(sql<number>`1`.as('found'));
    for (const column of keyColumns) existing = existing.where(column, '=', row[column]);
    const found = await existing.executeTakeFirst();
    await write(trx).execute();
    return found === undefined;
  });
}
