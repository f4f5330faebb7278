import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery, sql, type Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { PosReceiptTable } from '../../db/schema.js';
import { countsTowardFigures } from './receipt-rules.js';
import { rebuildSalesBuckets } from '../sales/sales-bucket-audit.js';
import { applyBucketDeltas, sqliteValues, statementSizes } from '../sales/sales-bucket-writes.js';
import { BucketDeltaSum } from '../sales/sales-buckets.js';

/** What a device records of a receipt: every field the upsert compares (instants in ms, money in cents). */
export interface ReceiptData {
  id: string;
  placeId: string;
  eventId: string | null;
  occurredAt: number;
  paymentMethod: string;
  brand: string | null;
  amountCents: number;
  kind: string | null;
  status: string;
  demo: boolean;
}

/** A stored receipt: its data, whether it counts toward the figures, and when it arrived and changed. */
export interface Receipt extends ReceiptData {
  accountId: string;
  counted: boolean;
  receivedAt: number;
  updatedAt: number;
}

function toReceipt(row: Selectable<PosReceiptTable>): Receipt {
  return {
    accountId: row.account_id,
    id: row.id,
    placeId: row.place_id,
    eventId: row.event_id,
    occurredAt: row.occurred_at,
    paymentMethod: row.payment_method,
    brand: row.brand,
    amountCents: row.amount_cents,
    kind: row.kind,
    status: row.status,
    demo: row.demo === 1,
    counted: row.counted === 1,
    receivedAt: row.received_at,
    updatedAt: row.updated_at,
  };
}

/** Counts of a receipts call. */
export interface ReceiptCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** True when every stored field of the two receipts is equal (`counted` follows from them). */
export function sameReceipt(a: ReceiptData, b: ReceiptData): boolean {
  return (
    a.id === b.id &&
    a.placeId === b.placeId &&
    a.eventId === b.eventId &&
    a.occurredAt === b.occurredAt &&
    a.paymentMethod === b.paymentMethod &&
    a.brand === b.brand &&
    a.amountCents === b.amountCents &&
    a.kind === b.kind &&
    a.status === b.status &&
    a.demo === b.demo
  );
}

export async function findReceipt(db: Db, accountId: string, id: string): Promise<Receipt | undefined> {
  const row = await db
    .selectFrom('pos_receipts')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : toReceipt(row);
}

// The receipts of an upload are read and written with SQL written here once, not built per call: building
// a 500-row statement cost about a third of writing it. SQLite takes the ids of a look-up as one JSON
// array and the rows of a write as rows of parameters (a handful of statement sizes, each kept compiled
// by the driver); PostgreSQL takes one array parameter a column (`unnest`), whatever the number of rows.

const SQLITE_FIND =
  'select * from pos_receipts where account_id = ? and id in (select value from json_each(?))';
const POSTGRES_FIND = 'select * from pos_receipts where account_id = $1 and id = any($2::text[])';

/** The stored receipts of the account among `ids`, by id. */
async function findReceipts(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<Map<string, Receipt>> {
  const found = new Map<string, Receipt>();
  if (ids.length === 0) return found;
  const query = isPostgres(db)
    ? CompiledQuery.raw(POSTGRES_FIND, [accountId, ids])
    : CompiledQuery.raw(SQLITE_FIND, [accountId, JSON.stringify(ids)]);
  const { rows } = await db.executeQuery<Selectable<PosReceiptTable>>(query);
  for (const row of rows) found.set(row.id, toReceipt(row));
  return found;
}

/** The columns of pos_receipts in the order of the writes' values. */
const RECEIPT_COLUMNS =
  'account_id, id, place_id, event_id, occurred_at, payment_method, brand, amount_cents, kind, status, ' +
  'demo, counted, received_at, updated_at';
/** A replaced receipt keeps its `received_at`. */
const REPLACE_STORED =
  'on conflict (account_id, id) do update set place_id = excluded.place_id, ' +
  'event_id = excluded.event_id, occurred_at = excluded.occurred_at, ' +
  'payment_method = excluded.payment_method, brand = excluded.brand, ' +
  'amount_cents = excluded.amount_cents, kind = excluded.kind, status = excluded.status, ' +
  'demo = excluded.demo, counted = excluded.counted, updated_at = excluded.updated_at';

/** SQLite: rows per INSERT statement (14 parameters each, far below SQLite's 32,766). */
const SQLITE_WRITE_BATCH = 256;
/** PostgreSQL: rows per INSERT statement, one array parameter a column (turned into text synchronously). */
const POSTGRES_WRITE_BATCH = 2_000;

const sqliteWrites = new Map<number, string>();
function sqliteWrite(rows: number): string {
  let text = sqliteWrites.get(rows);
  if (text === undefined) {
    text = `insert into pos_receipts (${RECEIPT_COLUMNS}) values ${sqliteValues(rows, 14)} ${REPLACE_STORED}`;
    sqliteWrites.set(rows, text);
  }
  return text;
}

const POSTGRES_WRITE =
  `insert into pos_receipts (${RECEIPT_COLUMNS}) ` +
  'select $1::text, r.*, $2::int8, $2::int8 from unnest($3::text[], $4::text[], $5::text[], ' +
  '$6::int8[], $7::text[], $8::text[], $9::int8[], $10::text[], $11::text[], $12::int4[], ' +
  `$13::int4[]) as r ${REPLACE_STORED}`;

/** Inserts or replaces the rows of `receipts` (ids distinct), `counted` derived from the rules. */
async function upsertRows(
  db: Db,
  accountId: string,
  receipts: readonly ReceiptData[],
  now: number,
): Promise<void> {
  if (isPostgres(db)) {
    for (let start = 0; start < receipts.length; start += POSTGRES_WRITE_BATCH) {
      const batch = receipts.slice(start, start + POSTGRES_WRITE_BATCH);
      const column = <T>(of: (receipt: ReceiptData) => T) => batch.map(of);
      await db.executeQuery(
        CompiledQuery.raw(POSTGRES_WRITE, [
          accountId,
          now,
          column((r) => r.id),
          column((r) => r.placeId),
          column((r) => r.eventId),
          column((r) => r.occurredAt),
          column((r) => r.paymentMethod),
          column((r) => r.brand),
          column((r) => r.amountCents),
          column((r) => r.kind),
          column((r) => r.status),
          column((r) => (r.demo ? 1 : 0)),
          column((r) => (countsTowardFigures(r) ? 1 : 0)),
        ]),
      );
    }
    return;
  }
  let start = 0;
  for (const size of statementSizes(receipts.length, SQLITE_WRITE_BATCH)) {
    const parameters: unknown[] = [];
    for (const r of receipts.slice(start, start + size)) {
      parameters.push(
        accountId,
        r.id,
        r.placeId,
        r.eventId,
        r.occurredAt,
        r.paymentMethod,
        r.brand,
        r.amountCents,
        r.kind,
        r.status,
        r.demo ? 1 : 0,
        countsTowardFigures(r) ? 1 : 0,
        now,
        now,
      );
    }
    await db.executeQuery(CompiledQuery.raw(sqliteWrite(size), parameters));
    start += size;
    // SQLite works synchronously: between statements the other requests get a turn.
    await nextTurn();
  }
}

/**
 * Receipts whose bucket deltas are summed before they are applied, when the caller does not sum them
 * itself: the more receipts of one slot a batch holds, the fewer buckets it writes (of one busy place's
 * week, 500 receipts write 5.0 buckets a receipt and 5,000 write 3.1; of a day, 4.0 and 2.3).
 */
const BUCKET_BATCH = 5_000;

/** The first key of the PostgreSQL advisory lock that serialises the receipt writes of one account. */
const RECEIPT_WRITES_LOCK = 0x7265_6370;

/**
 * Waits until no other transaction writes receipts of the account, and keeps the others waiting until
 * this one ends. A write must know the state each receipt had before it (the sales buckets subtract it):
 * on PostgreSQL two transactions writing one receipt id at once would otherwise both read it as absent
 * (or as the same old state) and both subtract or add for it. SQLite has one writer at a time already.
 */
export async function lockReceiptWrites(db: Db, accountId: string): Promise<void> {
  if (isPostgres(db)) {
    await sql`select pg_advisory_xact_lock(${RECEIPT_WRITES_LOCK}, hashtext(${accountId}))`.execute(db);
  }
}

/**
 * Inserts new receipts and replaces changed ones (by id within the account). A replaced receipt keeps its
 * `received_at`; `counted` is derived from the rules, never taken from the caller. Ids must be distinct.
 * Runs inside the caller's transaction, and updates the sales buckets in it: each receipt's stored state
 * is read before it is replaced, and the buckets get what the old state counted subtracted and what the
 * new one counts added. With `buckets: 'rebuild'` (a bulk load, such as the demo's 200,000 receipts) no
 * state is read: the account's buckets are rebuilt from all its receipts once they are written, which
 * costs in proportion to the account's receipts, not to those written. With `stored` (the receipts'
 * stored states, already read by the caller in this transaction after `lockReceiptWrites`) they are not
 * read again. With `deltas` the bucket deltas are added to that sum and not applied: the caller, writing
 * many receipts in pages, applies the sum (`applyBucketDeltas`) before its transaction ends.
 */
export async function writeReceipts(
  db: Db,
  accountId: string,
  receipts: readonly ReceiptData[],
  now: number,
  options: {
    buckets?: 'deltas' | 'rebuild';
    stored?: ReadonlyMap<string, Receipt>;
    deltas?: BucketDeltaSum;
  } = {},
): Promise<void> {
  const deltas = options.buckets !== 'rebuild';
  if (!db.isTransaction)
    throw new Error('Receipts are written inside a transaction, with their sales buckets.');
  await lockReceiptWrites(db, accountId);
  // The caller's sum, applied by the caller before its transaction ends; else one of this write's.
  const sum = options.deltas ?? new BucketDeltaSum(accountId);
  for (let start = 0; start < receipts.length; start += BUCKET_BATCH) {
    const batch = receipts.slice(start, start + BUCKET_BATCH);
    // The stored states the sales buckets subtract (read before they are replaced).
    const stored = !deltas
      ? undefined
      : (options.stored ??
        (await findReceipts(
          db,
          accountId,
          batch.map((receipt) => receipt.id),
        )));
    await upsertRows(db, accountId, batch, now);
    if (stored === undefined) continue;
    for (const receipt of batch) {
      sum.add({
        before: stored.get(receipt.id),
        after: { ...receipt, counted: countsTowardFigures(receipt) },
      });
    }
    if (options.deltas === undefined) await applyBucketDeltas(db, sum.take());
  }
  if (!deltas) await rebuildSalesBuckets(db, { accountId });
}
