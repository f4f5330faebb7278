import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { wireTime } from '../lib/wire-time.js';
import { salesFigures, type ReceiptGroup, type SalesFigures } from './sales-figures.js';

// The query behind GET /v1/api-public/sales/by-payment-method (pos-data-api.md, "Receipts-by-payment-
// method response", "What counts toward the total", the route's section): the counted receipts of one
// place in a period, optionally of one event, grouped in the database by stored method and brand, then
// folded into the response's figures by `salesFigures`. Money stays integer cents from the database to
// the JSON text: sums are read as decimal text and converted to BigInt, never through a float.

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

/** The body of the 200 response: the period actually queried, what was filtered, and the figures. */
export interface SalesByPaymentMethod extends SalesFigures {
  /** Start of the period queried, UTC, whole seconds (`2026-11-20T03:00:00Z`). */
  from: string;
  /** End of the period queried (excluded), UTC, whole seconds. */
  to: string;
  place: string;
  /** The event filtered, null when all events were summed. */
  event: string | null;
  /** ISO 4217 code of the account's money, in which every amount is. */
  currency: string;
}

/**
 * The instant as the response writes the period: fractions of a second rounded up ("Receipts-by-payment-
 * method response": from, to). Whole seconds are left as they are, so bounds that query-params.ts has
 * already rounded (it also sees fractions below the millisecond) pass unchanged.
 */
export function periodBound(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
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
export async function countedReceiptGroups(db: Db, query: SalesQuery): Promise<ReceiptGroup[]> {
  let select = db
    .selectFrom('pos_receipts')
    .select(['payment_method', 'brand'])
    .select((eb) => [
      eb.fn.countAll<number | string>().as('receipts'),
      sql<string>`cast(sum(${eb.ref('amount_cents')}) as text)`.as('cents'),
    ])
    .where('account_id', '=', query.accountId)
    .where('place_id', '=', query.placeId)
    .where('occurred_at', '>=', query.from)
    .where('occurred_at', '<', query.to)
    .where('counted', '=', 1);
  // With an event the index pos_receipts_event (account, place, event, occurred_at) serves the filter;
  // without, pos_receipts_period (account, place, occurred_at).
  if (query.eventId !== null) select = select.where('event_id', '=', query.eventId);
  const rows = await select.groupBy(['payment_method', 'brand']).execute();
  return rows.map((row) => ({
    paymentMethod: row.payment_method,
    brand: row.brand,
    // COUNT is int8 on PostgreSQL, parsed into a number by the pool (src/db/database.ts).
    count: Number(row.receipts),
    amountCents: BigInt(row.cents),
  }));
}

/**
 * The receipts-by-payment-method response of one place for a period: `from`/`to` rounded up to whole
 * seconds and echoed in UTC (the period actually queried), `place`, `event`, the account's `currency`,
 * and `total`/`data` from `salesFigures`. Only receipts that count (`counted = 1`, derived at write time
 * from "What counts toward the total") whose `occurred_at`, the time on the store's device, falls in the
 * period; so a late offline receipt enters its period, and a receipt cancelled later leaves it.
 *
 * The caller has already checked the request: the place belongs to the account (and is reached by the
 * key), the event to the place, `from` is not after `to`, and the 120-day limit on the rounded period.
 * Throws when the account does not exist (an authenticated key always has one).
 *
 * Cost: the query reads every receipt of the place in the period (through the index on account, place,
 * [event,] occurred_at), so it grows with the number of receipts in the period, up to 120 days of a busy
 * place, or an event's whole life since events have no period limit. A coming change keeps
 * pre-aggregated buckets (per place, event, method, brand and time slot, kept by deltas on upsert,
 * which `counted` was stored for) and sums those plus the raw receipts at the period's edges. It must
 * return the same figures for the same `SalesQuery`, so it can replace this function behind the same
 * signature; `countedReceiptGroups` is the raw side to compare against.
 */
export async function salesByPaymentMethod(db: Db, query: SalesQuery): Promise<SalesByPaymentMethod> {
  const from = periodBound(query.from);
  const to = periodBound(query.to);
  const account = await db
    .selectFrom('pos_accounts')
    .select('currency')
    .where('id', '=', query.accountId)
    .executeTakeFirst();
  if (account === undefined) throw new Error(`There is no account "${query.accountId}".`);
  const groups = await countedReceiptGroups(db, { ...query, from, to });
  return {
    from: wireTime(from),
    to: wireTime(to),
    place: query.placeId,
    event: query.eventId,
    currency: account.currency,
    ...salesFigures(groups),
  };
}
