import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { SLOT_LENGTHS, slotStart } from './sales-bucket-layout.js';

// The pre-aggregated sales buckets (table pos_sales_buckets), kept by deltas: every write of receipts
// takes the receipts' stored states before and after it, and in the same transaction subtracts what the
// old states counted and adds what the new ones count. A bucket holds the counted receipts of one place,
// one event key, one slot of each length of the layout (sales-bucket-layout.ts), one stored payment method
// and one stored brand: their number and exact sum in cents. The figures fold methods and brands when
// they are read, so a change of those rules never makes the buckets stale.
//
// Each receipt is in one bucket a slot length under the event key '' (every receipt of the place: what a
// query without `event` reads), and once more under its event's id when it has one.

/** What the buckets need of a stored receipt. */
export interface BucketedReceipt {
  placeId: string;
  eventId: string | null;
  /** When it happened on the store's device (ms): the slot it is summed in. */
  occurredAt: number;
  /** As stored (the figures map unknown codes to `other` when read). */
  paymentMethod: string;
  /** As stored (folded when read). */
  brand: string | null;
  amountCents: number;
  /** Whether it counts toward the figures (the `counted` column); only counted receipts are in buckets. */
  counted: boolean;
}

/** One receipt written in a transaction: its stored state before (undefined: new) and after (undefined: deleted). */
export interface ReceiptChange {
  before: BucketedReceipt | undefined;
  after: BucketedReceipt | undefined;
}

/** The change of one bucket. */
export interface BucketDelta {
  accountId: string;
  placeId: string;
  /** '' for every receipt of the place; else one event's receipts. */
  eventKey: string;
  slotMs: number;
  slotStart: number;
  paymentMethod: string;
  /** 1 when the receipts recorded a brand; 0 (with `brand` '') when they recorded none. */
  branded: 0 | 1;
  brand: string;
  receipts: number;
  amountCents: bigint;
}

/** Buckets upserted per statement: 10 parameters each stays far below SQLite's and PostgreSQL's limits. */
const UPSERT_BATCH = 1_000;

/**
 * The bucket deltas of the changes: −1 receipt and −cents for every bucket an old counted state was in,
 * +1 and +cents for every bucket a new counted state is in, summed per bucket; buckets whose changes
 * cancel out are left out. Sorted by bucket: the same changes always write their buckets in one order.
 */
export function bucketDeltas(
  accountId: string,
  changes: Iterable<ReceiptChange>,
  lengths: readonly number[] = SLOT_LENGTHS,
): BucketDelta[] {
  const deltas = new Map<string, BucketDelta>();
  const add = (receipt: BucketedReceipt, sign: 1 | -1) => {
    const cents = BigInt(receipt.amountCents) * BigInt(sign);
    const branded = receipt.brand === null ? 0 : 1;
    const brand = receipt.brand ?? '';
    const eventKeys = receipt.eventId === null ? [''] : ['', receipt.eventId];
    for (const eventKey of eventKeys) {
      for (const slotMs of lengths) {
        const start = slotStart(receipt.occurredAt, slotMs);
        // NUL never occurs in stored text (src/lib/input-text.ts), so it separates the parts unambiguously.
        const key = [receipt.placeId, eventKey, slotMs, start, receipt.paymentMethod, branded, brand].join(
          '\u0000',
        );
        const delta = deltas.get(key);
        if (delta === undefined) {
          deltas.set(key, {
            accountId,
            placeId: receipt.placeId,
            eventKey,
            slotMs,
            slotStart: start,
            paymentMethod: receipt.paymentMethod,
            branded,
            brand,
            receipts: sign,
            amountCents: cents,
          });
        } else {
          delta.receipts += sign;
          delta.amountCents += cents;
        }
      }
    }
  };
  for (const { before, after } of changes) {
    if (before?.counted === true) add(before, -1);
    if (after?.counted === true) add(after, 1);
  }
  return [...deltas]
    .filter(([, delta]) => delta.receipts !== 0 || delta.amountCents !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, delta]) => delta);
}

/**
 * Adds the deltas to the buckets: one multi-row `insert … on conflict … do update` adding to the stored
 * sums (a new bucket is created), then the buckets that lost receipts and are now empty are deleted, so
 * that a bucket exists exactly while it holds counted receipts. Run it in the transaction that writes
 * the receipts.
 */
export async function applyBucketDeltas(db: Db, deltas: readonly BucketDelta[]): Promise<void> {
  for (let start = 0; start < deltas.length; start += UPSERT_BATCH) {
    const rows = deltas.slice(start, start + UPSERT_BATCH).map((delta) => ({
      account_id: delta.accountId,
      place_id: delta.placeId,
      event_id: delta.eventKey,
      slot_ms: delta.slotMs,
      slot_start: delta.slotStart,
      payment_method: delta.paymentMethod,
      branded: delta.branded,
      brand: delta.brand,
      receipts: delta.receipts,
      amount_cents: delta.amountCents,
    }));
    await db
      .insertInto('pos_sales_buckets')
      .values(rows)
      .onConflict((conflict) =>
        conflict
          .columns([
            'account_id',
            'place_id',
            'event_id',
            'slot_ms',
            'slot_start',
            'payment_method',
            'branded',
            'brand',
          ])
          .doUpdateSet((eb) => ({
            receipts: eb('pos_sales_buckets.receipts', '+', eb.ref('excluded.receipts')),
            amount_cents: eb('pos_sales_buckets.amount_cents', '+', eb.ref('excluded.amount_cents')),
          })),
      )
      .execute();
  }
  // Only a bucket that lost receipts can have become empty. The empty buckets of an account are found
  // through a partial index of them (migration 0003), so the delete reads no other bucket; the literal
  // `receipts = 0` is what lets both databases use that index.
  const shrunk = new Set(deltas.filter((delta) => delta.receipts < 0).map((delta) => delta.accountId));
  for (const accountId of shrunk) {
    await db
      .deleteFrom('pos_sales_buckets')
      .where('account_id', '=', accountId)
      // A bucket of no receipts with cents left would be a fault; it stays for the check to report.
      .where(sql<boolean>`receipts = 0 and amount_cents = 0`)
      .execute();
  }
}

/**
 * Updates the sales buckets of the account for receipts written in the current transaction, given each
 * receipt's stored state before and after the write: the one call of every path that writes receipts.
 */
export async function updateSalesBuckets(
  db: Db,
  accountId: string,
  changes: Iterable<ReceiptChange>,
): Promise<void> {
  await applyBucketDeltas(db, bucketDeltas(accountId, changes));
}
