import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/database.js';
import { SLOT_LENGTHS } from './sales-bucket-layout.js';

// The sales buckets measured against the receipts they sum: what every bucket should hold, computed from
// the raw receipts in SQL (`npm run db:check-buckets` compares; `--rebuild` replaces the buckets with it,
// as does a bulk load). The deltas of the write path (sales-buckets.ts) must always leave the buckets
// equal to this.

/** A bucket's identity, in the columns' words. */
interface BucketKey {
  accountId: string;
  placeId: string;
  /** '' for every receipt of the place; else one event's receipts. */
  eventKey: string;
  slotMs: number;
  slotStart: number;
  paymentMethod: string;
  /** The stored brand; null when the receipts recorded none. */
  brand: string | null;
}

/** What a bucket holds: a number of receipts and their sum in cents. */
export interface BucketSums {
  receipts: number;
  amountCents: bigint;
}

/** A bucket whose stored sums are not those of the receipts (a side is null when it has no bucket). */
export interface BucketDifference extends BucketKey {
  stored: BucketSums | null;
  expected: BucketSums | null;
}

/** What the check found: how many buckets differ, and the first of them in key order. */
export interface BucketCheck {
  differing: number;
  differences: BucketDifference[];
}

const KEY_COLUMNS = [
  'account_id',
  'place_id',
  'event_id',
  'slot_ms',
  'slot_start',
  'payment_method',
  'branded',
  'brand',
] as const;

/** The start of the slot of `length` holding the instant in `column`, in SQL (floor, also before 1970). */
function slotOf(column: string, length: number): RawBuilder<number> {
  const l = sql.lit(length);
  return sql<number>`${sql.ref(column)} - ((${sql.ref(column)} % ${l}) + ${l}) % ${l}`;
}

/**
 * The buckets the receipts make, as one select of rows of the bucket table: the smallest slots summed
 * from the counted receipts, under the event key '' and, for receipts with an event, under its id; then
 * each larger length summed from the one below it (a slot lies in one slot of every larger length), so
 * the receipts are read once. Lengths are written as literals, so that a slot expression reads the same
 * in the select and in the GROUP BY (PostgreSQL matches them by their text).
 */
function expectedBuckets(accountId: string | undefined, lengths: readonly number[]): RawBuilder<unknown> {
  const account = accountId === undefined ? sql`` : sql`and account_id = ${accountId}`;
  const [smallest, ...larger] = lengths;
  if (smallest === undefined) throw new Error('A bucket layout has at least one slot length.');
  const fromReceipts = (byEvent: boolean) => {
    const slot = slotOf('occurred_at', smallest);
    return sql`
      select account_id, place_id, ${byEvent ? sql`event_id` : sql`''`} as event_id,
        ${sql.lit(smallest)} as slot_ms, ${slot} as slot_start, payment_method,
        case when brand is null then 0 else 1 end as branded, coalesce(brand, '') as brand,
        count(*) as receipts, sum(amount_cents) as amount_cents
      from pos_receipts
      where counted = 1 ${account} ${byEvent ? sql`and event_id is not null` : sql``}
      group by account_id, place_id, ${byEvent ? sql`event_id, ` : sql``}${slot}, payment_method, brand`;
  };
  const levels = [sql`level0 as materialized (${fromReceipts(false)} union all ${fromReceipts(true)})`];
  larger.forEach((length, index) => {
    const slot = slotOf('slot_start', length);
    levels.push(sql`${sql.id(`level${index + 1}`)} as materialized (
      select account_id, place_id, event_id, ${sql.lit(length)} as slot_ms, ${slot} as slot_start,
        payment_method, branded, brand, sum(receipts) as receipts, sum(amount_cents) as amount_cents
      from ${sql.id(`level${index}`)}
      group by account_id, place_id, event_id, ${slot}, payment_method, branded, brand)`);
  });
  const union = lengths.map((_, index) => sql`select * from ${sql.id(`level${index}`)}`);
  return sql`with ${sql.join(levels)} ${sql.join(union, sql` union all `)}`;
}

/**
 * Replaces the buckets (of one account, or all) with the sums of the stored receipts, in one
 * transaction (the caller's, when it is in one). Returns how many buckets there are now. For a bulk load
 * of receipts, and to repair.
 */
export async function rebuildSalesBuckets(
  db: Db,
  options: { accountId?: string; lengths?: readonly number[] } = {},
): Promise<number> {
  const { accountId, lengths = SLOT_LENGTHS } = options;
  const rebuild = async (trx: Db) => {
    let cleared = trx.deleteFrom('pos_sales_buckets');
    if (accountId !== undefined) cleared = cleared.where('account_id', '=', accountId);
    await cleared.execute();
    const inserted = await sql`
      insert into pos_sales_buckets (${sql.join(KEY_COLUMNS.map((column) => sql.ref(column)))}, receipts, amount_cents)
      ${expectedBuckets(accountId, lengths)}`.execute(trx);
    return Number(inserted.numAffectedRows ?? 0n);
  };
  return db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild);
}

interface DifferenceRow {
  account_id: string;
  place_id: string;
  event_id: string;
  slot_ms: number | string;
  slot_start: number | string;
  payment_method: string;
  branded: number;
  brand: string;
  stored_receipts: number | string | null;
  stored_cents: string | null;
  expected_receipts: number | string | null;
  expected_cents: string | null;
  differing: number | string;
}

const sums = (receipts: number | string | null, cents: string | null): BucketSums | null =>
  receipts === null || cents === null ? null : { receipts: Number(receipts), amountCents: BigInt(cents) };

/**
 * Compares every bucket (of one account, or all) with the sums of the stored receipts: a bucket missing,
 * one too many, or one whose count or cents differ. Returns how many differ and the first `limit` of them
 * in key order (default 50).
 */
export async function checkSalesBuckets(
  db: Db,
  options: { accountId?: string; limit?: number; lengths?: readonly number[] } = {},
): Promise<BucketCheck> {
  const { accountId, limit = 50, lengths = SLOT_LENGTHS } = options;
  const stored = accountId === undefined ? sql`` : sql`and s.account_id = ${accountId}`;
  const same = (column: string) => sql`e.${sql.ref(column)} = s.${sql.ref(column)}`;
  const keys = sql.join(KEY_COLUMNS.map(same), sql` and `);
  // The buckets the receipts make, joined to the stored ones by key (the table's primary key), and the
  // stored buckets the receipts do not make; then one count over both.
  const { rows } = await sql<DifferenceRow>`
    with expected as materialized (${expectedBuckets(accountId, lengths)}),
    differences as (
      select ${sql.join(KEY_COLUMNS.map((column) => sql`e.${sql.ref(column)}`))},
        s.receipts as stored_receipts, cast(s.amount_cents as text) as stored_cents,
        e.receipts as expected_receipts, cast(e.amount_cents as text) as expected_cents
      from expected e left join pos_sales_buckets s on ${keys}
      where s.account_id is null or e.receipts <> s.receipts or e.amount_cents <> s.amount_cents
      union all
      select ${sql.join(KEY_COLUMNS.map((column) => sql`s.${sql.ref(column)}`))},
        s.receipts, cast(s.amount_cents as text), null, null
      from pos_sales_buckets s
      where not exists (select 1 from expected e where ${keys}) ${stored}
    )
    select *, count(*) over () as differing from differences
    order by ${sql.join(KEY_COLUMNS.map((column) => sql.ref(column)))}
    limit ${limit}`.execute(db);
  return {
    differing: Number(rows[0]?.differing ?? 0),
    differences: rows.map((row) => ({
      accountId: row.account_id,
      placeId: row.place_id,
      eventKey: row.event_id,
      slotMs: Number(row.slot_ms),
      slotStart: Number(row.slot_start),
      paymentMethod: row.payment_method,
      brand: row.branded === 1 ? row.brand : null,
      stored: sums(row.stored_receipts, row.stored_cents),
      expected: sums(row.expected_receipts, row.expected_cents),
    })),
  };
}
