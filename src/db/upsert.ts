import type { Kysely } from 'kysely';
import type { Db } from './database.js';
import type { Database } from './schema.js';

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
  // The table is chosen at run time, so the query is built on an untyped view of the database.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const untyped = db as unknown as Kysely<any>;
  const name: string = table;
  return untyped.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom(name)
      .select(keyColumn)
      .where(keyColumn, '=', key)
      .executeTakeFirst();
    if (existing === undefined) {
      await trx
        .insertInto(name)
        .values({ [keyColumn]: key, ...values })
        .execute();
      return true;
    }
    await trx.updateTable(name).set(values).where(keyColumn, '=', key).execute();
    return false;
  });
}
