import { expect, it } from 'vitest';
import { createMigrator, migrateToLatest } from '../../src/db/migrate.js';
import { countsTowardFigures } from '../../src/pos/receipts/receipt-rules.js';
import { checkSalesBuckets, rebuildSalesBuckets } from '../../src/pos/sales/sales-bucket-audit.js';
import { SLOT_LENGTHS } from '../../src/pos/sales/sales-bucket-layout.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import {
  HOUR,
  R1_HOUR,
  seedBucketAccounts as seed,
  tamperBuckets as tamper,
} from './sales-bucket-fixtures.js';

// The sales buckets measured against the receipts they sum (src/pos/sales/sales-bucket-audit.ts): the check
// lists the buckets that differ, the rebuild replaces them, and the migration builds them for receipts
// stored before it.

const bucketCount = async (t: TestApp, account: string) =>
  Number(
    (
      await t.db
        .selectFrom('pos_sales_buckets')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', account)
        .executeTakeFirstOrThrow()
    ).n,
  );

describeEachDialect('sales buckets: check and rebuild', (dialect) => {
  const t = useTestApp(dialect);

  it('check: buckets kept by the write path match the receipts; a changed, a missing and a stray bucket are each listed with what is stored and what the receipts sum, in key order', async () => {
    await seed(t);
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
    await tamper(t);
    const check = await checkSalesBuckets(t.db);
    expect(check.differing).toBe(3);
    const where = { accountId: 'acme', placeId: 'p1', paymentMethod: 'cash', brand: null };
    expect(check.differences).toEqual([
      {
        ...where,
        eventKey: '',
        slotMs: HOUR,
        slotStart: R1_HOUR,
        stored: { receipts: 2, amountCents: 9999n },
        expected: { receipts: 1, amountCents: 1250n },
      },
      {
        ...where,
        eventKey: 'e1',
        slotMs: HOUR,
        slotStart: R1_HOUR,
        stored: null,
        expected: { receipts: 1, amountCents: 1250n },
      },
      {
        ...where,
        placeId: 'p2',
        paymentMethod: 'pix',
        eventKey: '',
        slotMs: HOUR,
        slotStart: 0,
        stored: { receipts: 1, amountCents: 100n },
        expected: null,
      },
    ]);
    // At most `limit` listed; the count is of all of them. Another account is unaffected.
    expect(await checkSalesBuckets(t.db, { limit: 1 })).toEqual({
      differing: 3,
      differences: check.differences.slice(0, 1),
    });
    expect(await checkSalesBuckets(t.db, { accountId: 'other' })).toEqual({ differing: 0, differences: [] });
  });

  it('rebuild: replaces the buckets of one account, or of all, with the sums of the receipts, and says how many there are', async () => {
    await seed(t);
    // acme: R1 in a bucket a length for every receipt and again for e1; R2 in one a length.
    const acmeBuckets = 3 * SLOT_LENGTHS.length;
    expect(await bucketCount(t, 'acme')).toBe(acmeBuckets);
    await tamper(t);
    await t.db.deleteFrom('pos_sales_buckets').where('account_id', '=', 'other').execute();
    expect(await rebuildSalesBuckets(t.db, { accountId: 'other' })).toBe(SLOT_LENGTHS.length);
    expect((await checkSalesBuckets(t.db, { accountId: 'other' })).differing).toBe(0);
    expect((await checkSalesBuckets(t.db, { accountId: 'acme' })).differing).toBe(3);
    expect(await rebuildSalesBuckets(t.db)).toBe(acmeBuckets + SLOT_LENGTHS.length);
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });

  it('the migration that adds the buckets builds them for the receipts stored before it', async () => {
    await seed(t);
    const migrator = await createMigrator(t.db);
    const down = await migrator.migrateTo('0002-pos');
    expect(down.error).toBeUndefined();
    // Receipts stored before the buckets existed: counted and not, with and without event and brand.
    const at = Date.parse('2026-03-01T12:00:00Z');
    const rows = Array.from({ length: 300 }, (_, i) => {
      const kind = i % 7 === 0 ? 'refund_item' : 'sale';
      const status = i % 11 === 0 ? 'cancelled' : 'paid';
      return {
        account_id: i % 3 === 0 ? 'other' : 'acme',
        id: `M${i}`,
        place_id: 'p1',
        event_id: i % 2 === 0 ? 'e1' : null,
        // Over 400 days, a little past each hour: every slot length gets several buckets.
        occurred_at: at + i * 31 * HOUR + i * 7_919,
        payment_method: ['cash', 'tef_credit', 'tef_debit'][i % 3]!,
        brand: i % 5 === 0 ? null : ['VISA', 'ELO', ''][i % 3]!,
        amount_cents: 100 + i,
        kind,
        status,
        demo: 0,
        counted: countsTowardFigures({ kind, status, demo: false }) ? 1 : 0,
        received_at: at,
        updated_at: at,
      };
    });
    await t.db.insertInto('pos_receipts').values(rows).execute();
    // Later migrations follow it.
    expect((await migrateToLatest(t.db))[0]).toBe('0003-sales-buckets');
    expect(await bucketCount(t, 'acme')).toBeGreaterThan(200);
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });
});
