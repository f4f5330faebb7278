import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { isPostgres } from '../../src/db/dialect.js';
import { withQueryTimeout } from '../../src/db/query-timeout.js';
import { queryTimeoutProblem } from '../../src/pos/api/pos-api-gates.js';
import { describeEachDialect, useTestApp } from '../helper.js';

// The query time limits of the POS API (docs/pos-api.md, Limits: 15 s for receipts, 3 s for the events
// list; Errors, 503): a query that does not finish in time ends in 503 with the documented detail.

describeEachDialect('POS API: query time limits', (dialect) => {
  const t = useTestApp(dialect);

  it('a query within its time limit answers its result (Limits, maximum query time)', async () => {
    const result = await withQueryTimeout(t.db, 5_000, (db) =>
      sql<{ one: number }>`select 1 as one`.execute(db),
    );
    expect(result?.rows[0]?.one).toBe(1);
  });

  it('a query past its time limit gives no result, for the 503 (Limits, maximum query time)', async () => {
    const slow = await withQueryTimeout(t.db, 50, async (db) => {
      // PostgreSQL cancels the statement itself; SQLite cannot interrupt a query, so the answer that
      // arrives late is dropped.
      if (isPostgres(db)) await sql`select pg_sleep(1)`.execute(db);
      else await new Promise((resolve) => setTimeout(resolve, 120));
      return 'late';
    });
    expect(slow).toBeUndefined();
  });

  it('a sales query is planned without parallel workers, its time limit still set, and both end with it (Limits, maximum query time)', async () => {
    if (!isPostgres(t.db)) return;
    const setting = async (db: typeof t.db, name: string) =>
      (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db)).rows[0]?.value;
    const inside = await withQueryTimeout(
      t.db,
      15_000,
      async (db) => [
        await setting(db, 'statement_timeout'),
        await setting(db, 'max_parallel_workers_per_gather'),
      ],
      { parallelWorkers: false },
    );
    expect(inside).toEqual(['15s', '0']);
    // Local to the query's own transaction: the pool's connections keep their settings.
    expect(await setting(t.db, 'statement_timeout')).not.toBe('15s');
    expect(await setting(t.db, 'max_parallel_workers_per_gather')).not.toBe('0');
    const slow = await withQueryTimeout(t.db, 50, async (db) => sql`select pg_sleep(1)`.execute(db), {
      parallelWorkers: false,
    });
    expect(slow).toBeUndefined();
  });

  it('a query with a time limit runs in one round trip, outside any transaction, on connections whose sessions hold the limit; limits of other lengths get connections of their own', async () => {
    if (!isPostgres(t.db)) return;
    const observed = async (db: typeof t.db) =>
      (
        await sql<{ timeout: string; outside: boolean; rows: number }>`select
          current_setting('statement_timeout') as timeout,
          now() = statement_timestamp() as outside,
          (select count(*) from settings)::int as rows`.execute(db)
      ).rows[0];
    // Outside a transaction: now() is the statement's own time. The test's schema is read (search_path
    // kept from the database's pool).
    expect(await withQueryTimeout(t.db, 15_000, observed)).toEqual(
      expect.objectContaining({ timeout: '15s', outside: true }),
    );
    expect(await withQueryTimeout(t.db, 3_000, observed)).toEqual(
      expect.objectContaining({ timeout: '3s', outside: true }),
    );
    expect(await withQueryTimeout(t.db, 15_000, observed)).toEqual(
      expect.objectContaining({ timeout: '15s' }),
    );
    // The database's own connections are untouched.
    expect((await observed(t.db))?.timeout).toBe('0');
    // A cancelled query leaves its connection usable: the next query on the same pool answers.
    expect(await withQueryTimeout(t.db, 50, (db) => sql`select pg_sleep(1)`.execute(db))).toBeUndefined();
    expect(await withQueryTimeout(t.db, 50, observed)).toEqual(expect.objectContaining({ timeout: '50ms' }));
  });
});

it('the time-limit 503: temporarily_unavailable, Retry-After 60, the documented detail (Errors, 503)', () => {
  const problem = queryTimeoutProblem();
  expect(problem.status).toBe(503);
  expect(problem.code).toBe('temporarily_unavailable');
  expect(problem.headers['retry-after']).toBe('60');
  expect(problem.detail).toBe(
    'The request could not be completed in time. Retry after the time in the Retry-After header.',
  );
});
