import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { findReceipt } from '../../src/pos/receipt-repository.js';
import {
  ADMIN_TOKEN,
  adminAs,
  describeEachDialect,
  SUPPORT_TOKEN,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { expectProblem } from '../expect-http.js';
import { json } from '../helpdesk/fixtures.js';

// The point-of-sale data half of the back office (admin-api.md: intro, Point of sale; pos-data-api.md,
// Conventions and "What counts toward the total"): accounts, places, events and receipts. PUT semantics,
// identifiers, time zones, instants, exact money, the receipts upsert in JSON and NDJSON, refusals that
// name what to fix and store nothing, and the support token kept out.

const POS = '/admin/v1/pos';
const ACCOUNT = `${POS}/accounts/acme`;
const RECEIPTS = `${ACCOUNT}/receipts`;
const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

type Body = Record<string, unknown>;

const asOperator = (t: TestApp, method: InjectOptions['method'], url: string, body?: unknown) =>
  adminAs(t, ADMIN_TOKEN, method, url, body);

/** A 422 `validation_failed` whose param is `param` and whose detail names it. */
function expectInvalid(response: LightMyRequestResponse, param: string): Body {
  const body = expectProblem(response, 422, 'validation_failed');
  expect(body.param).toBe(param);
  expect(String(body.detail)).toContain(param);
  return body;
}

/** A valid receipt of place `p1`; fields overridable. */
function receipt(id: string, overrides: Body = {}): Body {
  return {
    id,
    place: 'p1',
    occurred_at: '2026-11-20T21:30:00-03:00',
    payment_method: 'tef_credit',
    brand: 'VISA',
    amount: '12.50',
    kind: 'sale',
    ...overrides,
  };
}

/** Account `acme` with places `p1`, `p2` (event `e1` in `p1`), and account `other` with place `x1`. */
async function seed(t: TestApp): Promise<void> {
  await t.admin('PUT', ACCOUNT, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACCOUNT}/places/p1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNT}/places/p2`, { timezone: 'America/Manaus' });
  await t.admin('PUT', `${ACCOUNT}/places/p1/events/e1`, { name: 'Festa Junina' });
  await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra' });
  await t.admin('PUT', `${POS}/accounts/other/places/x1`, { timezone: 'UTC' });
}

async function postReceipts(t: TestApp, receipts: unknown[]): Promise<LightMyRequestResponse> {
  return asOperator(t, 'POST', RECEIPTS, { receipts });
}

async function receiptCount(t: TestApp): Promise<number> {
  const row = await t.db
    .selectFrom('pos_receipts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function stored(t: TestApp, id: string, account = 'acme') {
  const found = await findReceipt(t.db, account, id);
  if (found === undefined) throw new Error(`receipt ${id} not stored`);
  return found;
}

/** NDJSON lines produced lazily, a few hundred per chunk: the body is never built in memory. */
function ndjson(total: number, line: (n: number) => string): Readable {
  return Readable.from(
    (function* () {
      const perChunk = 250;
      for (let start = 1; start <= total; start += perChunk) {
        let chunk = '';
        for (let n = start; n < start + perChunk && n <= total; n += 1) chunk += `${line(n)}\n`;
        yield chunk;
      }
    })(),
  );
}

function postNdjson(t: TestApp, payload: Readable | string, url = RECEIPTS) {
  return t.app.admin.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload,
  });
}

describeEachDialect('admin API, point of sale data', (dialect) => {
  const t = useTestApp(dialect);

  describe('accounts (admin-api.md, Point of sale: PUT accounts/{id} {name, currency="BRL", active=true})', () => {
    it('PUT creates with the defaults (201), replaces (200) keeping created_at; GET lists and shows', async () => {
      const created = await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme Bares' });
      expect(created.statusCode).toBe(201);
      const body = json(created);
      expect(body).toMatchObject({ id: 'acme', name: 'Acme Bares', currency: 'BRL', active: true });
      expect(body.created_at).toMatch(ISO_SECONDS);
      t.clock.advance(60_000);
      const replaced = await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme', currency: 'USD', active: false });
      expect(replaced.statusCode).toBe(200);
      expect(json(replaced)).toMatchObject({ name: 'Acme', currency: 'USD', active: false });
      expect(json(replaced).created_at).toBe(body.created_at);
      expect(json(replaced).updated_at).not.toBe(body.updated_at);
      // Replace, not merge: fields left out are back to their default.
      expect(json(await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme' }))).toMatchObject({
        currency: 'BRL',
        active: true,
      });
      await t.admin('PUT', `${POS}/accounts/Zeta9`, { name: 'Zeta' });
      const list = JSON.parse((await t.admin('GET', `${POS}/accounts`)).body) as Body[];
      expect(list.map((a) => a.id)).toEqual(['Zeta9', 'acme']);
      expect(json(await t.admin('GET', ACCOUNT))).toMatchObject({ id: 'acme', name: 'Acme' });
    });

    it('currency must be 3 uppercase letters; name required; unknown fields refused: 422, nothing stored', async () => {
      for (const currency of ['brl', 'BR', 'BRLX', 'R$', 986]) {
        expectInvalid(await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme', currency }), 'body.currency');
      }
      expectInvalid(await asOperator(t, 'PUT', ACCOUNT, { currency: 'BRL' }), 'body.name');
      expectInvalid(await asOperator(t, 'PUT', ACCOUNT, { name: '   ' }), 'body.name');
      expectInvalid(await asOperator(t, 'PUT', ACCOUNT, { name: 'A', active: 'yes' }), 'body.active');
      expectProblem(
        await asOperator(t, 'PUT', ACCOUNT, { name: 'A', color: 'red' }),
        422,
        'validation_failed',
      );
      expect(JSON.parse((await t.admin('GET', `${POS}/accounts`)).body)).toEqual([]);
    });

    it('GET of an unknown account: 404 not_found', async () => {
      expectProblem(await asOperator(t, 'GET', `${POS}/accounts/nobody`), 404, 'not_found');
    });
  });

  describe('identifiers (admin-api.md intro: ^[A-Za-z0-9]{1,64}$ for accounts, places, events, receipts)', () => {
    it('an account, place or event id of another shape: 422 naming the path parameter', async () => {
      await seed(t);
      for (const bad of ['a-b', 'a_b', 'ação', 'x'.repeat(65), 'a.b', 'a%20b']) {
        expectInvalid(await asOperator(t, 'PUT', `${POS}/accounts/${bad}`, { name: 'X' }), 'path.id');
        expectInvalid(await asOperator(t, 'PUT', `${ACCOUNT}/places/${bad}`, { timezone: 'UTC' }), 'path.id');
        expectInvalid(
          await asOperator(t, 'PUT', `${ACCOUNT}/places/p1/events/${bad}`, { name: 'E' }),
          'path.id',
        );
        expectInvalid(await asOperator(t, 'GET', `${POS}/accounts/${bad}/places`), 'path.account');
        expectInvalid(await asOperator(t, 'GET', `${ACCOUNT}/places/${bad}/events`), 'path.place');
      }
      // 64 letters and digits are accepted.
      const longest = `${'a'.repeat(32)}${'Z9'.repeat(16)}`;
      expect((await asOperator(t, 'PUT', `${POS}/accounts/${longest}`, { name: 'Longa' })).statusCode).toBe(
        201,
      );
    });

    it('a receipt id, place or event of another shape: 422 with receipts[i].field', async () => {
      await seed(t);
      expectInvalid(await postReceipts(t, [receipt('r-1')]), 'receipts[0].id');
      expectInvalid(await postReceipts(t, [receipt('r1'), receipt('x'.repeat(65))]), 'receipts[1].id');
      expectInvalid(await postReceipts(t, [receipt('r1', { place: 'p 1' })]), 'receipts[0].place');
      expectInvalid(await postReceipts(t, [receipt('r1', { event: 'e_1' })]), 'receipts[0].event');
      expect(await receiptCount(t)).toBe(0);
    });
  });

  describe('places (admin-api.md, Point of sale: {name=null, timezone, active=null}, IANA zone checked)', () => {
    it('PUT creates with name and active null (201), replaces (200); GET lists the account’s places', async () => {
      await t.admin('PUT', ACCOUNT, { name: 'Acme' });
      const created = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1`, { timezone: 'America/Sao_Paulo' });
      expect(created.statusCode).toBe(201);
      expect(json(created)).toMatchObject({
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
      expect(json(replaced)).toMatchObject({ name: 'Centro', timezone: 'America/Manaus', active: false });
      await t.admin('PUT', `${ACCOUNT}/places/a0`, { timezone: 'UTC', active: true });
      const list = JSON.parse((await t.admin('GET', `${ACCOUNT}/places`)).body) as Body[];
      expect(list.map((p) => [p.id, p.active])).toEqual([
        ['a0', true],
        ['p1', false],
      ]);
    });

    it('timezone: IANA names accepted, unknown or non-canonical names refused with 422', async () => {
      await t.admin('PUT', ACCOUNT, { name: 'Acme' });
      for (const zone of [
        'America/Sao_Paulo',
        'UTC',
        'Etc/GMT+3',
        'Asia/Kolkata',
        'America/Argentina/Buenos_Aires',
      ]) {
        const response = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1`, { timezone: zone });
        expect(response.statusCode, `${zone}: ${response.body}`).toBeLessThan(300);
        expect(json(response).timezone).toBe(zone);
      }
      for (const zone of [
        'Mars/Olympus',
        'america/sao_paulo',
        'AMERICA/SAO_PAULO',
        '-03:00',
        'UTC+3',
        ' America/Sao_Paulo',
        'America/Sao_Paulo ',
        '',
        'America//Sao_Paulo',
        '../etc/passwd',
        'America/Sao_Paulo\u0000',
      ]) {
        const body = expectInvalid(
          await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { timezone: zone }),
          'body.timezone',
        );
        expect(String(body.detail)).toContain('IANA');
      }
      expectInvalid(
        await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { name: 'Sem zona' }),
        'body.timezone',
      );
      expectInvalid(await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { timezone: 180 }), 'body.timezone');
      expectProblem(await asOperator(t, 'GET', `${ACCOUNT}/places/p2/events`), 404, 'not_found');
    });

    it('unknown account: 404 not_found on PUT and GET places, nothing stored', async () => {
      expectProblem(
        await asOperator(t, 'PUT', `${POS}/accounts/nobody/places/p1`, { timezone: 'UTC' }),
        404,
        'not_found',
      );
      expectProblem(await asOperator(t, 'GET', `${POS}/accounts/nobody/places`), 404, 'not_found');
      expect(await t.db.selectFrom('pos_places').selectAll().execute()).toEqual([]);
    });
  });

  describe('events (admin-api.md, Point of sale: {name, starts_at=null, ends_at=null, active=true, registered_at=now})', () => {
    it('PUT creates with the defaults; instants with an offset are stored as ms and shown in UTC with Z', async () => {
      await seed(t);
      const created = await asOperator(t, 'PUT', `${ACCOUNT}/places/p1/events/e2`, {
        name: 'São João',
        starts_at: '2026-06-24T18:00:00-03:00',
        ends_at: '2026-06-25T02:30:15.750Z',
      });
      expect(created.statusCode).toBe(201);
      expect(json(created)).toEqual({
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

    it('name_folded: NFD, combining marks removed, lower-cased (DECISIONS, event search)', async () => {
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
      expect(json(replaced)).toMatchObject({ active: false, registered_at: '2026-11-20T12:00:00Z' });
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

    it('instants without offset, impossible dates, ends_at before starts_at: 422 naming the field', async () => {
      await seed(t);
      const url = `${ACCOUNT}/places/p1/events/e3`;
      for (const starts of [
        '2026-06-24T18:00:00',
        '2026-06-24',
        '2026-02-30T10:00:00Z',
        '2026-06-24T24:00:00Z',
        '2026-06-24 18:00:00Z',
        '2026-06-24T18:00:00+0300',
        1_782_345_600_000,
      ]) {
        const body = expectInvalid(
          await asOperator(t, 'PUT', url, { name: 'E', starts_at: starts }),
          'body.starts_at',
        );
        expect(String(body.detail)).toContain('offset');
      }
      expectInvalid(
        await asOperator(t, 'PUT', url, {
          name: 'E',
          starts_at: '2026-06-24T18:00:00Z',
          ends_at: '2026-06-24T17:59:59Z',
        }),
        'body.ends_at',
      );
      expectInvalid(
        await asOperator(t, 'PUT', url, { name: 'E', registered_at: 'now' }),
        'body.registered_at',
      );
      expectInvalid(await asOperator(t, 'PUT', url, {}), 'body.name');
      expect(
        (await asOperator(t, 'PUT', url, { name: 'E', starts_at: '2028-02-29T00:00:00Z' })).statusCode,
      ).toBe(201);
    });

    it('DELETE answers 204, then 404; unknown account or place: 404', async () => {
      await seed(t);
      const deleted = await asOperator(t, 'DELETE', `${ACCOUNT}/places/p1/events/e1`);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      expectProblem(await asOperator(t, 'DELETE', `${ACCOUNT}/places/p1/events/e1`), 404, 'not_found');
      expectProblem(await asOperator(t, 'DELETE', `${ACCOUNT}/places/p2/events/e9`), 404, 'not_found');
      expect(JSON.parse((await t.admin('GET', `${ACCOUNT}/places/p1/events`)).body)).toEqual([]);
      for (const url of [
        `${POS}/accounts/nobody/places/p1/events/e1`,
        `${ACCOUNT}/places/p9/events/e1`,
        `${POS}/accounts/other/places/p1/events/e1`,
      ]) {
        expectProblem(await asOperator(t, 'PUT', url, { name: 'E' }), 404, 'not_found');
        expectProblem(await asOperator(t, 'DELETE', url), 404, 'not_found');
      }
      expectProblem(await asOperator(t, 'GET', `${ACCOUNT}/places/p9/events`), 404, 'not_found');
    });
  });

  describe('receipts (admin-api.md, Point of sale: POST accounts/{account}/receipts, upsert by id)', () => {
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
      expect(json(response)).toEqual({ inserted: 7, updated: 0, unchanged: 0 });
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
      expect(json(await postReceipts(t, batch))).toEqual({ inserted: 3, updated: 0, unchanged: 0 });
      t.clock.advance(5000);
      // The same values written differently (defaults spelt out, another offset, "12.5") are equal.
      const same = [
        receipt('r1', { occurred_at: '2026-11-21T00:30:00Z', amount: '12.5', status: 'paid', demo: false }),
        receipt('r2', { brand: null, event: null }),
        receipt('r3'),
      ];
      expect(json(await postReceipts(t, same))).toEqual({ inserted: 0, updated: 0, unchanged: 3 });
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
        expect(json(response), JSON.stringify(change)).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
        expect(json(await postReceipts(t, [receipt('r3')]))).toEqual({
          inserted: 0,
          updated: 1,
          unchanged: 0,
        });
      }
    });

    it('receipts: a late receipt replaces the stored one; a sale cancelled afterwards stops counting (counted 0)', async () => {
      await seed(t);
      const sent = await postReceipts(t, [receipt('r1'), receipt('r2', { amount: '7.25' })]);
      expect(json(sent)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      const first = await stored(t, 'r1');
      expect(first.counted).toBe(true);
      t.clock.advance(3 * 86_400_000);
      const late = await postReceipts(t, [receipt('r1', { status: 'cancelled' })]);
      expect(json(late)).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
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
        const body = expectInvalid(await postReceipts(t, [receipt('z', { amount })]), 'receipts[0].amount');
        expect(String(body.detail)).toContain('money text');
      }
      expect(
        String(
          expectInvalid(await postReceipts(t, [receipt('z', { amount: 0.1 })]), 'receipts[0].amount').detail,
        ),
      ).toContain('JSON number');
      expect(await receiptCount(t)).toBe(4);
    });

    it('receipts: kind is a required key that may be null; status, occurred_at, payment_method, brand checked', async () => {
      await seed(t);
      const { kind: _kind, ...withoutKind } = receipt('r1');
      expectInvalid(await postReceipts(t, [withoutKind]), 'receipts[0].kind');
      expectInvalid(await postReceipts(t, [receipt('r1', { kind: 'gift' })]), 'receipts[0].kind');
      expectInvalid(await postReceipts(t, [receipt('r1', { status: 'refunded' })]), 'receipts[0].status');
      expectInvalid(await postReceipts(t, [receipt('r1', { demo: 'no' })]), 'receipts[0].demo');
      const noOffset = expectInvalid(
        await postReceipts(t, [receipt('r1', { occurred_at: '2026-11-20T21:30:00' })]),
        'receipts[0].occurred_at',
      );
      expect(String(noOffset.detail)).toContain('offset');
      expectInvalid(
        await postReceipts(t, [receipt('r1', { payment_method: '' })]),
        'receipts[0].payment_method',
      );
      expectInvalid(
        await postReceipts(t, [receipt('r1', { payment_method: 'x'.repeat(65) })]),
        'receipts[0].payment_method',
      );
      expectInvalid(await postReceipts(t, [receipt('r1', { brand: 'B'.repeat(201) })]), 'receipts[0].brand');
      expectInvalid(await postReceipts(t, [receipt('r1', { brand: 'A\u0000B' })]), 'receipts[0].brand');
      const unknownField = expectProblem(
        await postReceipts(t, [receipt('r1', { total: '1.00' })]),
        422,
        'validation_failed',
      );
      expect(String(unknownField.detail)).toContain('total');
      expectInvalid(await postReceipts(t, ['r1']), 'receipts[0]');
      expect(await receiptCount(t)).toBe(0);

      const accepted = await postReceipts(t, [
        receipt('r1', { kind: null, payment_method: 'crypto_wallet', brand: 'B'.repeat(200) }),
        receipt('r2', { payment_method: 'x'.repeat(64), brand: '' }),
      ]);
      expect(json(accepted)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      // An unknown payment method code is stored as given (reported as `other` by the public API).
      expect(await stored(t, 'r1')).toMatchObject({
        kind: null,
        paymentMethod: 'crypto_wallet',
        counted: false,
      });
    });

    it('receipts: the place must belong to the account and the event to that place (422 naming the receipt)', async () => {
      await seed(t);
      const otherAccount = expectInvalid(
        await postReceipts(t, [receipt('r1'), receipt('r2', { place: 'x1' })]),
        'receipts[1].place',
      );
      expect(String(otherAccount.detail)).toContain('x1');
      expectInvalid(await postReceipts(t, [receipt('r1', { place: 'p9' })]), 'receipts[0].place');
      expectInvalid(
        await postReceipts(t, [receipt('r1', { place: 'p2', event: 'e1' })]),
        'receipts[0].event',
      );
      expectInvalid(await postReceipts(t, [receipt('r1', { event: 'e9' })]), 'receipts[0].event');
      expect(await receiptCount(t)).toBe(0);
      expect(json(await postReceipts(t, [receipt('r1', { event: 'e1' })]))).toEqual({
        inserted: 1,
        updated: 0,
        unchanged: 0,
      });
    });

    it('receipts: a bad receipt rejects the whole call with its index, nothing stored (admin-api.md, Point of sale)', async () => {
      await seed(t);
      await postReceipts(t, [receipt('old', { amount: '1.00' })]);
      const batch = Array.from({ length: 1500 }, (_, i) => receipt(`n${i}`));
      batch[0] = receipt('old', { amount: '2.00' });
      batch[1234] = receipt('n1234', { amount: 12.5 });
      const body = expectInvalid(await postReceipts(t, batch), 'receipts[1234].amount');
      expect(body.index).toBe(1234);
      expect(String(body.detail)).toContain('0-based');
      expect(await receiptCount(t)).toBe(1);
      expect((await stored(t, 'old')).amountCents).toBe(100);

      // The first bad receipt is named, whatever its reason: a foreign place before a bad amount.
      batch[1234] = receipt('n1234');
      batch[10] = receipt('n10', { place: 'x1' });
      batch[1400] = receipt('n1400', { amount: 'abc' });
      expectInvalid(await postReceipts(t, batch), 'receipts[10].place');
      expect(await receiptCount(t)).toBe(1);
    });

    it('receipts: at most 10,000 per JSON call (more: 422 pointing to NDJSON); the body must hold receipts', async () => {
      await seed(t);
      const tooMany = Array.from({ length: 10_001 }, (_, i) => receipt(`r${i}`));
      const body = expectInvalid(await postReceipts(t, tooMany), 'body.receipts');
      expect(String(body.detail)).toContain('NDJSON');
      expectInvalid(await asOperator(t, 'POST', RECEIPTS, {}), 'body.receipts');
      expectInvalid(await asOperator(t, 'POST', RECEIPTS, { receipts: {} }), 'body.receipts');
      expect(json(await postReceipts(t, []))).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
      expect(await receiptCount(t)).toBe(0);
      const exactly = await postReceipts(t, tooMany.slice(0, 10_000));
      expect(json(exactly)).toEqual({ inserted: 10_000, updated: 0, unchanged: 0 });
    });

    it('receipts: the same id twice in one call, the later one wins; counted as if sent one after another', async () => {
      await seed(t);
      const response = await postReceipts(t, [
        receipt('r1', { amount: '1.00' }),
        receipt('r1', { amount: '2.00' }),
        receipt('r2'),
        receipt('r2'),
      ]);
      expect(json(response)).toEqual({ inserted: 2, updated: 1, unchanged: 1 });
      expect((await stored(t, 'r1')).amountCents).toBe(200);
      expect(await receiptCount(t)).toBe(2);
    });

    it('receipts: unknown account: 404 not_found, nothing stored (JSON and NDJSON)', async () => {
      await seed(t);
      expectProblem(
        await asOperator(t, 'POST', `${POS}/accounts/nobody/receipts`, { receipts: [receipt('r1')] }),
        404,
        'not_found',
      );
      expectProblem(
        await postNdjson(t, `${JSON.stringify(receipt('r1'))}\n`, `${POS}/accounts/nobody/receipts`),
        404,
        'not_found',
      );
      expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/no-body/receipts`, { receipts: [] }),
        'path.account',
      );
      expect(await receiptCount(t)).toBe(0);
    });
  });

  describe('receipts as NDJSON (admin-api.md, Point of sale: application/x-ndjson of any length)', () => {
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
      expect(json(response)).toEqual({ inserted: 25_000, updated: 0, unchanged: 0 });
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
      expect(json(again)).toEqual({ inserted: 0, updated: 5_000, unchanged: 20_000 });
      expect((await stored(t, 'r20001')).counted).toBe(false);
    });

    it('blank lines are skipped, CRLF accepted; an empty body stores nothing', async () => {
      await seed(t);
      const body = `\n${JSON.stringify(receipt('r1'))}\r\n   \n\n${JSON.stringify(receipt('r2'))}`;
      expect(json(await postNdjson(t, body))).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      expect(json(await postNdjson(t, ''))).toEqual({ inserted: 0, updated: 0, unchanged: 0 });
      const withCharset = await t.app.admin.inject({
        method: 'POST',
        url: RECEIPTS,
        headers: {
          authorization: `Bearer ${ADMIN_TOKEN}`,
          'content-type': 'application/x-ndjson; charset=utf-8',
        },
        payload: JSON.stringify(receipt('r3')),
      });
      expect(json(withCharset)).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    });

    it('a bad line rejects the whole call with its 1-based line number (blank lines counted), nothing stored', async () => {
      await seed(t);
      const lines = ndjson(22_000, (n) =>
        n === 21_500
          ? JSON.stringify(receipt(`r${n}`, { occurred_at: '2026-11-20 21:30' }))
          : JSON.stringify(receipt(`r${n}`)),
      );
      const body = expectInvalid(await postNdjson(t, lines), 'line[21500].occurred_at');
      expect(body.line).toBe(21_500);
      expect(String(body.detail)).toContain('1-based');
      expect(await receiptCount(t)).toBe(0);

      const blankFirst = `\n\n${JSON.stringify(receipt('r1'))}\n{"id": "r2",\n`;
      const notJson = expectInvalid(await postNdjson(t, blankFirst), 'line[4]');
      expect(String(notJson.detail)).toContain('not valid JSON');
      expectInvalid(
        await postNdjson(t, `${JSON.stringify(receipt('r1', { place: 'x1' }))}\n`),
        'line[1].place',
      );
      expectInvalid(await postNdjson(t, `[1,2]\n`), 'line[1]');
      expectInvalid(await postNdjson(t, `${'x'.repeat(70_000)}\n`), 'line[1]');
      expect(await receiptCount(t)).toBe(0);
    });
  });

  describe('support token (admin-api.md intro: support may only list and revoke keys)', () => {
    it('support gets 403 forbidden on these writes and reads, and nothing changes', async () => {
      await seed(t);
      const refused: [InjectOptions['method'], string, unknown?][] = [
        ['PUT', `${POS}/accounts/nova`, { name: 'Nova' }],
        ['PUT', `${ACCOUNT}/places/p3`, { timezone: 'UTC' }],
        ['PUT', `${ACCOUNT}/places/p1/events/e5`, { name: 'E' }],
        ['DELETE', `${ACCOUNT}/places/p1/events/e1`],
        ['POST', RECEIPTS, { receipts: [receipt('r1')] }],
        ['GET', `${POS}/accounts`],
        ['GET', ACCOUNT],
        ['GET', `${ACCOUNT}/places`],
        ['GET', `${ACCOUNT}/places/p1/events`],
      ];
      for (const [method, url, body] of refused) {
        expectProblem(await adminAs(t, SUPPORT_TOKEN, method, url, body), 403, 'forbidden');
      }
      const ndjsonCall = await t.app.admin.inject({
        method: 'POST',
        url: RECEIPTS,
        headers: { authorization: `Bearer ${SUPPORT_TOKEN}`, 'content-type': 'application/x-ndjson' },
        payload: JSON.stringify(receipt('r1')),
      });
      expectProblem(ndjsonCall, 403, 'forbidden');
      expectProblem(await adminAs(t, undefined, 'GET', `${POS}/accounts`), 401, 'unauthorized');
      expect(await receiptCount(t)).toBe(0);
      expect((JSON.parse((await t.admin('GET', `${POS}/accounts`)).body) as Body[]).map((a) => a.id)).toEqual(
        ['acme', 'other'],
      );
      expect(JSON.parse((await t.admin('GET', `${ACCOUNT}/places/p1/events`)).body)).toHaveLength(1);
    });
  });
});
