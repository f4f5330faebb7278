import fc from 'fast-check';
import { expect, it } from 'vitest';
import { salesByPaymentMethod } from '../../src/pos/sales-query.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { CODES, referenceFigures, type RawReceipt } from './figures-reference.js';

// The sales query against an independent sum (pos-data-api.md, "What counts toward the total",
// "Receipts-by-payment-method response", "Brand rules"; DECISIONS, POS data API): random receipts,
// written through the admin API with random UTC offsets in their dates and then partly corrected,
// and random periods; the expected figures are computed here from the raw receipts, with BigInt cents,
// its own reading of what counts, and the hand-written reference of figures-reference.ts.

const POS = '/admin/v1/pos';

/** Where a receipt may be recorded: two accounts, the same place and event ids in both. */
const LOCATIONS = [
  { account: 'acme', place: 'p1', events: ['e1', 'e2'] },
  { account: 'acme', place: 'p2', events: ['e3'] },
  { account: 'other', place: 'p1', events: ['e1'] },
] as const;
const CURRENCY: Record<string, string> = { acme: 'USD', other: 'BRL' };

/** The kinds a device may record, written out; `null` is a receipt without a transaction type. */
const KINDS = [
  'sale',
  'tab',
  'cashless_topup',
  'cashless_activation',
  'cashless_consumption',
  'withdrawal',
  'supply',
  'refund_item',
  'refund_product',
  'refund_cashless',
  'cashless_return',
  null,
] as const;
/** What counts, as the document lists it: paid, not a demonstration, of one of these kinds. */
const COUNTING = ['sale', 'tab', 'cashless_topup', 'cashless_activation'];

async function seed(t: TestApp): Promise<void> {
  await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme', currency: 'USD' });
  await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra' });
  for (const { account, place, events } of LOCATIONS) {
    await t.admin('PUT', `${POS}/accounts/${account}/places/${place}`, { timezone: 'America/Sao_Paulo' });
    for (const event of events) {
      await t.admin('PUT', `${POS}/accounts/${account}/places/${place}/events/${event}`, { name: event });
    }
  }
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

/** Offsets devices and callers write, in minutes east of UTC. */
const offset = fc.constantFrom(0, -180, -240, 330, 345, -570, 840, -720);

/** An instant as ISO 8601 text with milliseconds and the offset (`Z` for zero, sometimes `+00:00`). */
function isoAt(ms: number, offsetMinutes: number, zulu: boolean): string {
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

interface Generated {
  location: (typeof LOCATIONS)[number];
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

/** acme's p1 most often, so that queries of it have figures; the others to be left out, or queried. */
const location = fc.oneof(
  { weight: 3, arbitrary: fc.constant(LOCATIONS[0]) },
  { weight: 1, arbitrary: fc.constantFrom(LOCATIONS[1], LOCATIONS[2]) },
);

const generated: fc.Arbitrary<Generated> = location.chain((location) =>
  fc.record({
    location: fc.constant(location),
    event: fc.option(fc.constantFrom(...location.events), { freq: 2 }),
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
    status: fc.constantFrom('paid', 'paid', 'paid', 'paid', 'unpaid', 'cancelled'),
    demo: fc.constantFrom(false, false, false, true),
  }),
);

/** A later correction of a receipt: its status, amount and time (place and event stay). */
const correction = fc.record({
  pick: fc.nat(),
  status: fc.constantFrom('paid', 'unpaid', 'cancelled'),
  cents,
  occurredAt: instant,
  offset,
});

const sliceQuery = fc.record({
  location,
  // One of the place's events, an event id of another place, or none.
  event: fc.option(fc.constantFrom('e1', 'e2', 'e3'), { freq: 2 }),
  bounds: fc.oneof<fc.Arbitrary<[number, number]>[]>(
    fc.tuple(instant, instant).map(([a, b]) => (a <= b ? [a, b] : [b, a])),
    // The whole span, its edges a little off the second.
    fc
      .tuple(fc.integer({ min: -999, max: 999 }), fc.integer({ min: -999, max: 999 }))
      .map(([a, b]) => [BASE - HOUR + a, BASE + 72 * HOUR + b]),
  ),
});

function wire(id: string, r: Generated): Record<string, unknown> {
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

describeEachDialect('sales by payment method, the query: properties', (dialect) => {
  const t = useTestApp(dialect);

  it('figures: equal an independent BigInt sum of the raw receipts that count, in the rounded period, of the place (and event)', async () => {
    await seed(t);
    await fc.assert(
      fc.asyncProperty(
        fc.array(generated, { minLength: 1, maxLength: 40, size: 'max' }),
        fc.array(correction, { maxLength: 6 }),
        fc.array(sliceQuery, { minLength: 1, maxLength: 6 }),
        async (receipts, corrections, queries) => {
          await t.db.deleteFrom('pos_receipts').execute();
          const stored = receipts.map((r, i) => ({ id: `r${i}`, r }));
          for (const account of ['acme', 'other']) {
            const mine = stored.filter(({ r }) => r.location.account === account);
            if (mine.length === 0) continue;
            await t.admin('POST', `${POS}/accounts/${account}/receipts`, {
              receipts: mine.map(({ id, r }) => wire(id, r)),
            });
          }
          // Corrections arrive later, as upserts of the same ids.
          for (const c of corrections) {
            if (stored.length === 0) break;
            const target = stored[c.pick % stored.length]!;
            target.r = {
              ...target.r,
              status: c.status,
              cents: c.cents,
              occurredAt: c.occurredAt,
              offset: c.offset,
            };
            await t.admin('POST', `${POS}/accounts/${target.r.location.account}/receipts`, {
              receipts: [wire(target.id, target.r)],
            });
          }

          for (const q of queries) {
            const [from, to] = q.bounds;
            const result = await salesByPaymentMethod(t.db, {
              accountId: q.location.account,
              placeId: q.location.place,
              eventId: q.event,
              from,
              to,
            });
            // The period actually queried: whole seconds, fractions rounded up.
            const start = Math.ceil(from / 1000) * 1000;
            const end = Math.ceil(to / 1000) * 1000;
            const counted: RawReceipt[] = stored
              .map(({ r }) => r)
              .filter(
                (r) =>
                  r.location.account === q.location.account &&
                  r.location.place === q.location.place &&
                  (q.event === null || r.event === q.event) &&
                  r.occurredAt >= start &&
                  r.occurredAt < end &&
                  r.status === 'paid' &&
                  !r.demo &&
                  r.kind !== null &&
                  COUNTING.includes(r.kind),
              )
              .map((r) => ({ method: r.method, brand: r.brand, cents: r.cents }));
            expect(result).toEqual({
              from: new Date(start).toISOString().replace('.000Z', 'Z'),
              to: new Date(end).toISOString().replace('.000Z', 'Z'),
              place: q.location.place,
              event: q.event,
              currency: CURRENCY[q.location.account],
              ...referenceFigures(counted),
            });
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});
