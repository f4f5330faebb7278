import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import type { ReceiptGroup } from './sales-figures.js';
import { countedReceipts, type SalesQuery, type SalesReader } from './sales-reader.js';

// The raw reader: sums the receipts themselves, grouped in the database.

/** The raw reader's query: the counted receipts of the query, grouped by stored method and brand. */
export function countedReceiptsQuery(db: Db, query: SalesQuery) {
  return countedReceipts(db, query)
    .select(['payment_method', 'brand'])
    .select((eb) => [
      eb.fn.countAll<number | string>().as('receipts'),
      sql<string>`cast(sum(${eb.ref('amount_cents')}) as text)`.as('cents'),
    ])
    .groupBy(['payment_method', 'brand']);
}

/**
 * The counted receipts of the query grouped by stored payment method and brand, with their count and
 * exact sum in cents. The period is taken as given, in milliseconds (from included, to excluded).
 *
 * The sum is cast to text in SQL and parsed with BigInt, so that no driver ever holds it as a float:
 * - PostgreSQL: SUM(bigint) is numeric (arbitrary precision, never overflows); as text it is the exact
 *   integer (`pg` would hand numeric over as text anyway; the cast makes the SQL the same on both).
 * - SQLite: SUM over the INTEGER-affinity column is a 64-bit integer; better-sqlite3 would return it as a
 *   JS number, rounded past 2^53 without an error. Cast to text, SQLite writes the exact integer. Past
 *   2^63 cents SQLite's SUM raises "integer overflow" (an error, never a wrong figure); with each receipt
 *   at most 2^53 - 1 cents (`parseMoney`) that needs over a thousand receipts of 90 trillion each.
 * Should a non-integer ever be summed (it cannot: amounts are stored as whole cents), the text would be
 * a decimal and BigInt would throw rather than round.
 */
async function countedReceiptGroups(db: Db, query: SalesQuery): Promise<ReceiptGroup[]> {
  const rows = await countedReceiptsQuery(db, query).execute();
  return rows.map((row) => ({
    paymentMethod: row.payment_method,
    brand: row.brand,
    // COUNT is int8 on PostgreSQL, parsed into a number by the pool (src/db/database.ts).
    count: Number(row.receipts),
    amountCents: BigInt(row.cents),
  }));
}

/**
 * The raw reader. Cost: it reads every receipt of the place in the period (through the index on account,
 * place, [event,] occurred_at), so it grows with the receipts of the period, up to 120 days of a busy
 * place, or an event's whole life since events have no period limit.
 */
export const rawSalesReader: SalesReader = { name: 'raw', receiptGroups: countedReceiptGroups };
