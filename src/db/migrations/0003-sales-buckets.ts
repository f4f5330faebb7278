import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// Pre-aggregated sales buckets (src/pos/sales/sales-buckets.ts): the counted receipts of a place summed per
// time slot, event key, stored payment method and stored brand, so that the sales figures of a long
// period read a few thousand buckets instead of every receipt. Built here from the receipts already
// stored; from then on kept by deltas in the transaction of every receipt write.

/**
 * The slot lengths this migration builds (ms), as the layout was when it was written: 15 minutes, then
 * each four times the one below, up to 1024 hours. A later layout comes with a migration of its own that
 * rebuilds the buckets, so this one keeps building what it always built.
 */
const SLOT_LENGTHS = [900_000, 3_600_000, 14_400_000, 57_600_000, 230_400_000, 921_600_000, 3_686_400_000];

/** A bucket's key: the table is ordered by it, so a place's slot run of one length is one range. */
const KEY = [
  'account_id',
  'place_id',
  'event_id',
  'slot_ms',
  'slot_start',
  'payment_method',
  'branded',
  'brand',
] as const;

/** The bucket table, and its buckets from the stored receipts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  const table = db.schema
    .createTable('pos_sales_buckets')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text', (c) => c.notNull())
    // '' sums every receipt of the place (the query without `event`); an event id only that event's.
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('slot_ms', 'bigint', (c) => c.notNull())
    .addColumn('slot_start', 'bigint', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    // A key column cannot be null: a receipt without brand is branded = 0 with brand '', which keeps it
    // apart from a recorded empty brand (branded = 1, brand ''), reported under another line.
    .addColumn('branded', 'integer', (c) => c.notNull())
    .addColumn('brand', 'text', (c) => c.notNull())
    .addColumn('receipts', 'bigint', (c) => c.notNull())
    // Exact cents: numeric on PostgreSQL never overflows, like SUM over the receipts. SQLite's integer
    // addition turns into a float past 2^63; the check below makes that write fail instead of rounding.
    .addColumn('amount_cents', postgres ? 'numeric' : 'integer', (c) => c.notNull());
  const key = sql.join(KEY.map((column) => sql.ref(column)));
  if (postgres) {
    await table.execute();
    // The key's index carries the sums too, so that a period is read from the index alone (an index-only
    // scan: measured 12 times fewer pages than through the table), once vacuum has marked the pages.
    await sql`alter table pos_sales_buckets add constraint pos_sales_buckets_pk
      primary key (${key}) include (receipts, amount_cents)`.execute(db);
  } else {
    // A table clustered by its key: the buckets of a slot run are one contiguous range, read with their
    // sums without a second look-up.
    await table
      .addPrimaryKeyConstraint('pos_sales_buckets_pk', [...KEY])
      .addCheckConstraint('pos_sales_buckets_whole_cents', sql`typeof(amount_cents) = 'integer'`)
      .modifyEnd(sql`without rowid`)
      .execute();
  }

  // The buckets whose receipts all left, each write deletes (src/pos/sales/sales-buckets.ts): found through this
  // index of them alone, whatever the number of buckets.
  await db.schema
    .createIndex('pos_sales_buckets_empty')
    .on('pos_sales_buckets')
    .columns(['account_id', 'receipts', 'amount_cents'])
    .where(sql.ref('receipts'), '=', 0)
    .execute();

  // The smallest slots from the counted receipts (every receipt under '', those with an event once more
  // under its id), then each larger length from the one below it: the receipts are read once.
  const [smallest = 0, ...larger] = SLOT_LENGTHS;
  const slotOf = (column: string, length: number) =>
    sql`${sql.ref(column)} - ((${sql.ref(column)} % ${sql.lit(length)}) + ${sql.lit(length)}) % ${sql.lit(length)}`;
  const columns = sql`(${key}, receipts, amount_cents)`;
  for (const byEvent of [false, true]) {
    const slot = slotOf('occurred_at', smallest);
    await sql`
      insert into pos_sales_buckets ${columns}
      select account_id, place_id, ${byEvent ? sql`event_id` : sql`''`}, ${sql.lit(smallest)}, ${slot},
        payment_method, case when brand is null then 0 else 1 end, coalesce(brand, ''), count(*),
        sum(amount_cents)
      from pos_receipts
      where counted = 1 ${byEvent ? sql`and event_id is not null` : sql``}
      group by account_id, place_id, ${byEvent ? sql`event_id, ` : sql``}${slot}, payment_method, brand
    `.execute(db);
  }
  let below = smallest;
  for (const length of larger) {
    const slot = slotOf('slot_start', length);
    await sql`
      insert into pos_sales_buckets ${columns}
      select account_id, place_id, event_id, ${sql.lit(length)}, ${slot}, payment_method, branded, brand,
        sum(receipts), sum(amount_cents)
      from pos_sales_buckets
      where slot_ms = ${sql.lit(below)}
      group by account_id, place_id, event_id, ${slot}, payment_method, branded, brand
    `.execute(db);
    below = length;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pos_sales_buckets').execute();
}
