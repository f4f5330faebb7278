import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { expectApiProblem } from '../expect-http.js';
import { describePostgres, useTestApp } from '../helper.js';
import { EVENTS, SALES_URL, getWithKey, seedPos } from './fixtures.js';

// The maximum query time of the POS API's reads (docs/pos-api.md, Limits: 15 seconds for receipts, 3 for
// the events list; beyond that 503), through the routes themselves on PostgreSQL, where the server
// cancels the statement at the limit held by the session it runs on (src/db/database.ts, onSession).
// Another connection holds an exclusive lock on the table the read needs, so the read waits past a short
// limit; once the lock is gone the same call answers 200.

describePostgres('POS API: the maximum query time, through the routes', (dialect) => {
  const t = useTestApp(dialect, {
    config: { POS_SALES_QUERY_TIMEOUT_MS: '300', POS_EVENTS_QUERY_TIMEOUT_MS: '300' },
  });

  for (const [route, url, table] of [
    ['sales by payment method', SALES_URL, 'pos_sales_buckets'],
    ['events', EVENTS, 'pos_events'],
  ] as const) {
    it(`${route}: a read past its limit is 503 temporarily_unavailable with Retry-After 60; the next, unlocked, is 200 (Limits, maximum query time)`, async () => {
      const { key } = await seedPos(t);
      await t.db.transaction().execute(async (trx) => {
        await sql`lock table ${sql.table(table)} in access exclusive mode`.execute(trx);
        const refused = await getWithKey(t, key, url);
        const body = expectApiProblem(refused, 503, 'temporarily_unavailable');
        expect(refused.headers['retry-after']).toBe('60');
        expect(body.detail).toBe(
          'The request could not be completed in time. Retry after the time in the Retry-After header.',
        );
      });
      expect((await getWithKey(t, key, url)).statusCode).toBe(200);
    });
  }
});
