import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf } from '../expect-http.js';
import { asOperator, expectInvalidParam, ISO_SECONDS, POS } from './fixtures.js';
import {
  ACCOUNT,
  ndjson,
  postNdjson,
  postReceipts,
  receipt,
  receiptCount,
  RECEIPTS,
  seed,
  stored,
} from './pos-data-admin-fixtures.js';

// The point-of-sale data half of the back office when the operator's calls succeed (docs/admin-rules.md,
// Point of sale; docs/pos-api.md, Conventions and "What counts toward the total"): accounts, places, events
// and receipts with PUT semantics, instants, exact money, and the receipts upsert in JSON and NDJSON.

type Body = Record<string, unknown>;

describeEachDialect('admin API, point of sale data', (dialect) => {
  const t = useTestApp(dialect);

  describe('accounts (docs/admin-rules.md, Point of sale: PUT accounts/{id} {name, currency="BRL", active=true})', () => {
    it('PUT creates with the defaults (201), replaces (200) keeping created_at; GET lists and shows', async () => {
      const created = await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme Bares' });
      expect(created.statusCode).toBe(201);
      const body = bodyOf(created);
      expect(body).toMatchObject({ id: 'acme', name: 'Acme Bares', currency: 'BRL', active: true });
      expect(body.created_at).toMatch(ISO_SECONDS);
      t.clock.advance(60_000);
      const replaced = await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme', currency: 'USD', active: false });
      expect(replaced.statusCode).toBe(200);
      expect(bodyOf(replaced)).toMatchObject({ name: 'Acme', currency: 'USD', active: false });
      expect(bodyOf(replaced).created_at).toBe(body.created_at);
      expect(bodyOf(replaced).updated_at).not.toBe(body.updated_at);
      // Replace, not merge: fields left out are back to their default.
      expect(bodyOf(await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme' }))).toMatchObject({
        currency: 'BRL',
        active: true,
      });
      await t.admin('PUT', `${POS}/accounts/Zeta9`, { name: 'Zeta' });
      const list = JSON.parse((await t.admin('GET', `${POS}/accounts`)).body) as Body[];
      expect(list.map((a) => a.id)).toEqual(['Zeta9', 'acme']);
      expect(bodyOf(await t.admin('GET', ACCOUNT))).toMatchObject({ id: 'acme', name: 'Acme' });
    });
  });

  describe('places (docs/admin-rules.md, Point of sale: {name=null, timezone, active=null}, IANA zone checked)', () => {
    it('PUT creates with name and active null (201), replaces (200); GET lists the account’s places', async () => {
      await t.admin('PUT', ACCOUNT, { name: 'Acme' });
      const created = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1`, { timezone: 'America/Sao_Paulo' });
      expect(created.statusCode).toBe(201);
      expect(bodyOf(created)).toMatchObject({
        account: 'acme',
        id: 'p1',
        name: null,
        timezone: 'America/Sao_Paulo',
        active: null,
      });
      const replaced = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1`, {
        name: 'Centro',
        timezone: 'America/Manaus',
        active: false,
      });
      expect(replaced.statusCode).toBe(200);
      expect(bodyOf(replaced)).toMatchObject({ name: 'Centro', timezone: 'America/Manaus', active: false });
      await t.admin('PUT', `${ACCOUNT}/places/a0`, { timezone: 'UTC', active: true });
      const list = JSON.parse((await t.admin('GET', `${ACCOUNT}/places`)).body) as Body[];
      expect(list.map((p) => [p.id, p.active])).toEqual([
        ['a0', true],
        ['p1', false],
      ]);
    });
  });

  describe('events (docs/admin-rules.md, Point of sale: {name, starts_at=null, ends_at=null, active=true, registered_at=now})', () => {
    it('PUT creates with the defaults; instants with an offset are stored as ms and shown in UTC with Z', async () => {
      await seed(t);
      const created = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1/events/e2`, {
        name: 'São João',
        starts_at: '2026-06-24T18:00:00-03:00',
        ends_at: '2026-06-25T02:30:15.750Z',
      });
      expect(created.statusCode).toBe(201);
      expect(bodyOf(created)).toEqual({
        account: 'acme',
        place: 'p1',
        id: 'e2',
        name: 'São João',
        starts_at: '2026-06-24T21:00:00Z',
        ends_at: '2026-06-25T02:30:15Z',
        active: true,
        registered_at: '2026-11-20T12:00:00Z',
      });
      const row = await t.db
        .selectFrom('pos_events')
        .selectAll()
        .where('id', '=', 'e2')
        .executeTakeFirstOrThrow();
      expect(row.starts_at).toBe(Date.UTC(2026, 5, 24, 21));
      expect(row.ends_at).toBe(Date.UTC(2026, 5, 25, 2, 30, 15, 750));
      expect(row.registered_at).toBe(t.clock.now());
    });

    it('name_folded: NFD, combining marks removed, lower-cased (docs/pos-api.md, Settled details: event search)', async () => {
      await seed(t);
      await t.admin('PUT', `${ACCOUNT}/places/p1/events/e2`, { name: 'ÁRRAIÁ do Zé Ção' });
      const row = await t.db
        .selectFrom('pos_events')
        .select('name_folded')
        .where('id', '=', 'e2')
        .executeTakeFirstOrThrow();
      expect(row.name_folded).toBe('arraia do ze cao');
    });

    it('replacing keeps the registration instant unless one is given; GET lists most recently registered first', async () => {
      await seed(t);
      t.clock.advance(1000);
      await t.admin('PUT', `${ACCOUNT}/places/p1/events/e2`, { name: 'Segunda' });
      t.clock.advance(1000);
      const replaced = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1/events/e1`, {
        name: 'Festa Junina',
        active: false,
      });
      expect(replaced.statusCode).toBe(200);
      expect(bodyOf(replaced)).toMatchObject({ active: false, registered_at: '2026-11-20T12:00:00Z' });
      const list = JSON.parse((await t.admin('GET', `${ACCOUNT}/places/p1/events`)).body) as Body[];
      expect(list.map((e) => e.id)).toEqual(['e2', 'e1']);
      await t.admin('PUT', `${ACCOUNT}/places/p1/events/e1`, {
        name: 'Festa',
        registered_at: '2026-12-01T00:00:00Z',
      });
      const again = JSON.parse((await t.admin('GET', `${ACCOUNT}/places/p1/events`)).body) as Body[];
      expect(again.map((e) => e.id)).toEqual(['e1', 'e2']);
      expect(JSON.parse((await t.admin('GET', `${ACCOUNT}/places/p2/events`)).body)).toEqual([]);
    });
  });

  describe('receipts (docs/admin-rules.md, Point of sale: POST accounts/{account}/receipts, upsert by id)', () => {
    it('receipts: inserted with their defaults; counts {inserted, updated, unchanged}; counted derived from the rules', async () => {
      await seed(t);
      const response = await postReceipts(t, [
        receipt('r1'),
        receipt('r2', { event: 'e1', kind: 'cashless_topup', brand: null, payment_method: 'cash' }),
        receipt('r3', { kind: 'cashless_consumption' }),
        receipt('r4', { demo: true }),
        receipt('r5', { status: 'unpaid' }),
        receipt('r6', { kind: null }),
        receipt('r7', { kind: 'refund_item', amount: '-3.00' }),
      ]);
      expect(response.statusCode, response.body).toBe(200);
      expect(bodyOf(response)).toEqual({ inserted: 7, updated: 0, unchanged: 0 });
      const r1 = await stored(t, 'r1');
      expect(r1).toMatchObject({
        accountId: 'acme',
        placeId: 'p1',
        eventId: null,
        occurredAt: Date.UTC(2026, 10, 21, 0, 30),
        paymentMethod: 'tef_credit',
        brand: 'VISA',
        amountCents: 1250,
        kind: 'sale',
        status: 'paid',
        demo: false,
        counted: true,
        receivedAt: t.clock.now(),
      });
      expect(await stored(t, 'r2')).toMatchObject({ eventId: 'e1', brand: null, counted: true });
      for (const id of ['r3', 'r4', 'r5', 'r6', 'r7']) expect((await stored(t, id)).counted, id).toBe(false);
      expect((await stored(t, 'r7')).amountCents).toBe(-300);
    });

    it('receipts: sending the same receipts again is unchanged (every stored field equal), a changed field is updated', async () => {
      await seed(t);
      const batch = [receipt('r1'), receipt('r2', { brand: null }), receipt('r3')];
      expect(bodyOf(await postReceipts(t, batch))).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
      t.clock.advance(5000);
      // The same values written differently (defaults spelt out, another offset, "12.5") are equal.
      const same = [
        receipt('r1', { occurred_at: '2026-11-21T00:30:00Z', amount: '12.5', status: 'paid', demo: false }),
        receipt('r2', { brand: null, event: null }),
        receipt('r3'),
      ];
      expect(bodyOf(await postReceipts(t, same))).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
      expect((await stored(t, 'r1')).updatedAt).toBe(t.clock.now() - 5000);
      for (const change of [
        { brand: 'Visa' },
        { brand: null },
        { payment_method: 'tef_debit' },
        { amount: '12.51' },
        { occurred_at: '2026-11-20T21:30:01-03:00' },
        { place: 'p2' },
        { event: 'e1' },
        { kind: 'tab' },
        { kind: null },
        { status: 'unpaid' },
        { demo: true },
      ]) {
        const response = await postReceipts(t, [receipt('r3', change)]);
        expect(bodyOf(response), JSON.stringify(change)).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
        expect(bodyOf(await postReceipts(t, [receipt('r3')]))).toEqual({
          inserted: 0,
          updated: 1,
          unchanged: 0,
        });
      }
    });

    it('receipts: a late receipt replaces the stored one; a sale cancelled afterwards stops counting (counted 0)', async () => {
      await seed(t);
      const sent = await postReceipts(t, [receipt('r1'), receipt('r2', { amount: '7.25' })]);
      expect(bodyOf(sent)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      const first = await stored(t, 'r1');
      expect(first.counted).toBe(true);
      t.clock.advance(3 * 86_400_000);
      const late = await postReceipts(t, [receipt('r1', { status: 'cancelled' })]);
      expect(bodyOf(late)).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      const cancelled = await stored(t, 'r1');
      expect(cancelled).toMatchObject({ status: 'cancelled', counted: false, receivedAt: first.receivedAt });
      expect(cancelled.updatedAt).toBe(t.clock.now());
      const counted = await t.db
        .selectFrom('pos_receipts')
        .select((eb) => eb.fn.sum<number | string | null>('amount_cents').as('cents'))
        .where('counted', '=', 1)
        .executeTakeFirstOrThrow();
      expect(Number(counted.cents)).toBe(725);
    });

    it('receipts: money is exact text to integer cents, no float ("0.10" + "0.20" is 0.30); a JSON number is refused', async () => {
      await seed(t);
      const response = await postReceipts(t, [
        receipt('a', { amount: '0.10' }),
        receipt('b', { amount: '0.20' }),
        receipt('c', { amount: '90071992547409.91' }),
        receipt('d', { amount: '-0.99' }),
      ]);
      expect(response.statusCode, response.body).toBe(200);
      const rows = await t.db
        .selectFrom('pos_receipts')
        .select(['id', 'amount_cents'])
        .orderBy('id')
        .execute();
      expect(rows.map((r) => [r.id, r.amount_cents])).toEqual([
        ['a', 10],
        ['b', 20],
        ['c', 9_007_199_254_740_991],
        ['d', -99],
      ]);
      expect((await stored(t, 'a')).amountCents + (await stored(t, 'b')).amountCents).toBe(30);
      for (const amount of [12.5, 0.1, '12,50', '1.234', '1e3', ' 12.50', '', '+1.00', null]) {
        const body = expectInvalidParam(
          await postReceipts(t, [receipt('z', { amount })]),
          'receipts[0].amount',
        );
        expect(String(body.detail)).toContain('money text');
      }
      expect(
        String(
          expectInvalidParam(await postReceipts(t, [receipt('z', { amount: 0.1 })]), 'receipts[0].amount')
            .detail,
        ),
      ).toContain('JSON number');
      expect(await receiptCount(t)).toBe(4);
    });

    it('receipts: the same id twice in one call, the later one wins; counted as if sent one after another', async () => {
      await seed(t);
      const response = await postReceipts(t, [
        receipt('r1', { amount: '1.00' }),
        receipt('r1', { amount: '2.00' }),
        receipt('r2'),
        receipt('r2'),
      ]);
      expect(bodyOf(response)).toEqual({ inserted: 2, updated: 1, unchanged: 1 });
      expect((await stored(t, 'r1')).amountCents).toBe(200);
      expect(await receiptCount(t)).toBe(2);
    });
  });

  describe('receipts as NDJSON (docs/admin-rules.md, Point of sale: application/x-ndjson of any length)', () => {
    it('25,000 lines streamed are read line by line and stored in one call', async () => {
      await seed(t);
      const lines = ndjson(25_000, (n) =>
        JSON.stringify(
          receipt(`r${n}`, {
            amount: `${n}.${String(n % 100).padStart(2, '0')}`,
            event: n % 2 === 0 ? 'e1' : null,
          }),
        ),
      );
      const response = await postNdjson(t, lines);
      expect(response.statusCode, response.body).toBe(200);
      expect(bodyOf(response)).toEqual({ inserted: 25_000, updated: 0, unchanged: 0 });
      expect(await receiptCount(t)).toBe(25_000);
      expect((await stored(t, 'r24999')).amountCents).toBe(2_499_999);
      expect((await stored(t, 'r2')).eventId).toBe('e1');
      // Again, with the last 5,000 cancelled: the rest unchanged.
      const again = await postNdjson(
        t,
        ndjson(25_000, (n) =>
          JSON.stringify(
            receipt(`r${n}`, {
              amount: `${n}.${String(n % 100).padStart(2, '0')}`,
              event: n % 2 === 0 ? 'e1' : null,
              status: n > 20_000 ? 'cancelled' : 'paid',
            }),
          ),
        ),
      );
      expect(bodyOf(again)).toEqual({ inserted: 0, updated: 5_000, unchanged: 20_000 });
      expect((await stored(t, 'r20001')).counted).toBe(false);
    });

    it('blank lines are skipped, CRLF accepted', async () => {
      await seed(t);
      const body = `\n${JSON.stringify(receipt('r1'))}\r\n   \n\n${JSON.stringify(receipt('r2'))}`;
      expect(bodyOf(await postNdjson(t, body))).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      const withCharset = await t.app.admin.inject({
        method: 'POST',
        url: RECEIPTS,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/x-ndjson; charset=utf-8',
        },
        payload: JSON.stringify(receipt('r3')),
      });
      expect(bodyOf(withCharset)).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    });
  });
});
