import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import type { BucketDelta } from './sales-buckets.js';

// Writing the bucket deltas (sales-buckets.ts) into the buckets: batched upserts that add each delta to
// the stored bucket, and the removal of buckets left empty. (An upload's last step sums and writes its
// buckets in SQL instead: src/pos/receipts/receipt-apply-sqlite.ts and receipt-apply-postgres.ts.)

/** The bucket key's columns, in the order of the upserts' values. */
const KEY_COLUMNS = 'account_id, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand';
const ADD_TO_STORED =
  `on conflict (${KEY_COLUMNS}) do update set ` +
  'receipts = pos_sales_buckets.receipts + excluded.receipts, ' +
  'amount_cents = pos_sales_buckets.amount_cents + excluded.amount_cents';

/** SQLite: buckets upserted per statement (10 parameters each, far below SQLite's 32,766). */
const SQLITE_BATCH = 256;
/**
 * PostgreSQL: buckets upserted per statement, one array parameter a column (any number of rows). The
 * driver turns the arrays into text synchronously: a larger statement would hold the event loop longer.
 */
const POSTGRES_BATCH = 2_000;

/**
 * Sizes of the statements that write `count` rows: full batches, then the rest in powers of two. On
 * SQLite every size is one SQL text that the driver keeps compiled, so that a handful of texts is ever
 * prepared, whatever the number of rows.
 */
export function statementSizes(count: number, batch: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (; left >= batch; left -= batch) sizes.push(batch);
  for (let size = 2 ** Math.floor(Math.log2(batch)); size >= 1 && left > 0; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/** `rows` rows of `columns` question marks each, the VALUES list of a SQLite multi-row statement. */
export function sqliteValues(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

const sqliteUpserts = new Map<number, string>();
function sqliteUpsert(rows: number): string {
  let text = sqliteUpserts.get(rows);
  if (text === undefined) {
    text = `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) values ${sqliteValues(rows, 10)} ${ADD_TO_STORED}`;
    sqliteUpserts.set(rows, text);
  }
  return text;
}

const POSTGRES_UPSERT =
  `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
  'select * from unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::text[], ' +
  `$7::int4[], $8::text[], $9::int8[], $10::numeric[]) ${ADD_TO_STORED}`;

/**
 * Adds the deltas to the buckets: multi-row `insert … on conflict … do update` adding to the stored sums
 * (a new bucket is created), their SQL written once here rather than built per call (SQLite: rows of
 * parameters; PostgreSQL: one array a column). Then the buckets that lost receipts and are now empty
 * are deleted, so that a bucket exists exactly while it holds counted receipts. Run it in the
 * transaction that writes the receipts.
 */
export async function applyBucketDeltas(db: Db, deltas: readonly BucketDelta[]): Promise<void> {
  if (isPostgres(db)) {
    for (let start = 0; start < deltas.length; start += POSTGRES_BATCH) {
      const batch = deltas.slice(start, start + POSTGRES_BATCH);
      await db.executeQuery(CompiledQuery.raw(POSTGRES_UPSERT, postgresColumns(batch)));
    }
  } else {
    let start = 0;
    for (const size of statementSizes(deltas.length, SQLITE_BATCH)) {
      const parameters: unknown[] = [];
      for (const d of deltas.slice(start, start + size)) {
        parameters.push(
          d.accountId,
          d.placeId,
          d.eventKey,
          d.slotMs,
          d.slotStart,
          d.paymentMethod,
          d.branded,
          d.brand,
          d.receipts,
          d.amountCents,
        );
      }
      await db.executeQuery(CompiledQuery.raw(sqliteUpsert(size), parameters));
      start += size;
      // SQLite works synchronously: between statements the other requests get a turn.
      await nextTurn();
    }
  }
  // Only a bucket that lost receipts can have become empty. The empty buckets of an account are found
  // through a partial index of them (migration 0003), so the delete reads no other bucket; the literal
  // `receipts = 0` is what lets both databases use that index.
  const shrunk = new Set(deltas.filter((delta) => delta.receipts < 0).map((delta) => delta.accountId));
  for (const accountId of shrunk) await deleteEmptyBuckets(db, accountId);
}

/** Deletes the account's buckets that hold no receipts any more (the partial index finds them alone). */
async function deleteEmptyBuckets(db: Db, accountId: string): Promise<void> {
  await db
    .deleteFrom('pos_sales_buckets')
    .where('account_id', '=', accountId)
    // A bucket of no receipts with cents left would be a fault; it stays for the check to report.
    .where(sql<boolean>`receipts = 0 and amount_cents = 0`)
    .execute();
}

/** The deltas as the arrays of a PostgreSQL statement: one a column, in the order of KEY_COLUMNS. */
function postgresColumns(batch: readonly BucketDelta[]): unknown[] {
  const column = <T>(of: (delta: BucketDelta) => T) => batch.map(of);
  return [
    column((d) => d.accountId),
    column((d) => d.placeId),
    column((d) => d.eventKey),
    column((d) => d.slotMs),
    column((d) => d.slotStart),
    column((d) => d.paymentMethod),
    column((d) => d.branded),
    column((d) => d.brand),
    column((d) => d.receipts),
    column((d) => d.amountCents.toString()),
  ];
}
