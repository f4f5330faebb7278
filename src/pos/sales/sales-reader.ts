import type { Db } from '../../db/database.js';
import type { ReceiptGroup } from './sales-figures.js';

// The port behind the sales figures: where the counted receipts of a period come from, grouped by stored
// payment method and brand. The raw reader sums receipts; a reader over pre-aggregated buckets can take
// its place, as long as it returns the same groups for every query (test/pos/sales-reader.contract.test.ts
// runs every reader against an independent reference).

/** What is asked: one place of an account, a period in milliseconds, and optionally one event. */
export interface SalesQuery {
  accountId: string;
  placeId: string;
  /** Only receipts recorded with this event; null sums all receipts of the place, with or without event. */
  eventId: string | null;
  /** Start of the period, included (ms since the epoch); a fraction of a second is rounded up. */
  from: number;
  /** End of the period, excluded (ms since the epoch); a fraction of a second is rounded up. */
  to: number;
}

/**
 * The counted receipts (`counted = 1`) of the query's place in its period, of its event when it names one:
 * the rows both readers start from (the raw reader for the whole period, the bucket reader at its edges).
 * With an event the index pos_receipts_of_event (account, place, event, occurred_at; only receipts of an
 * event) serves it; without, pos_receipts_period (account, place, occurred_at).
 */
export function countedReceipts(db: Db, query: SalesQuery) {
  const receipts = db
    .selectFrom('pos_receipts')
    .where('account_id', '=', query.accountId)
    .where('place_id', '=', query.placeId)
    .where('occurred_at', '>=', query.from)
    .where('occurred_at', '<', query.to)
    .where('counted', '=', 1);
  return query.eventId === null ? receipts : receipts.where('event_id', '=', query.eventId);
}

/** Reads the counted receipts of a query, grouped. */
export interface SalesReader {
  /** A short name for logs, benchmarks and test titles. */
  readonly name: string;
  /**
   * The counted receipts of the query (`counted = 1`, "What counts toward the total") grouped by stored
   * payment method and brand, with their count and exact sum in cents. The period is taken as given,
   * in milliseconds (from included, to excluded); an empty period has no group.
   */
  receiptGroups(db: Db, query: SalesQuery): Promise<ReceiptGroup[]>;
}
