import { sql } from 'kysely';
import type { Db } from './database.js';
import { isPostgres } from './dialect.js';

/**
 * Runs a query with a time limit. PostgreSQL cancels it (`statement_timeout`); SQLite runs queries
 * synchronously and cannot be interrupted, so there the answer is refused when it took longer than the
 * limit. Returns undefined when the limit passed.
 */
export async function withQueryTimeout<T>(
  db: Db,
  ms: number,
  run: (db: Db) => Promise<T>,
): Promise<T | undefined> {
  if (isPostgres(db)) {
    try {
      return await db.transaction().execute(async (trx) => {
        await sql.raw(`set local statement_timeout = ${Math.max(1, Math.floor(ms))}`).execute(trx);
        return run(trx);
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === '57014') return undefined;
      throw error;
    }
  }
  const started = performance.now();
  const result = await run(db);
  return performance.now() - started > ms ? undefined : result;
}
