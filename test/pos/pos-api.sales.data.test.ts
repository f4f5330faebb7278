import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { CODES, referenceFigures } from './figures-reference.js';
import {
  bounds,
  countedReceipts,
  generatedReceipt,
  isoAt,
  offset,
  receiptBody,
  type Location,
} from './random-receipts.js';
import { ACCOUNTS, createAccountKey, daySalesUrl, ok, salesUrl, seedDataAccounts } from './fixtures.js';

// The figures of receipts-by-payment-method through HTTP (docs/pos-api.md, "Receipts-by-payment-method
// response", "What counts toward the total", "Brand rules"; docs/pos-api.md, Settled details), and the
// property that they equal an independent computation from the raw receipts.
// Everything is seeded through the admin API and read through the public listener, each read one rate
// window after the previous one (fixtures.ts, the data suites).

describeEachDialect('POS API data: sales figures', (dialect) => {
  const t = useTestApp(dialect);

  const receipt = (id: string, fields: Record<string, unknown>) => ({
    id,
    place: 'P1',
    occurred_at: '2026-11-19T12:00:00-03:00',
    payment_method: 'cash',
    amount: '1.00',
    kind: 'sale',
    ...fields,
  });

  it('what counts: paid sale, tab, cashless top-up and activation; nothing else, and refunds are not subtracted (What counts toward the total)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        receipt('C1', { kind: 'sale', amount: '10.00' }),
        receipt('C2', { kind: 'tab', amount: '20.00' }),
        receipt('C3', { kind: 'cashless_topup', amount: '40.00' }),
        receipt('C4', { kind: 'cashless_activation', amount: '80.00' }),
        receipt('X1', { kind: 'sale', status: 'unpaid', amount: '1000.00' }),
        receipt('X2', { kind: 'sale', status: 'cancelled', amount: '1000.00' }),
        receipt('X3', { kind: 'sale', demo: true, amount: '1000.00' }),
        receipt('X4', { kind: 'cashless_consumption', amount: '1000.00' }),
        receipt('X5', { kind: 'withdrawal', amount: '-1000.00' }),
        receipt('X6', { kind: 'supply', amount: '1000.00' }),
        receipt('X7', { kind: 'refund_item', amount: '-10.00' }),
        receipt('X8', { kind: 'refund_product', amount: '-10.00' }),
        receipt('X9', { kind: 'refund_cashless', amount: '-10.00' }),
        receipt('XA', { kind: 'cashless_return', amount: '-10.00' }),
        receipt('XB', { kind: null, amount: '1000.00', payment_method: 'pos' }),
        receipt('XC', { kind: 'tab', demo: true, payment_method: 'voucher', amount: '3.00' }),
        // Other place, other account, outside the period: never in.
        receipt('Y1', { place: 'P2', amount: '1000.00' }),
        receipt('Y2', { occurred_at: '2026-11-20T00:00:00-03:00', amount: '1000.00' }),
        receipt('Y3', { occurred_at: '2026-11-18T23:59:59-03:00', amount: '1000.00' }),
      ],
    });
    await t.admin('POST', `${ACCOUNTS}/other/receipts`, { receipts: [receipt('Z1', { amount: '1000.00' })] });
    const body = await ok(t, full.key, daySalesUrl());
    expect(body).toEqual({
      from: '2026-11-19T03:00:00Z',
      to: '2026-11-20T03:00:00Z',
      place: 'P1',
      event: null,
      currency: 'USD',
      total: { count: 4, amount: '150.00' },
      data: [
        {
          payment_method: 'cash',
          label: 'Dinheiro',
          count: 4,
          amount: '150.00',
          share: '100.000',
          brands: [],
        },
      ],
    });
  });

  it('an empty period gives data [] and a zero total; currency comes from the account (Receipts-by-payment-method response)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(await ok(t, full.key, daySalesUrl())).toEqual({
      from: '2026-11-19T03:00:00Z',
      to: '2026-11-20T03:00:00Z',
      place: 'P1',
      event: null,
      currency: 'USD',
      total: { count: 0, amount: '0.00' },
      data: [],
    });
    const other = await createAccountKey(t, 'other', {
      name: 'BRL',
      permissions: ['sale-by-payment-method.view'],
    });
    expect(await ok(t, other.key, daySalesUrl())).toMatchObject({ currency: 'BRL', place: 'P1' });
  });

  it('methods in the order of the table, unknown codes as other; brands only on TEF methods; shares of the total (Receipts-by-payment-method response)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        receipt('M1', { payment_method: 'other', amount: '1.00' }),
        receipt('M2', { payment_method: 'crypto', amount: '2.00' }),
        receipt('M3', { payment_method: 'not_identified', amount: '3.00' }),
        receipt('M4', { payment_method: 'voucher', amount: '4.00', brand: 'VR' }),
        receipt('M5', { payment_method: 'pos', amount: '5.00', brand: 'VISA' }),
        receipt('M6', { payment_method: 'tef_unspecified', amount: '6.00' }),
        receipt('M7', { payment_method: 'tef_pix', amount: '7.00' }),
        receipt('M8', { payment_method: 'tef_others', amount: '8.00', brand: 'X' }),
        receipt('M9', { payment_method: 'tef_voucher_2', amount: '9.00', brand: 'Y' }),
        receipt('MA', { payment_method: 'tef_voucher', amount: '10.00', brand: 'Z' }),
        receipt('MB', { payment_method: 'tef_debit', amount: '11.00', brand: 'ELO' }),
        receipt('MC', { payment_method: 'tef_credit', amount: '12.00', brand: 'VISA' }),
        receipt('MD', { payment_method: 'tef_virtual_wallet', amount: '13.00', brand: 'PicPay' }),
        receipt('ME', { payment_method: 'cash', amount: '14.00', brand: 'VISA' }),
      ],
    });
    const body = (await ok(t, full.key, daySalesUrl())) as {
      total: unknown;
      data: { payment_method: string; label: string; amount: string; share: string; brands: unknown[] }[];
    };
    expect(body.total).toEqual({ count: 14, amount: '105.00' });
    expect(body.data.map((d) => d.payment_method)).toEqual(CODES);
    expect(body.data.map((d) => d.label)).toEqual([
      'Dinheiro',
      'TEF - Carteira digital',
      'TEF - Crédito',
      'TEF - Débito',
      'TEF - Voucher',
      'TEF - Voucher 2',
      'TEF - Outros',
      'TEF - Pix',
      'TEF - Não informado',
      'POS',
      'Voucher',
      'Não identificado',
      'Outros',
    ]);
    const line = (code: string) => body.data.find((d) => d.payment_method === code)!;
    expect(line('other')).toMatchObject({ amount: '3.00', share: '2.857', brands: [] });
    expect(line('cash')).toMatchObject({ amount: '14.00', share: '13.333', brands: [] });
    expect(line('pos').brands).toEqual([]);
    expect(line('voucher').brands).toEqual([]);
    expect(line('tef_credit').brands).toEqual([
      { brand: 'VISA', count: 1, amount: '12.00', share: '11.429' },
    ]);
    expect(line('tef_pix').brands).toEqual([{ brand: null, count: 1, amount: '7.00', share: '6.667' }]);
  });

  it('brands: amount descending, ties by name, OTHER for text outside the format, null last; spaces merged; shares of the total (Brand rules)', async () => {
    const { full } = await seedDataAccounts(t);
    const tef = (id: string, brand: string | null, amount: string) =>
      receipt(id, { payment_method: 'tef_credit', brand, amount });
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        tef('B1', 'VISA', '10.00'),
        tef('B2', '  VISA ', '5.00'),
        tef('B3', 'Visa', '15.00'),
        tef('B4', 'MASTER  CARD', '3.00'),
        tef('B5', 'MASTER CARD', '2.00'),
        tef('B6', 'ELO', '5.00'),
        tef('B7', 'Cielo Visa Débito', '1.00'),
        tef('B8', 'A'.repeat(41), '1.00'),
        tef('B9', '#1', '1.00'),
        tef('BA', null, '50.00'),
        tef('BB', 'AMEX', '-2.00'),
        receipt('BC', { amount: '9.00' }),
      ],
    });
    const body = (await ok(t, full.key, daySalesUrl())) as {
      total: unknown;
      data: { payment_method: string; count: number; amount: string; share: string; brands: unknown[] }[];
    };
    expect(body.total).toEqual({ count: 12, amount: '100.00' });
    expect(body.data[1]).toEqual({
      payment_method: 'tef_credit',
      label: 'TEF - Crédito',
      count: 11,
      amount: '91.00',
      share: '91.000',
      brands: [
        { brand: 'VISA', count: 2, amount: '15.00', share: '15.000' },
        { brand: 'Visa', count: 1, amount: '15.00', share: '15.000' },
        { brand: 'ELO', count: 1, amount: '5.00', share: '5.000' },
        { brand: 'MASTER CARD', count: 2, amount: '5.00', share: '5.000' },
        { brand: 'OTHER', count: 3, amount: '3.00', share: '3.000' },
        { brand: 'AMEX', count: 1, amount: '-2.00', share: '-2.000' },
        { brand: null, count: 1, amount: '50.00', share: '50.000' },
      ],
    });
  });

  it('shares: three decimals, half away from zero, "0.000" when the total is zero, may be negative or above 100 (Receipts-by-payment-method response; docs/pos-api.md, Settled details)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        receipt('S1', { amount: '1.00' }),
        receipt('S2', { payment_method: 'pos', amount: '2.00' }),
        // 1/3 = 33.333..., 2/3 = 66.666... → 66.667.
      ],
    });
    const thirds = (await ok(t, full.key, daySalesUrl())) as { data: { share: string }[] };
    expect(thirds.data.map((d) => d.share)).toEqual(['33.333', '66.667']);

    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        receipt('S1', { amount: '5.00', occurred_at: '2026-11-21T12:00:00-03:00' }),
        receipt('S2', { payment_method: 'pos', amount: '-5.00', occurred_at: '2026-11-21T12:00:00-03:00' }),
        receipt('S3', { amount: '3.00', occurred_at: '2026-11-22T12:00:00-03:00' }),
        receipt('S4', { payment_method: 'pos', amount: '-1.00', occurred_at: '2026-11-22T12:00:00-03:00' }),
      ],
    });
    const zero = await ok(
      t,
      full.key,
      salesUrl('place=P1&from=2026-11-21T00:00:00-03:00&to=2026-11-22T00:00:00-03:00'),
    );
    expect(zero).toMatchObject({
      total: { count: 2, amount: '0.00' },
      data: [
        { payment_method: 'cash', share: '0.000' },
        { payment_method: 'pos', share: '0.000' },
      ],
    });
    const negative = await ok(
      t,
      full.key,
      salesUrl('place=P1&from=2026-11-22T00:00:00-03:00&to=2026-11-23T00:00:00-03:00'),
    );
    expect(negative).toMatchObject({
      total: { count: 2, amount: '2.00' },
      data: [
        { payment_method: 'cash', share: '150.000' },
        { payment_method: 'pos', share: '-50.000' },
      ],
    });
  });

  it('event: only receipts recorded with that event count, and event is echoed (What counts toward the total)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
      receipts: [
        receipt('E1a', { event: 'E1', amount: '10.00' }),
        receipt('E1b', { event: 'E1', amount: '1.00', occurred_at: '2025-01-01T00:00:00Z' }),
        receipt('E2a', { event: 'E2', amount: '20.00' }),
        receipt('N1', { amount: '40.00' }),
      ],
    });
    expect(await ok(t, full.key, daySalesUrl('&event=E1'))).toMatchObject({
      event: 'E1',
      total: { count: 1, amount: '10.00' },
    });
    expect(await ok(t, full.key, daySalesUrl())).toMatchObject({
      event: null,
      total: { count: 3, amount: '70.00' },
    });
  });
});

// ---------------------------------------------------------------------------------------------------
// The property the issue asks for, at route level: random receipts ingested through the admin API,
// random periods queried with random UTC offsets (URL-encoded), the route's figures equal the
// independent computation of figures-reference.ts from the raw receipts.

const LOCATIONS: [Location, Location, Location] = [
  { account: 'acme', place: 'P1', events: ['E1', 'E2'] },
  { account: 'acme', place: 'P2', events: ['E3'] },
  { account: 'other', place: 'P1', events: [] },
];
const generatedArb = generatedReceipt(LOCATIONS);

/** A query of acme's places: a period with offsets of its own for each bound, maybe an event of the place. */
const queryArb = fc.constantFrom(LOCATIONS[0], LOCATIONS[1]).chain((location) =>
  fc.record({
    place: fc.constant(location.place),
    event: fc.option(fc.constantFrom(...location.events), { freq: 3 }),
    bounds,
    fromOffset: offset,
    toOffset: offset,
    zulu: fc.boolean(),
  }),
);

const wireTimeOf = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describeEachDialect('POS API data: sales figures property at route level', (dialect) => {
  const t = useTestApp(dialect);

  it('figures of GET sales/by-payment-method equal the independent reference of the raw receipts, for random receipts and periods with random offsets (Receipts-by-payment-method response; What counts toward the total; Brand rules)', async () => {
    const { full } = await seedDataAccounts(t);
    let withFigures = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(generatedArb, { minLength: 1, maxLength: 30 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        async (receipts, queries) => {
          // A fresh start that goes around the write path: the buckets are emptied with the receipts.
          await t.db.deleteFrom('pos_receipts').execute();
          await t.db.deleteFrom('pos_sales_buckets').execute();
          const stored = receipts.map((r, i) => ({ id: `r${i}`, r }));
          for (const account of ['acme', 'other']) {
            const mine = stored.filter(({ r }) => r.location.account === account);
            if (mine.length === 0) continue;
            await t.admin('POST', `${ACCOUNTS}/${account}/receipts`, {
              receipts: mine.map(({ id, r }) => receiptBody(id, r)),
            });
          }
          for (const q of queries) {
            const [from, to] = q.bounds;
            const fromText = encodeURIComponent(isoAt(from, q.fromOffset, q.zulu));
            const toText = encodeURIComponent(isoAt(to, q.toOffset, q.zulu));
            const url = salesUrl(
              `place=${q.place}&from=${fromText}&to=${toText}${q.event === null ? '' : `&event=${q.event}`}`,
            );
            // `get` advances the clock 61 s: every query meets an empty rate window.
            const body = await ok(t, full.key, url);
            const start = Math.ceil(from / 1000) * 1000;
            const end = Math.ceil(to / 1000) * 1000;
            const counted = countedReceipts(
              stored.map(({ r }) => r),
              { account: 'acme', place: q.place, event: q.event, start, end },
            );
            if (counted.length > 0) withFigures += 1;
            expect(body).toEqual({
              from: wireTimeOf(start),
              to: wireTimeOf(end),
              place: q.place,
              event: q.event,
              currency: 'USD',
              ...referenceFigures(counted),
            });
          }
        },
      ),
      { numRuns: 25 },
    );
    // The runs are not all empty periods. About one query in ten meets counted receipts (about 9 of the
    // 25 runs' queries); more than 5 failed about one seed in ten, 2 or more fails about one in a thousand.
    expect(withFigures).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
