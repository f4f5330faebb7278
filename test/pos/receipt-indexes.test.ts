import { expect, it } from 'vitest';
import { countedReceiptsQuery } from '../../src/pos/sales/raw-sales-reader.js';
import type { SalesQuery } from '../../src/pos/sales/sales-reader.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { queryPlan } from '../support/query-plan.js';

// The receipts' indexes as the reads of a period use them (src/db/migrations/0002-pos.ts, 0013): the
// index of event receipts holds only receipts that have an event, so the planner may use it only for a
// read of one event (`event_id = ?`, which implies `event_id is not null`); a read of the whole place goes
// through the period index.

const period = (eventId: string | null): SalesQuery => ({
  accountId: 'acme',
  placeId: 'p1',
  eventId,
  from: Date.UTC(2026, 0, 1),
  to: Date.UTC(2026, 4, 1),
});

describeEachDialect('receipts indexes', (dialect) => {
  const t = useTestApp(dialect);

  it('the receipts of one event in a period are read through the index of event receipts', async () => {
    const text = await queryPlan(t.db, countedReceiptsQuery(t.db, period('e1')).compile());
    expect(text).toContain('pos_receipts_of_event');
  });

  it('the receipts of a whole place in a period are read through the period index', async () => {
    const text = await queryPlan(t.db, countedReceiptsQuery(t.db, period(null)).compile());
    expect(text).toContain('pos_receipts_period');
    expect(text).not.toContain('pos_receipts_of_event');
  });
});
