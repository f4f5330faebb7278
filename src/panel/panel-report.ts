import { addMonths, dayAt, formatDay, parseDay, startOfDay, type CalendarDay } from '../lib/calendar.js';
import { csvDocument, csvFigure, type CsvDialect } from '../lib/csv-document.js';
import { formatMoney, parseMoney } from '../pos/receipts/money.js';
import { shareText } from '../pos/sales/sales-figures.js';
import type { SalesByPaymentMethod } from '../pos/sales/sales-query.js';

// The period of the panel's two financial reports (issue 13; docs/pos-api.md: "The panel works in
// UTC-03:00 and includes the last second"): days chosen in UTC-03:00, from the first day's 00:00 to the
// day after the last at 00:00 (-03:00), the same period the API is asked for. Quick periods are counted
// from today there.

/** The panel's days are days of UTC-03:00. */
const PANEL_OFFSET_MS = -3 * 3_600_000;
/** The API's longest period without an event (docs/pos-api.md, Limits). */
const MAX_PERIOD_DAYS = 120;
const DAY_MS = 86_400_000;

/** A period of whole days, both included. */
export interface DayPeriod {
  from: string;
  to: string;
}

function shift(day: CalendarDay, days: number): CalendarDay {
  return dayAt(startOfDay(day, 0) + days * DAY_MS, 0);
}

/** Today, yesterday, the last 7 days, this month and last month, as seen in UTC-03:00 at `now`. */
export function quickPeriods(
  now: number,
): Record<'today' | 'yesterday' | 'last7' | 'thisMonth' | 'lastMonth', DayPeriod> {
  const today = dayAt(now, PANEL_OFFSET_MS);
  const firstOfMonth: CalendarDay = { ...today, day: 1 };
  const firstOfLast = addMonths(firstOfMonth, -1);
  return {
    today: { from: formatDay(today), to: formatDay(today) },
    yesterday: { from: formatDay(shift(today, -1)), to: formatDay(shift(today, -1)) },
    last7: { from: formatDay(shift(today, -6)), to: formatDay(today) },
    thisMonth: { from: formatDay(firstOfMonth), to: formatDay(today) },
    lastMonth: { from: formatDay(firstOfLast), to: formatDay(shift(firstOfMonth, -1)) },
  };
}

/** The instants the API is asked for: [first day 00:00 -03:00, day after the last 00:00 -03:00). */
export type PeriodCheck =
  | { ok: true; from: number; to: number }
  | { ok: false; field: 'from' | 'to'; problem: 'dateInvalid' | 'periodReversed' | 'periodTooLong' };

export function periodInstants(period: DayPeriod, withEvent: boolean): PeriodCheck {
  const first = parseDay(period.from);
  if (first === null) return { ok: false, field: 'from', problem: 'dateInvalid' };
  const last = parseDay(period.to);
  if (last === null) return { ok: false, field: 'to', problem: 'dateInvalid' };
  const from = startOfDay(first, PANEL_OFFSET_MS);
  const to = startOfDay(shift(last, 1), PANEL_OFFSET_MS);
  if (to <= from) return { ok: false, field: 'from', problem: 'periodReversed' };
  if (!withEvent && to - from > MAX_PERIOD_DAYS * DAY_MS)
    return { ok: false, field: 'to', problem: 'periodTooLong' };
  return { ok: true, from, to };
}

/**
 * The receipts summary as CSV: the API's codes and exact money text, so a program can read it too; the
 * texts neutralised for spreadsheets, the figures left numbers (src/lib/csv-document.ts).
 */
export function receiptsCsv(figures: SalesByPaymentMethod, dialect?: CsvDialect): string {
  return csvDocument(
    [
      ['payment_method', 'label', 'count', 'amount', 'share', 'currency'],
      ...figures.data.map((line) => [
        line.payment_method,
        line.label,
        line.count,
        csvFigure(line.amount),
        csvFigure(line.share),
        figures.currency,
      ]),
      [
        'total',
        '',
        figures.total.count,
        csvFigure(figures.total.amount),
        csvFigure(figures.data.length === 0 ? '0.000' : '100.000'),
        figures.currency,
      ],
    ],
    dialect,
  );
}

/** The brand lines of the period: every TEF method's brands, as in the API's `data[].brands[]`. */
export function brandLines(figures: SalesByPaymentMethod) {
  return figures.data.flatMap((line) =>
    line.brands.map((brand) => ({ method: line.payment_method, label: line.label, ...brand })),
  );
}

/** The summary by brand as CSV: a brand is the terminal's free text, so it is neutralised like every text. */
export function brandsCsv(figures: SalesByPaymentMethod, dialect?: CsvDialect): string {
  return csvDocument(
    [
      ['payment_method', 'label', 'brand', 'count', 'amount', 'share', 'currency'],
      ...brandLines(figures).map((line) => [
        line.method,
        line.label,
        line.brand ?? '',
        line.count,
        csvFigure(line.amount),
        csvFigure(line.share),
        figures.currency,
      ]),
    ],
    dialect,
  );
}

/** How many brand lines the brand report shows before it groups the rest into one "other brands" line. */
export const LEADING_BRANDS = 10;

/** A count and an amount (the API's money text) with its share of the period's total. */
export interface BrandSum {
  count: number;
  amount: string;
  share: string;
}

/** The brand report's lines: the leading ones, the rest summed, and the sum of every brand line. */
export interface BrandSummary {
  /** The brand lines shown one by one: the `leading` largest by amount, or all of them. */
  shown: ReturnType<typeof brandLines>;
  /** The lines not shown, summed, with how many they are; null when every line is shown. */
  rest: (BrandSum & { lines: number }) | null;
  /** Every brand line summed: the TEF methods' receipts, the only ones with a brand. */
  brands: BrandSum;
}

function cents(amount: string): bigint {
  const value = parseMoney(amount);
  if (value === null) throw new Error(`not an amount: ${JSON.stringify(amount)}`);
  return BigInt(value);
}

function sumOf(lines: readonly { count: number; amount: string }[], totalCents: bigint): BrandSum {
  const amount = lines.reduce((sum, line) => sum + cents(line.amount), 0n);
  return {
    count: lines.reduce((sum, line) => sum + line.count, 0),
    amount: formatMoney(amount),
    // The share is computed like the API's (exact cents, half away from zero), never by adding shares.
    share: shareText(amount, totalCents),
  };
}

/**
 * The brand report's lines: every brand line of the API's answer ranked by amount, largest first (equal
 * amounts keep the answer's order: method, then the API's brand order); the first `leading` shown, the
 * others summed into one line, unless `all`. Sums are exact cents, so the lines shown plus the rest equal
 * the sum of every brand line.
 */
export function brandSummary(figures: SalesByPaymentMethod, leading: number, all: boolean): BrandSummary {
  const totalCents = cents(figures.total.amount);
  const lines = brandLines(figures);
  const ranked = lines
    .map((line, index) => ({ line, index, cents: cents(line.amount) }))
    .sort((a, b) => (a.cents === b.cents ? a.index - b.index : a.cents > b.cents ? -1 : 1))
    .map(({ line }) => line);
  // Grouping a single line would only rename it: it is shown as itself.
  const cut = all || ranked.length <= leading + 1 ? ranked.length : leading;
  const rest = ranked.slice(cut);
  return {
    shown: ranked.slice(0, cut),
    rest: rest.length === 0 ? null : { ...sumOf(rest, totalCents), lines: rest.length },
    brands: sumOf(lines, totalCents),
  };
}
