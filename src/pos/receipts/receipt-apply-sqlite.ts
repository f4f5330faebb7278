import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import type { TimeLimit } from '../../db/query-timeout.js';
import { SLOT_LENGTHS, SMALLEST_SLOT } from '../sales/sales-bucket-layout.js';
import type { ReceiptCounts } from './receipt-repository.js';

// The last step of an upload on a SQLite service database (receipt-apply.ts): the upload's staging file
// (receipt-staging.ts) is attached to the writer connection as `upload`, so that comparing the staged
// receipts with the stored ones, writing them and summing their sales buckets are `insert … select`
// statements that SQLite runs in C, rather than rows handed to JavaScript and back. Each statement takes
// one page of staged ids (or of summed buckets), so that between statements the other requests get a
// turn and the time limit is checked, and the memory the step holds does not grow with the upload.
//
// The sales buckets (src/pos/sales/sales-buckets.ts) change as the delta path changes them: what each
// stored counted state counted is subtracted and what each staged counted state counts is added. The
// deltas are summed per smallest slot in a temporary table of the transaction: the staged states come
// summed from the staging (its table `hours`), the stored ones that the upload replaces are subtracted
// page by page. The sums are then added to the buckets of that length and, summed again (each length
// from the one below it), of each larger one: every bucket is written once.

/** Staged receipts per page: one statement of each kind per page. */
const PAGE = 5_000;
/** Summed hourly buckets written per statement. */
const BUCKET_PAGE = 20_000;

/** A staged column of the first version the upload sent of the receipt (kept as JSON when it came again). */
const first = (column: string, key: string) =>
  `(case when s.first is null then s.${column} else json_extract(s.first, '$.${key}') end)`;

/** The stored receipt `r` equals the first version the upload sent of the staged one `s`. */
const SAME_AS_FIRST = [
  `r.place_id = ${first('place_id', 'placeId')}`,
  `r.event_id is ${first('event_id', 'eventId')}`,
  `r.occurred_at = ${first('occurred_at', 'occurredAt')}`,
  `r.payment_method = ${first('payment_method', 'paymentMethod')}`,
  `r.brand is ${first('brand', 'brand')}`,
  `r.amount_cents = ${first('amount_cents', 'amountCents')}`,
  `r.kind is ${first('kind', 'kind')}`,
  `r.status = ${first('status', 'status')}`,
  `r.demo = ${first('demo', 'demo')}`,
].join(' and ');

/** The staged receipts of one page: ids after the first parameter, up to and with the second. */
const IN_PAGE = 's.id > ? and s.id <= ?';

const PAGE_END = `select max(id) as last from (select id from upload.staged where id > ? order by id limit ${PAGE})`;

/** Parameters: account, page (2). Updated = the page's receipts less these two. */
const COUNTS =
  'select count(*) as receipts, count(r.id) as stored, ' +
  `coalesce(sum(case when r.id is not null and ${SAME_AS_FIRST} then 1 else 0 end), 0) as unchanged ` +
  `from upload.staged s left join pos_receipts r on r.account_id = ? and r.id = s.id where ${IN_PAGE}`;

const HOUR = SMALLEST_SLOT;
const slotOf = (column: string, length: number) =>
  `${column} - ((${column} % ${length}) + ${length}) % ${length}`;

/** The key of a smallest slot's sum: a bucket's key less the account and slot length. */
const HOUR_KEY = 'place_id, event_id, slot_start, payment_method, branded, brand';

/** The smallest slots' deltas of the transaction, one row a bucket key; its cents stay whole. */
const CREATE_HOURS = `create temp table upload_hours (
  place_id text not null, event_id text not null, slot_start integer not null, payment_method text not null,
  branded integer not null, brand text not null, receipts integer not null,
  amount_cents integer not null check (typeof(amount_cents) = 'integer'),
  primary key (${HOUR_KEY}))`;

/** The staged receipts' sums per smallest slot, as the staging summed them (by rowid: in key order). */
const ADD_STAGED_HOURS =
  `insert into upload_hours (${HOUR_KEY}, receipts, amount_cents) ` +
  `select ${HOUR_KEY}, receipts, amount_cents from upload.hours order by rowid`;

/** The counted stored receipts of the page, once as every receipt of the place, once by event. */
function storedRows(byEvent: boolean): string {
  return (
    `select r.place_id as place_id, ${byEvent ? 'r.event_id' : "''"} as event_id, r.occurred_at as at, ` +
    'r.payment_method as payment_method, r.brand as brand, r.amount_cents as cents ' +
    'from upload.staged s join pos_receipts r on r.account_id = ? and r.id = s.id ' +
    `where ${IN_PAGE} and r.counted = 1${byEvent ? ' and r.event_id is not null' : ''}`
  );
}

/**
 * Parameters: (account, page) twice. What the stored states of a page's receipts counted, subtracted
 * before the receipts replace them. A receipt the upload leaves as it was is subtracted here and was
 * added by the staged sums: the same bucket, summing to nothing.
 */
const SUBTRACT_STORED_HOURS =
  `insert into upload_hours (${HOUR_KEY}, receipts, amount_cents) ` +
  `select place_id, event_id, ${slotOf('at', HOUR)}, payment_method, brand is not null, coalesce(brand, ''), ` +
  `-count(*), -sum(cents) from (${storedRows(false)} union all ${storedRows(true)}) where true ` +
  `group by place_id, event_id, ${slotOf('at', HOUR)}, payment_method, brand ` +
  `on conflict (${HOUR_KEY}) do update set ` +
  'receipts = receipts + excluded.receipts, amount_cents = amount_cents + excluded.amount_cents';

/** The staged receipts written into the account; parameters: account, now (2), then the condition's. */
const INSERT_STAGED =
  'insert into pos_receipts (account_id, id, place_id, event_id, occurred_at, payment_method, brand, ' +
  'amount_cents, kind, status, demo, counted, received_at, updated_at) ' +
  'select ?, s.id, s.place_id, s.event_id, s.occurred_at, s.payment_method, s.brand, s.amount_cents, s.kind, ' +
  's.status, s.demo, s.counted, ?, ? from upload.staged s where ';

/**
 * Parameters: account, now (2), account, page (2). A staged receipt is written unless the stored one
 * equals the first version the upload sent and no later version differed; a replaced one keeps its
 * `received_at`.
 */
const WRITE_RECEIPTS =
  INSERT_STAGED +
  '(s.changed = 1 or not exists ' +
  `(select 1 from pos_receipts r where r.account_id = ? and r.id = s.id and ${SAME_AS_FIRST})) and ${IN_PAGE} ` +
  'on conflict (account_id, id) do update set place_id = excluded.place_id, ' +
  'event_id = excluded.event_id, occurred_at = excluded.occurred_at, ' +
  'payment_method = excluded.payment_method, brand = excluded.brand, ' +
  'amount_cents = excluded.amount_cents, kind = excluded.kind, status = excluded.status, ' +
  'demo = excluded.demo, counted = excluded.counted, updated_at = excluded.updated_at';

/**
 * Parameters: account, now (2), page (2). A page none of whose receipts is stored (most pages of a first
 * upload): every one is written, without looking each up again (a million receipts: 5.9 s instead of
 * 7.3 s of writing).
 */
const WRITE_NEW_RECEIPTS = INSERT_STAGED + IN_PAGE;

const KEY_COLUMNS = 'account_id, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand';
const ADD_TO_BUCKETS =
  `on conflict (${KEY_COLUMNS}) do update set ` +
  'receipts = pos_sales_buckets.receipts + excluded.receipts, ' +
  'amount_cents = pos_sales_buckets.amount_cents + excluded.amount_cents';

/** Parameters: account, rowid range (2). The smallest slots' buckets, a page of summed deltas. */
const WRITE_HOURS =
  `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
  `select ?, place_id, event_id, ${HOUR}, slot_start, payment_method, branded, brand, receipts, amount_cents ` +
  'from upload_hours where rowid > ? and rowid <= ? and (receipts <> 0 or amount_cents <> 0) ' +
  `order by place_id, event_id, slot_start, payment_method, branded, brand ${ADD_TO_BUCKETS}`;

/**
 * The deltas of the larger lengths, each length's summed from the length below it (a fraction of the
 * rows of the hours: 217,011 hourly rows, 92,950 of 4 hours, 36,533 of 16 hours for a year of the bench).
 */
const CREATE_SLOTS = `create temp table upload_slots (
  slot_ms integer not null, place_id text not null, event_id text not null, slot_start integer not null,
  payment_method text not null, branded integer not null, brand text not null, receipts integer not null,
  amount_cents integer not null check (typeof(amount_cents) = 'integer'),
  primary key (slot_ms, ${HOUR_KEY}))`;

/** The deltas of `length` summed from those of `below`, the next smaller length; zero sums left out. */
function sumLength(length: number, below: number): string {
  const slot = slotOf('slot_start', length);
  const source = below === HOUR ? 'upload_hours' : `upload_slots where slot_ms = ${below}`;
  return (
    `insert into upload_slots (slot_ms, ${HOUR_KEY}, receipts, amount_cents) ` +
    `select ${length}, place_id, event_id, ${slot}, payment_method, branded, brand, sum(receipts), ` +
    `sum(amount_cents) from ${source} group by place_id, event_id, ${slot}, payment_method, branded, brand ` +
    'having sum(receipts) <> 0 or sum(amount_cents) <> 0'
  );
}

/** Parameter: account. The buckets of a larger length, from its summed deltas (in the buckets' order). */
function writeLength(length: number): string {
  return (
    `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
    'select ?, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand, receipts, ' +
    `amount_cents from upload_slots where slot_ms = ${length} ${ADD_TO_BUCKETS}`
  );
}

const DELETE_EMPTY =
  'delete from pos_sales_buckets where account_id = ? and receipts = 0 and amount_cents = 0';

async function run<R>(db: Db, text: string, parameters: readonly unknown[] = []) {
  return (await db.executeQuery<R>(CompiledQuery.raw(text, [...parameters]))).rows;
}

/**
 * Writes the staged receipts attached as `upload` into the account, in the caller's transaction (after
 * `lockReceiptWrites` and the check of its places and events), and keeps its sales buckets. Returns the
 * counts of the comparison with the stored receipts; those of repeats within the upload are the caller's.
 */
export async function applyAttachedStaging(
  trx: Db,
  accountId: string,
  now: number,
  limit: TimeLimit,
): Promise<ReceiptCounts> {
  const counts: ReceiptCounts = { inserted: 0, updated: 0, unchanged: 0 };
  await run(trx, CREATE_HOURS);
  await run(trx, ADD_STAGED_HOURS);
  let after = '';
  for (;;) {
    await limit.check();
    const [end] = await run<{ last: string | null }>(trx, PAGE_END, [after]);
    const last = end?.last ?? null;
    if (last === null) break;
    const page = [after, last];
    const [found] = await run<{ receipts: number; stored: number; unchanged: number }>(trx, COUNTS, [
      accountId,
      ...page,
    ]);
    if (found !== undefined) {
      counts.inserted += found.receipts - found.stored;
      counts.unchanged += found.unchanged;
      counts.updated += found.stored - found.unchanged;
    }
    // The stored states are read for the buckets before the receipts replace them.
    if (found !== undefined && found.stored > 0) {
      await run(trx, SUBTRACT_STORED_HOURS, [accountId, ...page, accountId, ...page]);
    }
    if (found?.stored === 0) {
      await run(trx, WRITE_NEW_RECEIPTS, [accountId, now, now, ...page]);
    } else {
      await run(trx, WRITE_RECEIPTS, [accountId, now, now, accountId, ...page]);
    }
    after = last;
    // SQLite works synchronously: between pages the other requests get a turn.
    if (found !== undefined && found.receipts >= PAGE) await nextTurn();
  }
  const [rows] = await run<{ last: number | null }>(trx, 'select max(rowid) as last from upload_hours');
  const lastRow = rows?.last ?? 0;
  // A statement over more than a page of summed buckets takes a while: the other requests get a turn
  // after it. A small upload's statements follow one another.
  const long = lastRow > BUCKET_PAGE;
  for (let from = 0; from < lastRow; from += BUCKET_PAGE) {
    await limit.check();
    await run(trx, WRITE_HOURS, [accountId, from, from + BUCKET_PAGE]);
    if (long) await nextTurn();
  }
  await run(trx, CREATE_SLOTS);
  let below = HOUR;
  for (const length of SLOT_LENGTHS.slice(1)) {
    await limit.check();
    await run(trx, sumLength(length, below));
    await run(trx, writeLength(length), [accountId]);
    below = length;
    if (long) await nextTurn();
  }
  await run(trx, 'drop table upload_slots');
  await run(trx, 'drop table upload_hours');
  await run(trx, DELETE_EMPTY, [accountId]);
  return counts;
}
