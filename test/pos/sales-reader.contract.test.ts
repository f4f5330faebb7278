import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { salesByPaymentMethod } from '../../src/pos/sales-query.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { referenceFigures } from './figures-reference.js';
import { SALES_READERS } from './sales-readers.js';
import {
  bounds,
  cents,
  countedReceipts,
  generatedReceipt,
  instant,
  offset,
  receiptBody,
  type GeneratedReceipt,
  type Location,
} from './random-receipts.js';

// The SalesReader contract: every reader (sales-readers.ts) gives the sales query the same figures, equal
// to an independent sum (pos-data-api.md, "What counts toward the total",
// "Receipts-by-payment-method response", "Brand rules"; DECISIONS, POS data API): random receipts,
// written through the admin API with random UTC offsets in their dates and then partly corrected,
// and random periods; the expected figures are computed here from the raw receipts, with BigInt cents,
// its own reading of what counts, and the hand-written reference of figures-reference.ts.

const POS = '/admin/v1/pos';

/** Where a receipt may be recorded: two accounts, the same place and event ids in both. */
const LOCATIONS: [Location, Location, Location] = [
  { account: 'acme', place: 'p1', events: ['e1', 'e2'] },
  { account: 'acme', place: 'p2', events: ['e3'] },
  { account: 'other', place: 'p1', events: ['e1'] },
];
const CURRENCY: Record<string, string> = { acme: 'USD', other: 'BRL' };

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

const generated = generatedReceipt(LOCATIONS);

/** A later correction of a receipt: its status, amount and time (place and event stay). */
const correction = fc.record({
  pick: fc.nat(),
  status: fc.constantFrom<GeneratedReceipt['status']>('paid', 'unpaid', 'cancelled'),
  cents,
  occurredAt: instant,
  offset,
});

const sliceQuery = fc.record({
  location: fc.oneof(
    { weight: 3, arbitrary: fc.constant(LOCATIONS[0]) },
    fc.constantFrom(LOCATIONS[1], LOCATIONS[2]),
  ),
  // One of the place's events, an event id of another place, or none.
  event: fc.option(fc.constantFrom('e1', 'e2', 'e3'), { freq: 2 }),
  bounds,
});

describeEachDialect('sales by payment method, the query: properties', (dialect) => {
  const t = useTestApp(dialect);

  describe.each(SALES_READERS.map((reader) => [reader.name, reader] as const))(
    'reader: %s',
    (_name, reader) => {
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
                  receipts: mine.map(({ id, r }) => receiptBody(id, r)),
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
                  receipts: [receiptBody(target.id, target.r)],
                });
              }

              for (const q of queries) {
                const [from, to] = q.bounds;
                const result = await salesByPaymentMethod(
                  t.db,
                  {
                    accountId: q.location.account,
                    placeId: q.location.place,
                    eventId: q.event,
                    from,
                    to,
                  },
                  reader,
                );
                // The period actually queried: whole seconds, fractions rounded up.
                const start = Math.ceil(from / 1000) * 1000;
                const end = Math.ceil(to / 1000) * 1000;
                const counted = countedReceipts(
                  stored.map(({ r }) => r),
                  { account: q.location.account, place: q.location.place, event: q.event, start, end },
                );
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
    },
  );
});
