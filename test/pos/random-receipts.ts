import fc from 'fast-check';
import type { RawReceipt } from './figures-reference.js';
import { CODES } from './figures-reference.js';
import { RECEIPT_KINDS } from '../../src/pos/receipt-rules.js';

// Random receipts for the property tests of the sales figures (the query and the route), and the
// expected set of counted receipts computed from them by hand (pos-data-api.md, "What counts toward the
// total"; DECISIONS, POS data API).

/** The kinds a device may record (the input domain), and `null`: a receipt without a transaction type. */
export const KINDS = [...RECEIPT_KINDS, null] as const;
/** What counts, as the document lists it: paid, not a demonstration, of one of these kinds. */
const COUNTING: readonly string[] = ['sale', 'tab', 'cashless_topup', 'cashless_activation'];

/** Where a receipt may be recorded. */
export interface Location {
  readonly account: string;
  readonly place: string;
  readonly events: readonly string[];
}

/**
 * Instants anywhere in three days, or on one of a few instants 6 hours apart, right on them or 1 ms or a
 * fraction of a second around: receipts and period bounds meet often, to the millisecond and within the
 * second that the period's rounding up moves.
 */
export const BASE = Date.UTC(2026, 10, 20, 3);
export const HOUR = 3_600_000;
export const instant = fc.oneof(
  fc.integer({ min: BASE - HOUR, max: BASE + 72 * HOUR }),
  fc
    .tuple(fc.integer({ min: 0, max: 12 }), fc.constantFrom(0, 0, 1, -1, 500, -500, 999, -999))
    .map(([slot, delta]) => BASE + slot * 6 * HOUR + delta),
);

/** A period over the instants above: random bounds, or the whole span with edges off the second. */
export const bounds = fc.oneof<fc.Arbitrary<[number, number]>[]>(
  fc.tuple(instant, instant).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
  fc
    .tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -999, max: 999 }))
    .map(([a, b]) => [BASE - HOUR + a, BASE + 72 * HOUR + b]),
);

/** Offsets devices and callers write, in minutes east of UTC. */
export const offset = fc.constantFrom(0, -180, -240, 330, 345, -570, 840, -720);

/** An instant as ISO 8601 text with milliseconds and the offset (`Z` for zero, sometimes `+00:00`). */
export function isoAt(ms: number, offsetMinutes: number, zulu: boolean): string {
  if (offsetMinutes === 0 && zulu) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const magnitude = Math.abs(offsetMinutes);
  const hh = String(Math.floor(magnitude / 60)).padStart(2, '0');
  const mm = String(magnitude % 60).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** Money text of cents, written by hand: "-0.05", "12.50". */
function moneyText(cents: bigint): string {
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${cents < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

const MAX_CENTS = 2n ** 53n - 1n;
export const cents = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -500, max: 10_000 }).map(BigInt) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 9n), max: 10n ** 10n }) },
  // Near the largest amount a receipt may have: a few of them sum beyond 2^53.
  { weight: 2, arbitrary: fc.bigInt({ min: MAX_CENTS - 10n ** 6n, max: MAX_CENTS }) },
  { weight: 1, arbitrary: fc.bigInt({ min: -MAX_CENTS, max: MAX_CENTS }) },
);

// One method and one brand drawn often, so that groups gather several receipts (large sums included).
const method = fc.oneof(
  { weight: 4, arbitrary: fc.constant('tef_credit') },
  { weight: 8, arbitrary: fc.constantFrom(...CODES) },
  { weight: 2, arbitrary: fc.constantFrom('crypto', 'TEF_CREDIT', 'tef_new', ' cash', 'pix') },
);

const brandPiece = fc.constantFrom(
  'VISA',
  'Visa',
  'MASTER',
  'ELO',
  'OTHER',
  'Cielo Visa Débito',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u3000',
  '.',
  '&',
  '/',
  '-',
  '#',
  '\u200b',
  '😀',
);
const brand: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 3, arbitrary: fc.constant('VISA') },
  { weight: 5, arbitrary: fc.array(brandPiece, { maxLength: 4 }).map((pieces) => pieces.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 38, max: 42 }), fc.constantFrom('', ' ', '  '))
      .map(([length, edge]) => `${edge}${'A'.repeat(length)}${edge}`),
  },
);

/** A random receipt, before it is written. */
export interface GeneratedReceipt {
  location: Location;
  event: string | null;
  occurredAt: number;
  offset: number;
  zulu: boolean;
  method: string;
  brand: string | null;
  cents: bigint;
  kind: (typeof KINDS)[number];
  status: 'paid' | 'unpaid' | 'cancelled';
  demo: boolean;
}

/** Random receipts at the locations, the first location most often (so that queries of it have figures). */
export function generatedReceipt(
  locations: readonly [Location, ...Location[]],
): fc.Arbitrary<GeneratedReceipt> {
  const [first, ...rest] = locations;
  const location =
    rest.length === 0
      ? fc.constant(first)
      : fc.oneof(
          { weight: 3, arbitrary: fc.constant(first) },
          { weight: 1, arbitrary: fc.constantFrom(...rest) },
        );
  return location.chain((at) =>
    fc.record({
      location: fc.constant(at),
      event:
        at.events.length === 0 ? fc.constant(null) : fc.option(fc.constantFrom(...at.events), { freq: 2 }),
      occurredAt: instant,
      offset,
      zulu: fc.boolean(),
      method,
      brand,
      cents,
      // Counting kinds and paid receipts are drawn more often, so that most queries have figures.
      kind: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...KINDS.slice(0, 4)) },
        { weight: 2, arbitrary: fc.constantFrom(...KINDS) },
      ),
      status: fc.constantFrom<GeneratedReceipt['status']>(
        'paid',
        'paid',
        'paid',
        'paid',
        'unpaid',
        'cancelled',
      ),
      demo: fc.constantFrom(false, false, false, true),
    }),
  );
}

/** The receipt as the admin API takes it. */
export function receiptBody(id: string, r: GeneratedReceipt): Record<string, unknown> {
  return {
    id,
    place: r.location.place,
    event: r.event,
    occurred_at: isoAt(r.occurredAt, r.offset, r.zulu),
    payment_method: r.method,
    brand: r.brand,
    amount: moneyText(r.cents),
    kind: r.kind,
    status: r.status,
    demo: r.demo,
  };
}

/** The receipts that count in a query of one place (and event) over [start, end), as the reference takes them. */
export function countedReceipts(
  receipts: readonly GeneratedReceipt[],
  query: { account: string; place: string; event: string | null; start: number; end: number },
): RawReceipt[] {
  return receipts
    .filter(
      (r) =>
        r.location.account === query.account &&
        r.location.place === query.place &&
        (query.event === null || r.event === query.event) &&
        r.occurredAt >= query.start &&
        r.occurredAt < query.end &&
        r.status === 'paid' &&
        !r.demo &&
        r.kind !== null &&
        COUNTING.includes(r.kind),
    )
    .map((r) => ({ method: r.method, brand: r.brand, cents: r.cents }));
}
