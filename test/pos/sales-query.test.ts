import { describe, expect, it } from 'vitest';
import { findPlaceCurrency } from '../../src/pos/places/place-repository.js';
import { rawSalesReader } from '../../src/pos/sales/raw-sales-reader.js';
import { salesByPaymentMethod, type SalesQuery } from '../../src/pos/sales/sales-query.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { referenceFigures } from './figures-reference.js';

// The query behind GET /sales/by-payment-method (docs/pos-api.md, "What counts toward the total",
// "Receipts-by-payment-method response", the route's section; docs/pos-api.md, Settled details), on each
// dialect, with receipts written through the admin API as store devices send them.

const POS = '/admin/v1/pos';

/** 2026-11-20T00:00:00-03:00 to 2026-11-21T00:00:00-03:00: one day of the panel's time zone. */
const FROM = Date.UTC(2026, 10, 20, 3);
const TO = Date.UTC(2026, 10, 21, 3);
const NOON = Date.UTC(2026, 10, 20, 15);

type Body = Record<string, unknown>;

/** Account `acme` (USD) with places p1 (events e1, e2) and p2; account `other` (BRL) with its own p1 and e1. */
async function seed(t: TestApp): Promise<void> {
  await t.admin('PUT', `${POS}/accounts/acme`, { name: 'Acme Bares', currency: 'USD' });
  await t.admin('PUT', `${POS}/accounts/acme/places/p1`, { timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${POS}/accounts/acme/places/p2`, { timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${POS}/accounts/acme/places/p1/events/e1`, { name: 'Festa' });
  await t.admin('PUT', `${POS}/accounts/acme/places/p1/events/e2`, { name: 'Feira' });
  await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra' });
  await t.admin('PUT', `${POS}/accounts/other/places/p1`, { timezone: 'UTC' });
  await t.admin('PUT', `${POS}/accounts/other/places/p1/events/e1`, { name: 'Festa' });
}

/** An instant as a device may write it: ISO 8601 with milliseconds and the offset given (minutes). */
function isoAt(ms: number, offsetMinutes = 0): string {
  if (offsetMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const magnitude = Math.abs(offsetMinutes);
  const hh = String(Math.floor(magnitude / 60)).padStart(2, '0');
  const mm = String(magnitude % 60).padStart(2, '0');
  return `${local}${offsetMinutes < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** A paid sale of place p1 at noon by credit card, 10.00; fields overridable. */
function receipt(id: string, overrides: Body = {}): Body {
  return {
    id,
    place: 'p1',
    occurred_at: isoAt(NOON, -180),
    payment_method: 'tef_credit',
    brand: 'VISA',
    amount: '10.00',
    kind: 'sale',
    ...overrides,
  };
}

async function post(t: TestApp, receipts: Body[], account = 'acme'): Promise<void> {
  await t.admin('POST', `${POS}/accounts/${account}/receipts`, { receipts });
}

/** The figures as the sales service reads them, in the currency it read with the place (USD: acme's). */
function query(t: TestApp, overrides: Partial<SalesQuery> = {}, currency = 'USD') {
  return salesByPaymentMethod(
    t.db,
    {
      accountId: 'acme',
      placeId: 'p1',
      eventId: null,
      from: FROM,
      to: TO,
      ...overrides,
    },
    currency,
    rawSalesReader,
  );
}

describeEachDialect('sales by payment method, the query', (dialect) => {
  const t = useTestApp(dialect);

  describe('what counts toward the total (docs/pos-api.md; docs/pos-api.md, Settled details)', () => {
    it('counts: paid receipts of sales and tabs, cashless top-ups and activations', async () => {
      await seed(t);
      await post(t, [
        receipt('sale', { payment_method: 'cash', brand: null, amount: '1.00', kind: 'sale' }),
        receipt('tab', { payment_method: 'cash', brand: null, amount: '2.00', kind: 'tab' }),
        receipt('topup', { payment_method: 'cash', brand: null, amount: '4.00', kind: 'cashless_topup' }),
        receipt('activation', { amount: '8.00', kind: 'cashless_activation' }),
      ]);
      expect(await query(t)).toEqual({
        from: '2026-11-20T03:00:00Z',
        to: '2026-11-21T03:00:00Z',
        place: 'p1',
        event: null,
        currency: 'USD',
        total: { count: 4, amount: '15.00' },
        data: [
          {
            payment_method: 'cash',
            label: 'Dinheiro',
            count: 3,
            amount: '7.00',
            share: '46.667',
            brands: [],
          },
          {
            payment_method: 'tef_credit',
            label: 'TEF - Crédito',
            count: 1,
            amount: '8.00',
            share: '53.333',
            brands: [{ brand: 'VISA', count: 1, amount: '8.00', share: '53.333' }],
          },
        ],
      });
    });

    it('does not count: unpaid, cancelled, demo, cashless consumption, withdrawal, supply, refunds, cashless return, no kind: in no line', async () => {
      await seed(t);
      const excluded = [
        receipt('unpaid', { status: 'unpaid' }),
        receipt('cancelled', { status: 'cancelled' }),
        receipt('demo', { demo: true }),
        receipt('consumption', { kind: 'cashless_consumption' }),
        receipt('withdrawal', { kind: 'withdrawal', payment_method: 'cash', brand: null }),
        receipt('supply', { kind: 'supply', payment_method: 'cash', brand: null }),
        receipt('refundItem', { kind: 'refund_item', brand: 'MASTER' }),
        receipt('refundProduct', { kind: 'refund_product', payment_method: 'pix' }),
        receipt('refundCashless', { kind: 'refund_cashless', payment_method: 'tef_debit' }),
        receipt('return', { kind: 'cashless_return', payment_method: 'cash' }),
        receipt('noKind', { kind: null, payment_method: 'voucher', brand: 'ELO' }),
        // Counting kinds, but unpaid or a demonstration.
        receipt('unpaidTab', { kind: 'tab', status: 'unpaid', payment_method: 'pos' }),
        receipt('demoTopup', { kind: 'cashless_topup', demo: true, payment_method: 'tef_pix' }),
      ];
      await post(t, excluded);
      // An empty period gives `data: []` and a zero total ("Receipts-by-payment-method response").
      expect(await query(t)).toMatchObject({ total: { count: 0, amount: '0.00' }, data: [] });

      await post(t, [receipt('counted', { amount: '5.00' })]);
      const figures = await query(t);
      expect(figures.total).toEqual({ count: 1, amount: '5.00' });
      expect(figures.data).toEqual([
        {
          payment_method: 'tef_credit',
          label: 'TEF - Crédito',
          count: 1,
          amount: '5.00',
          share: '100.000',
          brands: [{ brand: 'VISA', count: 1, amount: '5.00', share: '100.000' }],
        },
      ]);
    });

    it('gross of refunds: refunds are not subtracted and the original receipt stays in', async () => {
      await seed(t);
      await post(t, [
        receipt('sale', { amount: '50.00' }),
        receipt('refund1', { kind: 'refund_item', amount: '50.00' }),
        receipt('refund2', { kind: 'refund_product', amount: '-50.00' }),
        receipt('refund3', { kind: 'refund_cashless', amount: '-20.00' }),
      ]);
      expect((await query(t)).total).toEqual({ count: 1, amount: '50.00' });
    });
  });

  describe('the period: by occurred_at, from included, to excluded (Conventions; the route, from/to)', () => {
    it('boundaries to the millisecond: from - 1 ms out, from in, to - 1 ms in, to out', async () => {
      await seed(t);
      await post(t, [
        receipt('before', { occurred_at: isoAt(FROM - 1, -180), amount: '1.00' }),
        receipt('first', { occurred_at: isoAt(FROM, 330), amount: '2.00' }),
        receipt('last', { occurred_at: isoAt(TO - 1), amount: '4.00' }),
        receipt('after', { occurred_at: isoAt(TO, 840), amount: '8.00' }),
      ]);
      expect((await query(t)).total).toEqual({ count: 2, amount: '6.00' });
      // The next day starts at `to`: nothing lost or counted twice across adjacent periods.
      const next = await query(t, { from: TO, to: TO + 86_400_000 });
      expect(next.total).toEqual({ count: 1, amount: '8.00' });
      expect((await query(t, { from: FROM, to: FROM })).total).toEqual({ count: 0, amount: '0.00' });
    });

    it('period queried: fractions of a second rounded up, from/to echoed in UTC whole seconds (Receipts-by-payment-method response)', async () => {
      await seed(t);
      await post(t, [
        receipt('beforeRoundedFrom', { occurred_at: isoAt(FROM - 500), amount: '1.00' }),
        receipt('atFrom', { occurred_at: isoAt(FROM), amount: '2.00' }),
        receipt('afterUnroundedTo', { occurred_at: isoAt(TO - 500), amount: '4.00' }),
      ]);
      const figures = await query(t, { from: FROM - 999, to: TO - 999 });
      expect(figures).toMatchObject({ from: '2026-11-20T03:00:00Z', to: '2026-11-21T03:00:00Z' });
      expect(figures.total).toEqual({ count: 2, amount: '6.00' });
    });

    it('offline receipts: a late receipt enters the already queried period when it happened', async () => {
      await seed(t);
      await post(t, [receipt('online', { amount: '10.00' })]);
      expect((await query(t)).total).toEqual({ count: 1, amount: '10.00' });
      // Two days later the device comes back online and sends what it recorded on the day.
      t.clock.advance(2 * 86_400_000);
      await post(t, [receipt('offline', { occurred_at: isoAt(FROM + 1000, -180), amount: '2.50' })]);
      expect((await query(t)).total).toEqual({ count: 2, amount: '12.50' });
      // It is not in the period it arrived in.
      const arrival = await query(t, { from: t.clock.now() - 86_400_000, to: t.clock.now() + 86_400_000 });
      expect(arrival.total.count).toBe(0);
    });

    it('upsert: a receipt cancelled afterwards leaves the figures; a corrected amount replaces the old one', async () => {
      await seed(t);
      await post(t, [receipt('r1', { amount: '10.00' }), receipt('r2', { amount: '3.00' })]);
      expect((await query(t)).total).toEqual({ count: 2, amount: '13.00' });
      await post(t, [receipt('r1', { amount: '10.00', status: 'cancelled' })]);
      expect(await query(t)).toMatchObject({
        total: { count: 1, amount: '3.00' },
        data: [{ count: 1, amount: '3.00', brands: [{ brand: 'VISA', count: 1, amount: '3.00' }] }],
      });
      await post(t, [receipt('r2', { amount: '7.25' })]);
      expect((await query(t)).total).toEqual({ count: 1, amount: '7.25' });
      // Moved out of the period by a corrected occurred_at.
      await post(t, [receipt('r2', { amount: '7.25', occurred_at: isoAt(TO) })]);
      expect((await query(t)).total).toEqual({ count: 0, amount: '0.00' });
    });
  });

  describe('the event filter (What counts toward the total: with `event`)', () => {
    it('only receipts recorded with the event; one recorded without it is left out, and counts without the filter', async () => {
      await seed(t);
      await post(t, [
        receipt('withE1', { event: 'e1', amount: '1.00' }),
        receipt('withE1b', { event: 'e1', amount: '2.00', payment_method: 'cash', brand: null }),
        receipt('withE2', { event: 'e2', amount: '4.00' }),
        receipt('eventSaleWithoutEvent', { event: null, amount: '8.00' }),
      ]);
      const e1 = await query(t, { eventId: 'e1' });
      expect(e1).toMatchObject({ event: 'e1', place: 'p1', total: { count: 2, amount: '3.00' } });
      expect(e1.data.map((line) => [line.payment_method, line.amount])).toEqual([
        ['cash', '2.00'],
        ['tef_credit', '1.00'],
      ]);
      expect((await query(t, { eventId: 'e2' })).total).toEqual({ count: 1, amount: '4.00' });
      expect(await query(t)).toMatchObject({ event: null, total: { count: 4, amount: '15.00' } });
    });

    it('the period still applies with an event', async () => {
      await seed(t);
      await post(t, [
        receipt('inside', { event: 'e1', amount: '1.00' }),
        receipt('outside', { event: 'e1', amount: '2.00', occurred_at: isoAt(TO) }),
      ]);
      expect((await query(t, { eventId: 'e1' })).total).toEqual({ count: 1, amount: '1.00' });
    });
  });

  describe('scope: one place of one account', () => {
    it('receipts of other places and of other accounts (even a place and event of the same ids) are never counted', async () => {
      await seed(t);
      await post(t, [receipt('mine', { amount: '1.00', event: 'e1' })]);
      await post(t, [receipt('p2', { place: 'p2', amount: '2.00' })]);
      await post(
        t,
        [receipt('mine', { amount: '4.00', event: 'e1' }), receipt('theirs', { amount: '8.00' })],
        'other',
      );
      expect(await query(t)).toMatchObject({ currency: 'USD', total: { count: 1, amount: '1.00' } });
      expect((await query(t, { eventId: 'e1' })).total).toEqual({ count: 1, amount: '1.00' });
      expect((await query(t, { placeId: 'p2' })).total).toEqual({ count: 1, amount: '2.00' });
      expect((await query(t, { accountId: 'other' }, 'BRL')).total).toEqual({ count: 2, amount: '12.00' });
      expect((await query(t, { accountId: 'other', eventId: 'e1' })).total).toEqual({
        count: 1,
        amount: '4.00',
      });
      expect((await query(t, { placeId: 'p9' })).total).toEqual({ count: 0, amount: '0.00' });
    });

    it("the currency is the place's account's, read with the place; a place the account does not have has none", async () => {
      await seed(t);
      expect(await findPlaceCurrency(t.db, 'acme', 'p1')).toBe('USD');
      expect(await findPlaceCurrency(t.db, 'acme', 'p2')).toBe('USD');
      // The same place id in another account: that account's money (BRL, the default).
      expect(await findPlaceCurrency(t.db, 'other', 'p1')).toBe('BRL');
      expect(await findPlaceCurrency(t.db, 'other', 'p2')).toBeUndefined();
      expect(await findPlaceCurrency(t.db, 'acme', 'p9')).toBeUndefined();
      expect(await findPlaceCurrency(t.db, 'nobody', 'p1')).toBeUndefined();
      await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra', currency: 'EUR' });
      expect(await findPlaceCurrency(t.db, 'other', 'p1')).toBe('EUR');
    });
  });

  describe('money is exact from the database to the text (Conventions: money)', () => {
    it('sums beyond 2^53 cents are exact in every line, total and share', async () => {
      await seed(t);
      // 2^53 - 1 cents, the largest amount a receipt may have, three times: 3 * 2^53 - 3 is odd and
      // above 2^54, where doubles are multiples of 4; no other sum below is a multiple of the spacing of
      // doubles at its size either.
      const max = '90071992547409.91';
      await post(t, [
        receipt('v1', { amount: max }),
        receipt('v2', { amount: max }),
        receipt('v3', { amount: max }),
        receipt('m1', { brand: 'MASTER', amount: '90000000000000.01' }),
        receipt('m2', { brand: 'MASTER', amount: '90000000000000.04' }),
        receipt('c1', { payment_method: 'cash', brand: null, amount: '0.01' }),
      ]);
      const figures = await query(t);
      const visa = 3n * (2n ** 53n - 1n);
      const master = 18_000_000_000_000_005n;
      const total = visa + master + 1n;
      expect(figures.total).toEqual({ count: 6, amount: '450215977642229.79' });
      expect(figures.data.map((line) => [line.payment_method, line.amount])).toEqual([
        ['cash', '0.01'],
        ['tef_credit', '450215977642229.78'],
      ]);
      expect(figures.data[1]!.brands.map((item) => [item.brand, item.amount])).toEqual([
        ['VISA', '270215977642229.73'],
        ['MASTER', '180000000000000.05'],
      ]);
      // Through a double each of these sums would have been rounded.
      for (const cents of [visa, master, visa + master, total]) expect(BigInt(Number(cents))).not.toBe(cents);
      const raw = [
        ...Array.from({ length: 3 }, () => ({ method: 'tef_credit', brand: 'VISA', cents: 2n ** 53n - 1n })),
        { method: 'tef_credit', brand: 'MASTER', cents: 9_000_000_000_000_001n },
        { method: 'tef_credit', brand: 'MASTER', cents: 9_000_000_000_000_004n },
        { method: 'cash', brand: null, cents: 1n },
      ];
      expect({ total: figures.total, data: figures.data }).toEqual(referenceFigures(raw));
    });

    it('negative sums beyond -2^53 cents are exact too', async () => {
      await seed(t);
      await post(t, [
        receipt('n1', { amount: '-90071992547409.91' }),
        receipt('n2', { amount: '-90071992547409.91' }),
        receipt('n3', { amount: '-90071992547409.91' }),
        receipt('p1', { amount: '0.02' }),
      ]);
      expect((await query(t)).total).toEqual({ count: 4, amount: '-270215977642229.71' });
    });
  });
});
