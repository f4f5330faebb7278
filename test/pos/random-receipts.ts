import fc from 'fast-check';
import type { AdminClient } from '../helper.js';
import type { RawReceipt } from './figures-reference.js';
import { CODES } from './figures-reference.js';
import { RECEIPT_KINDS } from '../../src/pos/receipts/receipt-rules.js';
import { SLOT_LENGTHS } from '../../src/pos/sales/sales-bucket-layout.js';

// Random receipts for the property tests of the sales figures (the query and the route), and the
// expected set of counted receipts computed from them by hand (docs/pos-api.md, "What counts toward the
// total"; docs/pos-api.md, Settled details).

/** The kinds a device may record (the input domain), and `null`: a receipt without a transaction type. */
const KINDS = [...RECEIPT_KINDS, null] as const;
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
const BASE = Date.UTC(2026, 10, 20, 3);
const HOUR = 3_600_000;
const instant = fc.oneof(
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

/** Offsets devices and callers write, in minutes east of UTC (+05:45, -03:30, +14:00 included). */
export const offset = fc.constantFrom(0, -180, -240, 330, 345, -210, -570, 840, -720);

const DAY = 24 * HOUR;
const QUARTER = HOUR / 4;

/**
 * Instants where slots of the bucket layout and periods meet: a slot boundary of every length near the
 * three days above (the one before, on and after them), local midnights of the offsets, and the epoch.
 */
const anchor = fc.oneof(
  fc
    .tuple(fc.constantFrom(...SLOT_LENGTHS), fc.integer({ min: -1, max: 1 }))
    .map(([length, slots]) => BASE - (BASE % length) + slots * length),
  offset.map((minutes) => Date.UTC(2026, 10, 20) - minutes * 60_000),
  fc.constant(0),
);
/** On an anchor, a millisecond or a second off it, half a minute, minutes, a quarter-hour or an hour less 1 ms. */
const aroundAnchor = fc
  .tuple(
    anchor,
    fc.constantFrom(
      0,
      0,
      1,
      -1,
      999,
      -999,
      1000,
      -1000,
      30_000,
      -30_000,
      420_000,
      QUARTER - 1,
      1 - QUARTER,
      HOUR - 1,
      1 - HOUR,
    ),
  )
  .map(([at, delta]) => at + delta);

/**
 * Instants over two years and a half, for readers whose cost depends on where a period falls (the
 * buckets): the three days above most often, anywhere within 400 days of them, around an anchor (so
 * that receipts fall inside the partial hours at a period's edges, and on both sides of slot
 * boundaries), or around the epoch (slots before 1970).
 */
export const wideInstant = fc.oneof(
  { weight: 3, arbitrary: instant },
  { weight: 2, arbitrary: fc.integer({ min: BASE - 400 * DAY, max: BASE + 400 * DAY }) },
  { weight: 4, arbitrary: aroundAnchor },
  { weight: 1, arbitrary: fc.integer({ min: -2 * DAY, max: 2 * DAY }) },
);

/**
 * Periods over the wide instants: random bounds, bounds around anchors, or whole local days of an offset
 * (up to 130, a few past the 120-day limit an event lifts) with each bound on a local midnight or a
 * little off it (:30 past, say).
 */
export const wideBounds = fc.oneof<fc.Arbitrary<[number, number]>[]>(
  bounds,
  fc.tuple(wideInstant, wideInstant).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
  fc.tuple(aroundAnchor, aroundAnchor).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
  fc
    .tuple(
      offset,
      fc.integer({ min: -300, max: 300 }),
      fc.integer({ min: 0, max: 130 }),
      fc.constantFrom(0, 1000, 30_000, -30_000),
      fc.constantFrom(0, 1000, 30_000, -30_000),
    )
    .map(([minutes, day, days, fromDelta, toDelta]): [number, number] => {
      const midnight = Date.UTC(2026, 10, 20) - minutes * 60_000 + day * DAY;
      const from = midnight + fromDelta;
      return [from, Math.max(from, midnight + days * DAY + toDelta)];
    }),
);

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
const cents = fc.oneof(
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
  when: fc.Arbitrary<number> = instant,
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
      occurredAt: when,
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

/**
 * A later state of a stored receipt: any of its status, amount, time, kind and demo flag changed, and
 * maybe moved to another place of its account (with one of that place's events, or none) or to another
 * event of its place; with nothing changed it is the same receipt sent again.
 */
export const correction = fc.record(
  {
    pick: fc.nat(),
    status: fc.constantFrom<GeneratedReceipt['status']>('paid', 'unpaid', 'cancelled'),
    cents,
    occurredAt: wideInstant,
    offset,
    kind: fc.constantFrom(...KINDS),
    demo: fc.boolean(),
    move: fc.record({ location: fc.nat(), event: fc.nat({ max: 3 }) }),
  },
  { requiredKeys: ['pick'] },
);
export type Correction = typeof correction extends fc.Arbitrary<infer T> ? T : never;

/** The receipt after the correction; a move goes to one of `locations` of the receipt's account. */
function corrected(r: GeneratedReceipt, c: Correction, locations: readonly Location[]): GeneratedReceipt {
  let { location, event } = r;
  if (c.move !== undefined) {
    const places = locations.filter((l) => l.account === r.location.account);
    location = places[c.move.location % places.length] ?? location;
    event = location.events[c.move.event] ?? null;
  }
  return {
    ...r,
    location,
    event,
    ...(c.status === undefined ? {} : { status: c.status }),
    ...(c.cents === undefined ? {} : { cents: c.cents }),
    ...(c.occurredAt === undefined ? {} : { occurredAt: c.occurredAt, offset: c.offset ?? r.offset }),
    ...(c.kind === undefined ? {} : { kind: c.kind }),
    ...(c.demo === undefined ? {} : { demo: c.demo }),
  };
}

/**
 * Writes the receipts through the admin API (ids r0, r1, …; one call per account), then each later call:
 * one account's corrections in one call (the first picks the account, each one a receipt of it; a
 * receipt may come twice, the later state winning). Returns the receipts as they should now be stored.
 */
export async function writeReceiptHistory(
  t: AdminClient,
  receipts: readonly GeneratedReceipt[],
  calls: readonly (readonly Correction[])[],
  locations: readonly Location[],
): Promise<{ id: string; r: GeneratedReceipt }[]> {
  const stored = receipts.map((r, i) => ({ id: `r${i}`, r }));
  const accounts = [...new Set(stored.map(({ r }) => r.location.account))];
  for (const account of accounts) {
    await t.admin('POST', `/admin/v1/pos/accounts/${account}/receipts`, {
      receipts: stored
        .filter(({ r }) => r.location.account === account)
        .map(({ id, r }) => receiptBody(id, r)),
    });
  }
  for (const call of calls) {
    const [first] = call;
    if (first === undefined || stored.length === 0) continue;
    const account = stored[first.pick % stored.length]!.r.location.account;
    const mine = stored.filter(({ r }) => r.location.account === account);
    const sent = call.map((c) => {
      const one = mine[c.pick % mine.length]!;
      one.r = corrected(one.r, c, locations);
      return receiptBody(one.id, one.r);
    });
    await t.admin('POST', `/admin/v1/pos/accounts/${account}/receipts`, { receipts: sent });
  }
  return stored;
}
