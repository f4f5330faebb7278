import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { isPostgres } from '../../src/db/dialect.js';

/**
 * The plan's text lines of a query: EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL with sequential
 * scans turned off (a test's tables are tiny: without that the planner reads them whole whatever the
 * indexes), so that a plan names the index the query can use.
 */
export async function queryPlan(db: Db, query: CompiledQuery): Promise<string> {
  if (!isPostgres(db)) {
    const result = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row.detail).join('\n');
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  });
}
