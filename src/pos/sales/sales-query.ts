import type { Db } from '../../db/database.js';
import { wireTime } from '../../lib/wire-time.js';
import { salesFigures, type SalesFigures } from './sales-figures.js';
import type { SalesQuery, SalesReader } from './sales-reader.js';

export type { SalesQuery };

// The query behind GET /v1/api-public/sales/by-payment-method (docs/pos-api.md, "Receipts-by-payment-
// method response", "What counts toward the total", the route's section): the counted receipts of one
// place in a period, optionally of one event, grouped in the database by stored method and brand, then
// folded into the response's figures by `salesFigures`. Money stays integer cents from the database to
// the JSON text: sums are read as decimal text and converted to BigInt, never through a float.

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
function periodBound(ms: number): number {
  return Math.ceil(ms / 1000) * 1000;
}

/**
 * The receipts-by-payment-method response of one place for a period: `from`/`to` rounded up to whole
 * seconds and echoed in UTC (the period actually queried), `place`, `event`, the account's `currency`,
 * and `total`/`data` from `salesFigures`. Only receipts that count (`counted = 1`, derived at write time
 * from "What counts toward the total") whose `occurred_at`, the time on the store's device, falls in the
 * period; so a late offline receipt enters its period, and a receipt cancelled later leaves it.
 *
 * The caller has already checked the request: the place belongs to the account (and is reached by the
 * key), the event to the place, `from` is not after `to`, and the 120-day limit on the rounded period;
 * and read the account's `currency` with the place.
 *
 * The groups come from a `SalesReader` (sales-reader.ts): every reader returns the same groups for the
 * same query, which one contract test checks against an independent reference.
 */
export async function salesByPaymentMethod(
  db: Db,
  query: SalesQuery,
  currency: string,
  reader: SalesReader,
): Promise<SalesByPaymentMethod> {
  const from = periodBound(query.from);
  const to = periodBound(query.to);
  const groups = await reader.receiptGroups(db, { ...query, from, to });
  return {
    from: wireTime(from),
    to: wireTime(to),
    place: query.placeId,
    event: query.eventId,
    currency,
    ...salesFigures(groups),
  };
}
