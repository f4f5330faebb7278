import { sql } from 'kysely';
import { onSession, type Db } from './database.js';
import { isPostgres } from './dialect.js';

/** How a query run by `withQueryTimeout` is planned on PostgreSQL, besides its time limit. */
export interface QueryPlanning {
  /**
   * False: no parallel workers (`max_parallel_workers_per_gather = 0`), for a read of a few index
   * ranges whose workers would take longer to start than the whole read (the sales figures).
   */
  parallelWorkers?: boolean;
}

/**
 * Runs a query with a time limit. PostgreSQL cancels it (`statement_timeout`); SQLite runs queries
 * synchronously and cannot be interrupted, so there the answer is refused when it took longer than the
 * limit. Returns undefined when the limit passed. On PostgreSQL the query runs on connections whose
 * sessions hold the limit and its planning (`onSession`): one round trip for a query of one statement.
 */
export async function withQueryTimeout<T>(
  db: Db,
  ms: number,
  run: (db: Db) => Promise<T>,
  planning: QueryPlanning = {},
): Promise<T | undefined> {
  if (isPostgres(db)) {
    const settings: Record<string, number> = { statement_timeout: Math.max(1, Math.floor(ms)) };
    if (planning.parallelWorkers === false) settings.max_parallel_workers_per_gather = 0;
    try {
      return await run(onSession(db, settings));
    } catch (error) {
      if ((error as { code?: unknown }).code === '57014') return undefined;
      throw error;
    }
  }
  const started = performance.now();
  const result = await run(db);
  return performance.now() - started > ms ? undefined : result;
}

/** Time left to a transaction run by `withTransactionTimeLimit`, checked between its statements. */
export interface TimeLimit {
  /**
   * Rolls the transaction back (TimeLimitReached) once its limit has passed; on PostgreSQL it gives the
   * statements that follow what is left of it (`statement_timeout`), so that a long one is cancelled
   * when the limit passes rather than after.
   */
  check(): Promise<void>;
}

/** Thrown by `TimeLimit.check` to roll back a transaction whose time limit has passed. */
class TimeLimitReached extends Error {
  override name = 'TimeLimitReached';
}

/**
 * A statement cancelled this close to the limit (ms) was cancelled by it: the server's timer starts when
 * the statement arrives, after the client computed what was left. One cancelled earlier was cancelled by
 * someone else (`pg_cancel_backend`), and is not reported as the limit.
 */
const CANCELLED_AT_LIMIT_MS = 100;

/**
 * Runs `work` in one transaction of `db` that may take at most `ms` in all: a bulk write of many
 * statements, whose limit is its own rather than that of a single read. Returns undefined, the
 * transaction rolled back, when the limit passed. PostgreSQL cancels the statement running when it
 * passes (`statement_timeout`, set to what is left at every `check` and before the commit); SQLite runs
 * statements synchronously and cannot interrupt one, so there the limit is found at the next `check`.
 */
export async function withTransactionTimeLimit<T>(
  db: Db,
  ms: number,
  work: (trx: Db, limit: TimeLimit) => Promise<T>,
): Promise<T | undefined> {
  const deadline = performance.now() + ms;
  const left = () => Math.floor(deadline - performance.now());
  try {
    return await db.transaction().execute(async (trx) => {
      const limit: TimeLimit = {
        async check() {
          const remaining = left();
          if (remaining <= 0) throw new TimeLimitReached();
          if (isPostgres(trx)) await sql.raw(`set local statement_timeout = ${remaining}`).execute(trx);
        },
      };
      await limit.check();
      const result = await work(trx, limit);
      await limit.check();
      return result;
    });
  } catch (error) {
    if (error instanceof TimeLimitReached) return undefined;
    if ((error as { code?: unknown }).code === '57014' && left() <= CANCELLED_AT_LIMIT_MS) return undefined;
    throw error;
  }
}
