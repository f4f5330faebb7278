import { sql, type Kysely } from 'kysely';

// The sales buckets lose their 15-minute slots (src/pos/sales/sales-bucket-layout.ts): the smallest slot is
// an hour, and a period's edges inside an hour are read from the raw receipts. The buckets of every other
// length sum the same receipts as before, so only the 15-minute ones go; nothing is rebuilt.

/** The slot length removed (ms). */
const QUARTER_HOUR = 900_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from pos_sales_buckets where slot_ms = ${sql.lit(QUARTER_HOUR)}`.execute(db);
}

/** Builds the 15-minute buckets again from the counted receipts, as migration 0003 built them. */
export async function down(db: Kysely<unknown>): Promise<void> {
  const length = sql.lit(QUARTER_HOUR);
  const slot = sql`occurred_at - ((occurred_at % ${length}) + ${length}) % ${length}`;
  for (const byEvent of [false, true]) {
    await sql`
      insert into pos_sales_buckets (account_id, place_id, event_id, slot_ms, slot_start, payment_method,
        branded, brand, receipts, amount_cents)
      select account_id, place_id, ${byEvent ? sql`event_id` : sql`''`}, ${length}, ${slot},
        payment_method, case when brand is null then 0 else 1 end, coalesce(brand, ''), count(*),
        sum(amount_cents)
      from pos_receipts
      where counted = 1 ${byEvent ? sql`and event_id is not null` : sql``}
      group by account_id, place_id, ${byEvent ? sql`event_id, ` : sql``}${slot}, payment_method, brand
    `.execute(db);
  }
}
