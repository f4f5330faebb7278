import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TimeLimit } from '../../db/query-timeout.js';
import { SLOT_LENGTHS, SMALLEST_SLOT } from '../sales/sales-bucket-layout.js';
import type { ReceiptCounts } from './receipt-repository.js';
import { PAGE_COLUMNS, type ReceiptStaging } from './receipt-staging.js';

// The last step of an upload on PostgreSQL (receipt-apply.ts): the staged receipts (receipt-staging.ts)
// are sent a page at a time, each the one JSON text the staging file writes for it (no object a receipt
// in the service's memory), and one statement does the page's work on the server: it reads the stored
// states, counts the comparison, writes the receipts that changed and keeps the page's bucket deltas
// summed per smallest slot. All of a statement's parts see the table as it was when the statement
// began, so the deltas subtract the states the write replaces.
//
// The deltas (−1 and −cents for each stored counted state replaced, +1 and +cents for each staged
// counted state) go to a temporary table of the transaction without index; at the end they are summed
// per hourly bucket once, and every bucket of every length (src/pos/sales/sales-bucket-layout.ts) is
// written once, in the buckets' key order, from those sums, by one statement. A million receipts of one place's year make
// about 375,000 buckets, far fewer than the deltas a page-by-page write would have rewritten.

/** Staged receipts per statement. */
const PAGE = 5_000;

const HOUR = SMALLEST_SLOT;
const slotOf = (column: string, length: number) =>
  `${column} - ((${column} % ${length}) + ${length}) % ${length}`;

/**
 * The deltas of the transaction, no index. Kept by the connection once created (emptied at every commit,
 * and a rollback takes its rows away): the catalog is not written at every upload.
 */
const CREATE_DELTAS = `create temporary table if not exists upload_deltas (
  place_id text, event_id text, slot_start int8, payment_method text, branded int4, brand text,
  receipts int8, amount_cents numeric) on commit delete rows`;

/** A column of the first version the upload sent of the staged receipt `s` (JSON when it came again). */
const first = (column: string, key: string, type: string) =>
  `(case when s.first is null then s.${column} else (s.first->>'${key}')::${type} end)`;

/** The stored receipt `r` equals the first version the upload sent of `s`. */
const SAME_AS_FIRST = [
  `r.place_id = ${first('place_id', 'placeId', 'text')}`,
  `r.event_id is not distinct from ${first('event_id', 'eventId', 'text')}`,
  `r.occurred_at = ${first('occurred_at', 'occurredAt', 'int8')}`,
  `r.payment_method = ${first('payment_method', 'paymentMethod', 'text')}`,
  `r.brand is not distinct from ${first('brand', 'brand', 'text')}`,
  `r.amount_cents = ${first('amount_cents', 'amountCents', 'int8')}`,
  `r.kind is not distinct from ${first('kind', 'kind', 'text')}`,
  `r.status = ${first('status', 'status', 'text')}`,
  `r.demo = (case when s.first is null then s.demo else ((s.first->>'demo')::boolean)::int4 end)`,
].join(' and ');

/** A side's rows of the deltas: `old` (stored, subtracted) or `s` (staged, added). */
function stateRows(source: 'old' | 's', byEvent: boolean): string {
  const sign = source === 'old' ? '-' : '';
  return (
    `select ${source}.place_id, ${byEvent ? `${source}.event_id` : "''"} as event_id, ` +
    `${source}.occurred_at as at, ${source}.payment_method, ${source}.brand, ${sign}1 as n, ` +
    `${sign}${source}.amount_cents as cents from ${source} where ${source}.counted = 1` +
    (byEvent ? ` and ${source}.event_id is not null` : '')
  );
}

/** The type of each column of a staged page's rows (PAGE_COLUMNS). */
const PAGE_TYPES: Record<(typeof PAGE_COLUMNS)[number], string> = {
  id: 'text',
  place_id: 'text',
  event_id: 'text',
  occurred_at: 'int8',
  payment_method: 'text',
  brand: 'text',
  amount_cents: 'int8',
  kind: 'text',
  status: 'text',
  demo: 'int4',
  counted: 'int4',
  first: 'jsonb',
  changed: 'int4',
};

/**
 * Parameters: account, now, the page as the staging wrote it (`jsonPages`). Answers the page's receipts,
 * those stored, and those stored unchanged. A staged receipt is written unless the stored one equals the
 * first version the upload sent and no later version differed; a replaced one keeps its `received_at`.
 */
const APPLY_PAGE =
  'with s as materialized (select ' +
  PAGE_COLUMNS.map((column, i) => `(e->>${i})::${PAGE_TYPES[column]} as ${column}`).join(', ') +
  ' from jsonb_array_elements($3::jsonb) e), ' +
  // The stored states by the page's ids, through the primary key (the ids as one array). A join with
  // `s` was planned, with the statistics of a table still growing inside the transaction, as a hash of
  // every receipt of the account: each page read them all, and a million-receipt upload slowed page by
  // page.
  'old as (select r.* from pos_receipts r where r.account_id = $1 and r.id = any(array(select id from s))), ' +
  'compared as (select s.*, r.id is not null as stored, ' +
  `coalesce(${SAME_AS_FIRST}, false) as same from s left join old r on r.id = s.id), ` +
  'written as (insert into pos_receipts (account_id, id, place_id, event_id, occurred_at, payment_method, ' +
  'brand, amount_cents, kind, status, demo, counted, received_at, updated_at) ' +
  'select $1, id, place_id, event_id, occurred_at, payment_method, brand, amount_cents, kind, status, demo, ' +
  'counted, $2, $2 from compared where not same or changed = 1 ' +
  'on conflict (account_id, id) do update set place_id = excluded.place_id, ' +
  'event_id = excluded.event_id, occurred_at = excluded.occurred_at, ' +
  'payment_method = excluded.payment_method, brand = excluded.brand, ' +
  'amount_cents = excluded.amount_cents, kind = excluded.kind, status = excluded.status, ' +
  'demo = excluded.demo, counted = excluded.counted, updated_at = excluded.updated_at), ' +
  'deltas as (insert into upload_deltas select place_id, event_id, ' +
  `${slotOf('at', HOUR)}, payment_method, (brand is not null)::int4, coalesce(brand, ''), sum(n), sum(cents) ` +
  `from (${stateRows('old', false)} union all ${stateRows('old', true)} union all ` +
  `${stateRows('s', false)} union all ${stateRows('s', true)}) d ` +
  `group by place_id, event_id, ${slotOf('at', HOUR)}, payment_method, brand) ` +
  'select count(*)::int4 as receipts, count(*) filter (where stored)::int4 as stored, ' +
  'count(*) filter (where same)::int4 as unchanged from compared';

const KEY_COLUMNS = 'account_id, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand';
const ADD_TO_BUCKETS =
  `on conflict (${KEY_COLUMNS}) do update set ` +
  'receipts = pos_sales_buckets.receipts + excluded.receipts, ' +
  'amount_cents = pos_sales_buckets.amount_cents + excluded.amount_cents';

/** The sums of one length from the hourly sums (`hours`), as rows of the bucket table less the account. */
function lengthRows(length: number): string {
  const slot = length === HOUR ? 'slot_start' : slotOf('slot_start', length);
  return (
    `select place_id, event_id, ${length}::int8 as slot_ms, ${slot} as slot_start, payment_method, branded, ` +
    `brand, sum(receipts) as receipts, sum(amount_cents) as amount_cents from hours ` +
    `group by place_id, event_id, ${slot}, payment_method, branded, brand ` +
    'having sum(receipts) <> 0 or sum(amount_cents) <> 0'
  );
}

/**
 * Parameter: account. The deltas summed per hourly bucket once, then every length's buckets from those
 * sums, all written by one statement in the buckets' key order (the same changes always write their
 * buckets in one order).
 */
const WRITE_BUCKETS =
  'with hours as materialized (select place_id, event_id, slot_start, payment_method, branded, brand, ' +
  'sum(receipts) as receipts, sum(amount_cents) as amount_cents from upload_deltas ' +
  'group by place_id, event_id, slot_start, payment_method, branded, brand) ' +
  `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
  'select $1, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand, receipts, amount_cents ' +
  `from (${SLOT_LENGTHS.map(lengthRows).join(' union all ')}) b ` +
  `order by place_id, event_id, slot_ms, slot_start, payment_method, branded, brand ${ADD_TO_BUCKETS}`;

/**
 * Writes the staged receipts into the account in the caller's transaction (after `lockReceiptWrites`
 * and the check of its places and events) and keeps its sales buckets. Returns the counts of the
 * comparison with the stored receipts; those of repeats within the upload are the caller's.
 */
export async function applyStagingOnPostgres(
  trx: Db,
  accountId: string,
  staging: ReceiptStaging,
  now: number,
  limit: TimeLimit,
): Promise<ReceiptCounts> {
  const counts: ReceiptCounts = { inserted: 0, updated: 0, unchanged: 0 };
  await trx.executeQuery(CompiledQuery.raw(CREATE_DELTAS));
  for (const page of staging.jsonPages(PAGE)) {
    await limit.check();
    const { rows } = await trx.executeQuery<{ receipts: number; stored: number; unchanged: number }>(
      CompiledQuery.raw(APPLY_PAGE, [accountId, now, page]),
    );
    const found = rows[0];
    if (found === undefined) continue;
    counts.inserted += found.receipts - found.stored;
    counts.unchanged += found.unchanged;
    counts.updated += found.stored - found.unchanged;
  }
  // The buckets' statement is the step's longest on a long upload: it gets what is left of the limit.
  await limit.check();
  await trx.executeQuery(CompiledQuery.raw(WRITE_BUCKETS, [accountId]));
  await trx.executeQuery(
    CompiledQuery.raw(
      'delete from pos_sales_buckets where account_id = $1 and receipts = 0 and amount_cents = 0',
      [accountId],
    ),
  );
  return counts;
}
