import { sql, type CompiledQuery, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { PosReceiptTable } from '../db/schema.js';
import { countsTowardFigures } from './receipt-rules.js';
import { rebuildSalesBuckets } from './sales-bucket-audit.js';
import { updateSalesBuckets, type ReceiptChange } from './sales-buckets.js';

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

// The receipts of an upload are read and written in pages of one size, so the SQL of those statements
// is built once per dialect and only their parameters change: building a 500-row statement cost about a
// third of writing it. Only full pages are kept (two statements per dialect); other sizes are built.
const statements = new Map<string, CompiledQuery>();

/** Receipts per look-up (`findReceipts`) whose statement is kept: the page of an upload's last step. */
export const RECEIPTS_PER_LOOKUP = 1_000;

/**
 * `build`'s statement with `parameters`. A full page's SQL is built once per dialect and kept; `build`
 * is given the values that `parameters` lists, so that first build checks they are taken in that order.
 */
function withParameters(
  db: Db,
  key: string | undefined,
  build: () => CompiledQuery,
  parameters: readonly unknown[],
): CompiledQuery {
  if (key === undefined) return build();
  const cacheKey = `${isPostgres(db) ? 'pg' : 'sqlite'}:${key}`;
  const kept = statements.get(cacheKey);
  if (kept !== undefined) return { ...kept, parameters };
  const statement = build();
  const built = statement.parameters;
  if (built.length !== parameters.length || built.some((value, at) => value !== parameters[at])) {
    throw new Error(`statement ${key}: its parameters are not in the order given`);
  }
  statements.set(cacheKey, { ...statement, parameters: [] });
  return statement;
}

/** The stored receipts of the account among `ids`, by id. */
export async function findReceipts(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<Map<string, Receipt>> {
  const found = new Map<string, Receipt>();
  if (ids.length === 0) return found;
  const query = withParameters(
    db,
    ids.length === RECEIPTS_PER_LOOKUP ? 'find' : undefined,
    () =>
      db
        .selectFrom('pos_receipts')
        .selectAll()
        .where('account_id', '=', accountId)
        .where('id', 'in', ids)
        .compile(),
    [accountId, ...ids],
  );
  const { rows } = await db.executeQuery<Selectable<PosReceiptTable>>(query);
  for (const row of rows) found.set(row.id, toReceipt(row));
  return found;
}

/** Rows per INSERT statement: 14 parameters each stays far below SQLite's and PostgreSQL's limits. */
const WRITE_BATCH = 500;

/** A receipt's row, its columns in the order of the INSERT's parameters. */
function receiptRow(accountId: string, receipt: ReceiptData, now: number): Insertable<PosReceiptTable> {
  return {
    account_id: accountId,
    id: receipt.id,
    place_id: receipt.placeId,
    event_id: receipt.eventId,
    occurred_at: receipt.occurredAt,
    payment_method: receipt.paymentMethod,
    brand: receipt.brand,
    amount_cents: receipt.amountCents,
    kind: receipt.kind,
    status: receipt.status,
    demo: receipt.demo ? 1 : 0,
    counted: countsTowardFigures(receipt) ? 1 : 0,
    received_at: now,
    updated_at: now,
  };
}

/**
 * Receipts whose bucket deltas are summed before they are applied: the more receipts of one slot a batch
 * holds, the fewer buckets it writes (of one busy place's week, 500 receipts write 5.0 buckets a receipt
 * and 5,000 write 3.1; of a day, 4.0 and 2.3), and the deltas of 5,000 stay a few megabytes.
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
 * read again.
 */
export async function writeReceipts(
  db: Db,
  accountId: string,
  receipts: readonly ReceiptData[],
  now: number,
  options: { buckets?: 'deltas' | 'rebuild'; stored?: ReadonlyMap<string, Receipt> } = {},
): Promise<void> {
  const deltas = options.buckets !== 'rebuild';
  if (!db.isTransaction)
    throw new Error('Receipts are written inside a transaction, with their sales buckets.');
  await lockReceiptWrites(db, accountId);
  let changes: ReceiptChange[] = [];
  for (let start = 0; start < receipts.length; start += WRITE_BATCH) {
    const batch = receipts.slice(start, start + WRITE_BATCH);
    // The stored states the sales buckets subtract (read before they are replaced).
    const stored = !deltas
      ? undefined
      : (options.stored ??
        (await findReceipts(
          db,
          accountId,
          batch.map((receipt) => receipt.id),
        )));
    const rows = batch.map((receipt) => receiptRow(accountId, receipt, now));
    const build = () =>
      db
        .insertInto('pos_receipts')
        .values(rows)
        .onConflict((conflict) =>
          conflict.columns(['account_id', 'id']).doUpdateSet((eb) => ({
            place_id: eb.ref('excluded.place_id'),
            event_id: eb.ref('excluded.event_id'),
            occurred_at: eb.ref('excluded.occurred_at'),
            payment_method: eb.ref('excluded.payment_method'),
            brand: eb.ref('excluded.brand'),
            amount_cents: eb.ref('excluded.amount_cents'),
            kind: eb.ref('excluded.kind'),
            status: eb.ref('excluded.status'),
            demo: eb.ref('excluded.demo'),
            counted: eb.ref('excluded.counted'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .compile();
    await db.executeQuery(
      withParameters(
        db,
        rows.length === WRITE_BATCH ? 'write' : undefined,
        build,
        rows.flatMap(Object.values),
      ),
    );
    if (stored === undefined) continue;
    for (const receipt of batch) {
      changes.push({
        before: stored.get(receipt.id),
        after: { ...receipt, counted: countsTowardFigures(receipt) },
      });
    }
    if (changes.length >= BUCKET_BATCH) {
      await updateSalesBuckets(db, accountId, changes);
      changes = [];
    }
  }
  if (deltas) await updateSalesBuckets(db, accountId, changes);
  else await rebuildSalesBuckets(db, { accountId });
}
