import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { asOperator, expectInvalidParam, POS } from './fixtures.js';
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

// The point-of-sale data half of the back office refusing bad input (docs/admin-rules.md: intro, Point of
// sale): identifiers, time zones, instants, money and receipts that name what to fix (the receipt's index,
// the NDJSON line), 404 for what does not exist, and nothing stored.

describeEachDialect('admin API, point of sale data: refusals', (dialect) => {
  const t = useTestApp(dialect);

  describe('accounts (docs/admin-rules.md, Point of sale: PUT accounts/{id} {name, currency="BRL", active=true})', () => {
    it('currency must be 3 uppercase letters; name required; unknown fields refused: 422, nothing stored', async () => {
      for (const currency of ['brl', 'BR', 'BRLX', 'R$', 986]) {
        expectInvalidParam(await asOperator(t, 'PUT', ACCOUNT, { name: 'Acme', currency }), 'body.currency');
      }
      expectInvalidParam(await asOperator(t, 'PUT', ACCOUNT, { currency: 'BRL' }), 'body.name');
      expectInvalidParam(await asOperator(t, 'PUT', ACCOUNT, { name: '   ' }), 'body.name');
      expectInvalidParam(await asOperator(t, 'PUT', ACCOUNT, { name: 'A', active: 'yes' }), 'body.active');
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

  describe('identifiers (docs/admin-rules.md intro: ^[A-Za-z0-9]{1,64}$ for accounts, places, events, receipts)', () => {
    it('an account, place or event id of another shape: 422 naming the path parameter', async () => {
      await seed(t);
      for (const bad of ['a-b', 'a_b', 'ação', 'x'.repeat(65), 'a.b', 'a%20b']) {
        expectInvalidParam(await asOperator(t, 'PUT', `${POS}/accounts/${bad}`, { name: 'X' }), 'path.id');
        expectInvalidParam(
          await asOperator(t, 'PUT', `${ACCOUNT}/places/${bad}`, { timezone: 'UTC' }),
          'path.id',
        );
        expectInvalidParam(
          await asOperator(t, 'PUT', `${ACCOUNT}/places/p1/events/${bad}`, { name: 'E' }),
          'path.id',
        );
        expectInvalidParam(await asOperator(t, 'GET', `${POS}/accounts/${bad}/places`), 'path.account');
        expectInvalidParam(await asOperator(t, 'GET', `${ACCOUNT}/places/${bad}/events`), 'path.place');
      }
      // 64 letters and digits are accepted.
      const longest = `${'a'.repeat(32)}${'Z9'.repeat(16)}`;
      expect((await asOperator(t, 'PUT', `${POS}/accounts/${longest}`, { name: 'Longa' })).statusCode).toBe(
        201,
      );
    });

    it('a receipt id, place or event of another shape: 422 with receipts[i].field', async () => {
      await seed(t);
      expectInvalidParam(await postReceipts(t, [receipt('r-1')]), 'receipts[0].id');
      expectInvalidParam(await postReceipts(t, [receipt('r1'), receipt('x'.repeat(65))]), 'receipts[1].id');
      expectInvalidParam(await postReceipts(t, [receipt('r1', { place: 'p 1' })]), 'receipts[0].place');
      expectInvalidParam(await postReceipts(t, [receipt('r1', { event: 'e_1' })]), 'receipts[0].event');
      expect(await receiptCount(t)).toBe(0);
    });
  });

  describe('places (docs/admin-rules.md, Point of sale: {name=null, timezone, active=null}, IANA zone checked)', () => {
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
        expect(bodyOf(response).timezone).toBe(zone);
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
        const body = expectInvalidParam(
          await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { timezone: zone }),
          'body.timezone',
        );
        expect(String(body.detail)).toContain('IANA');
      }
      expectInvalidParam(
        await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { name: 'Sem zona' }),
        'body.timezone',
      );
      expectInvalidParam(
        await asOperator(t, 'PUT', `${ACCOUNT}/places/p2`, { timezone: 180 }),
        'body.timezone',
      );
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

  describe('events (docs/admin-rules.md, Point of sale: {name, starts_at=null, ends_at=null, active=true, registered_at=now})', () => {
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
        const body = expectInvalidParam(
          await asOperator(t, 'PUT', url, { name: 'E', starts_at: starts }),
          'body.starts_at',
        );
        expect(String(body.detail)).toContain('offset');
      }
      expectInvalidParam(
        await asOperator(t, 'PUT', url, {
          name: 'E',
          starts_at: '2026-06-24T18:00:00Z',
          ends_at: '2026-06-24T17:59:59Z',
        }),
        'body.ends_at',
      );
      expectInvalidParam(
        await asOperator(t, 'PUT', url, { name: 'E', registered_at: 'now' }),
        'body.registered_at',
      );
      expectInvalidParam(await asOperator(t, 'PUT', url, {}), 'body.name');
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

  describe('receipts (docs/admin-rules.md, Point of sale: POST accounts/{account}/receipts, upsert by id)', () => {
    it('receipts: kind is a required key that may be null; status, occurred_at, payment_method, brand checked', async () => {
      await seed(t);
      const { kind: _kind, ...withoutKind } = receipt('r1');
      expectInvalidParam(await postReceipts(t, [withoutKind]), 'receipts[0].kind');
      expectInvalidParam(await postReceipts(t, [receipt('r1', { kind: 'gift' })]), 'receipts[0].kind');
      expectInvalidParam(
        await postReceipts(t, [receipt('r1', { status: 'refunded' })]),
        'receipts[0].status',
      );
      expectInvalidParam(await postReceipts(t, [receipt('r1', { demo: 'no' })]), 'receipts[0].demo');
      const noOffset = expectInvalidParam(
        await postReceipts(t, [receipt('r1', { occurred_at: '2026-11-20T21:30:00' })]),
        'receipts[0].occurred_at',
      );
      expect(String(noOffset.detail)).toContain('offset');
      expectInvalidParam(
        await postReceipts(t, [receipt('r1', { payment_method: '' })]),
        'receipts[0].payment_method',
      );
      expectInvalidParam(
        await postReceipts(t, [receipt('r1', { payment_method: 'x'.repeat(65) })]),
        'receipts[0].payment_method',
      );
      expectInvalidParam(
        await postReceipts(t, [receipt('r1', { brand: 'B'.repeat(201) })]),
        'receipts[0].brand',
      );
      expectInvalidParam(await postReceipts(t, [receipt('r1', { brand: 'A\u0000B' })]), 'receipts[0].brand');
      const unknownField = expectProblem(
        await postReceipts(t, [receipt('r1', { total: '1.00' })]),
        422,
        'validation_failed',
      );
      expect(String(unknownField.detail)).toContain('total');
      expectInvalidParam(await postReceipts(t, ['r1']), 'receipts[0]');
      expect(await receiptCount(t)).toBe(0);

      const accepted = await postReceipts(t, [
        receipt('r1', { kind: null, payment_method: 'crypto_wallet', brand: 'B'.repeat(200) }),
        receipt('r2', { payment_method: 'x'.repeat(64), brand: '' }),
      ]);
      expect(bodyOf(accepted)).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
      // An unknown payment method code is stored as given (reported as `other` by the public API).
      expect(await stored(t, 'r1')).toMatchObject({
        kind: null,
        paymentMethod: 'crypto_wallet',
        counted: false,
      });
    });

    it('receipts: the place must belong to the account and the event to that place (422 naming the receipt)', async () => {
      await seed(t);
      const otherAccount = expectInvalidParam(
        await postReceipts(t, [receipt('r1'), receipt('r2', { place: 'x1' })]),
        'receipts[1].place',
      );
      expect(String(otherAccount.detail)).toContain('x1');
      expectInvalidParam(await postReceipts(t, [receipt('r1', { place: 'p9' })]), 'receipts[0].place');
      expectInvalidParam(
        await postReceipts(t, [receipt('r1', { place: 'p2', event: 'e1' })]),
        'receipts[0].event',
      );
      expectInvalidParam(await postReceipts(t, [receipt('r1', { event: 'e9' })]), 'receipts[0].event');
      expect(await receiptCount(t)).toBe(0);
      expect(bodyOf(await postReceipts(t, [receipt('r1', { event: 'e1' })]))).toEqual({
        inserted: 1,
        updated: 0,
        unchanged: 0,
      });
    });

    it('receipts: a bad receipt rejects the whole call with its index, nothing stored; the first bad receipt by position is named, whatever its reason (docs/admin-rules.md, Point of sale)', async () => {
      await seed(t);
      await postReceipts(t, [receipt('old', { amount: '1.00' })]);
      const batch = Array.from({ length: 1500 }, (_, i) => receipt(`n${i}`));
      batch[0] = receipt('old', { amount: '2.00' });
      batch[1234] = receipt('n1234', { amount: 12.5 });
      const body = expectInvalidParam(await postReceipts(t, batch), 'receipts[1234].amount');
      expect(body.index).toBe(1234);
      expect(String(body.detail)).toContain('0-based');
      expect(await receiptCount(t)).toBe(1);
      expect((await stored(t, 'old')).amountCents).toBe(100);

      // The first bad receipt is named, whatever its reason: a foreign place before a bad amount.
      batch[1234] = receipt('n1234');
      batch[10] = receipt('n10', { place: 'x1' });
      batch[1400] = receipt('n1400', { amount: 'abc' });
      expectInvalidParam(await postReceipts(t, batch), 'receipts[10].place');
      expect(await receiptCount(t)).toBe(1);
      // Close together, whichever comes first is named: a place is checked with its neighbours, so a
      // foreign place still waiting for that check when a later receipt fails its fields comes first.
      batch[10] = receipt('n10');
      batch[1400] = receipt('n1400');
      batch[1240] = receipt('n1240', { place: 'x1' });
      batch[1245] = receipt('n1245', { amount: 'abc' });
      expectInvalidParam(await postReceipts(t, batch), 'receipts[1240].place');
      batch[1240] = receipt('n1240', { amount: 'abc' });
      batch[1245] = receipt('n1245', { place: 'x1' });
      expectInvalidParam(await postReceipts(t, batch), 'receipts[1240].amount');
      expect(await receiptCount(t)).toBe(1);
    });

    it('receipts: at most 10,000 per JSON call (more: 422 pointing to NDJSON); the body must hold receipts', async () => {
      await seed(t);
      const tooMany = Array.from({ length: 10_001 }, (_, i) => receipt(`r${i}`));
      const body = expectInvalidParam(await postReceipts(t, tooMany), 'body.receipts');
      expect(String(body.detail)).toContain('NDJSON');
      expectInvalidParam(await asOperator(t, 'POST', RECEIPTS, {}), 'body.receipts');
      expectInvalidParam(await asOperator(t, 'POST', RECEIPTS, { receipts: {} }), 'body.receipts');
      expect(await receiptCount(t)).toBe(0);
      const exactly = await postReceipts(t, tooMany.slice(0, 10_000));
      expect(bodyOf(exactly)).toEqual({ inserted: 10_000, updated: 0, unchanged: 0 });
    });

    it('receipts: an upload with no receipts (an empty list, an empty body, only blank lines) is 422 no_receipts, nothing changed', async () => {
      await seed(t);
      await postReceipts(t, [receipt('r1')]);
      const refusals = [
        await postReceipts(t, []),
        await postNdjson(t, ''),
        await postNdjson(t, '\n\r\n   \n'),
        await postNdjson(t, '\uFEFF'),
      ];
      for (const refused of refusals) {
        const body = expectProblem(refused, 422, 'no_receipts');
        expect(String(body.detail)).toMatch(/no receipts.*nothing was stored/);
      }
      expect(await receiptCount(t)).toBe(1);
      // The account is checked first: an empty upload to an unknown account is its 404.
      expectProblem(await postNdjson(t, '', `${POS}/accounts/nobody/receipts`), 404, 'not_found');
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
      expectInvalidParam(
        await asOperator(t, 'POST', `${POS}/accounts/no-body/receipts`, { receipts: [] }),
        'path.account',
      );
      expect(await receiptCount(t)).toBe(0);
    });
  });

  describe('receipts as NDJSON (docs/admin-rules.md, Point of sale: application/x-ndjson of any length)', () => {
    it('a bad line rejects the whole call with its 1-based line number (blank lines counted), nothing stored', async () => {
      await seed(t);
      const lines = ndjson(22_000, (n) =>
        n === 21_500
          ? JSON.stringify(receipt(`r${n}`, { occurred_at: '2026-11-20 21:30' }))
          : JSON.stringify(receipt(`r${n}`)),
      );
      const body = expectInvalidParam(await postNdjson(t, lines), 'line[21500].occurred_at');
      expect(body.line).toBe(21_500);
      expect(String(body.detail)).toContain('1-based');
      expect(await receiptCount(t)).toBe(0);

      const blankFirst = `\n\n${JSON.stringify(receipt('r1'))}\n{"id": "r2",\n`;
      const notJson = expectInvalidParam(await postNdjson(t, blankFirst), 'line[4]');
      expect(String(notJson.detail)).toContain('not valid JSON');
      expectInvalidParam(
        await postNdjson(t, `${JSON.stringify(receipt('r1', { place: 'x1' }))}\n`),
        'line[1].place',
      );
      expectInvalidParam(await postNdjson(t, `[1,2]\n`), 'line[1]');
      expectInvalidParam(await postNdjson(t, `${'x'.repeat(70_000)}\n`), 'line[1]');
      expect(await receiptCount(t)).toBe(0);
    });
  });
});
