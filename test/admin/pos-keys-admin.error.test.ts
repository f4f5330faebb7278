import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { asOperator, expectInvalid, POS } from './fixtures.js';
import {
  act,
  createKey,
  DAY,
  keyOf,
  listKeys,
  outcome,
  refused,
  seedAccounts,
  snapshot,
  WORKS,
} from './pos-keys-admin-fixtures.js';

// Merchants' API keys in the back office refusing what it must (docs/admin-rules.md, Point of sale): 422
// naming the field, 404 for a key or account that does not exist, 409 for the limit of 20 active keys and for
// a revoked or expired key; a refusal changes nothing.

type Body = Record<string, unknown>;

describeEachDialect('admin API, merchants’ API keys: refusals', (dialect) => {
  const t = useTestApp(dialect);

  describe('validity: expires_on, ends 23:59:59 of that date in UTC-03:00', () => {
    it('today is allowed; a date in the past is refused (422)', async () => {
      await seedAccounts(t);
      expect((await createKey(t, { name: 'a', expires_on: '2026-11-20' })).expires_at).toBe(
        '2026-11-21T02:59:59Z',
      );
      expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: '2026-11-19' }),
        'expires_on',
      );
    });

    it('at most 24 months: 2028-11-20 accepted, 2028-11-21 refused (422)', async () => {
      await seedAccounts(t);
      expect((await createKey(t, { name: 'a', expires_on: '2028-11-20' })).expires_at).toBe(
        '2028-11-21T02:59:59Z',
      );
      const refusedBody = expectInvalid(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: '2028-11-21' }),
        'expires_on',
      );
      expect(String(refusedBody.detail)).toContain('24 months');
    });

    it('not a real date, or not YYYY-MM-DD: 422', async () => {
      await seedAccounts(t);
      for (const expiresOn of [
        '2027-02-30',
        '2027-13-01',
        '27-01-01',
        '2027-1-1',
        '2027-01-01T00:00:00Z',
        20270101,
      ]) {
        expectInvalid(
          await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x', expires_on: expiresOn }),
          'expires_on',
        );
      }
      expect(await listKeys(t)).toEqual([]);
    });
  });

  describe('at most 20 active keys per account', () => {
    it('the 21st key gets 409 conflict with a clear detail, and nothing is written', async () => {
      await seedAccounts(t);
      for (let i = 0; i < 20; i++) await createKey(t, { name: `k${i}` });
      const before = await snapshot(t);
      const response = await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'one too many' });
      const body = expectProblem(response, 409, 'conflict');
      expect(String(body.detail)).toContain('20 active keys');
      expect(await snapshot(t)).toEqual(before);
      // The limit is per account.
      await createKey(t, { name: 'elsewhere' }, 'other');
    });

    it('a paused key counts; a revoked or expired key does not', async () => {
      await seedAccounts(t);
      const ids: unknown[] = [];
      for (let i = 0; i < 20; i++) ids.push((await createKey(t, { name: `k${i}` })).id);
      await act(t, ids[0], 'pause');
      expectProblem(await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x' }), 409, 'conflict');
      await act(t, ids[1], 'revoke');
      await createKey(t, { name: 'after revoke' });
      await t.admin('PATCH', `${POS}/accounts/acme/keys/${String(ids[2])}`, {
        expires_at: '2026-11-01T00:00:00Z',
      });
      await createKey(t, { name: 'after expiry' });
      expectProblem(await asOperator(t, 'POST', `${POS}/accounts/acme/keys`, { name: 'x' }), 409, 'conflict');
    });

    it('extending an expired key while 20 others are active: 409, validity unchanged', async () => {
      await seedAccounts(t);
      const old = await createKey(t, { name: 'old', expires_on: '2026-11-20' });
      t.clock.advance(DAY);
      for (let i = 0; i < 20; i++) await createKey(t, { name: `k${i}` });
      const url = `${POS}/accounts/acme/keys/${String(old.id)}`;
      expectProblem(await asOperator(t, 'PATCH', url, { expires_on: '2027-01-01' }), 409, 'conflict');
      expect(await keyOf(t, old.id)).toMatchObject({ state: 'expired', expires_at: '2026-11-21T02:59:59Z' });
      // An edit that leaves it expired is fine.
      expect(bodyOf(await t.admin('PATCH', url, { name: 'renamed' }))).toMatchObject({
        name: 'renamed',
        state: 'expired',
      });
    });
  });

  describe('rotation and its grace period', () => {
    it('rotating an expired key: 409, nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t, { name: 'a', expires_on: '2026-11-20' });
      t.clock.advance(DAY);
      const before = await snapshot(t);
      expectProblem(
        await asOperator(t, 'POST', `${POS}/accounts/acme/keys/${String(created.id)}/rotate`),
        409,
        'conflict',
      );
      expect(await snapshot(t)).toEqual(before);
    });
  });

  describe('pause, reactivate, revoke', () => {
    it('reactivate, pause, rotate or edit a revoked key: 409, nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await act(t, created.id, 'revoke');
      const before = await snapshot(t);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      for (const [method, path, body] of [
        ['POST', `${url}/reactivate`, undefined],
        ['POST', `${url}/pause`, undefined],
        ['POST', `${url}/rotate`, undefined],
        ['PATCH', url, { name: 'back' }],
        ['PATCH', url, { expires_on: '2027-06-01' }],
      ] as const) {
        const body409 = expectProblem(await asOperator(t, method, path, body), 409, 'conflict');
        expect(String(body409.detail)).toContain('revoked');
      }
      expect(await snapshot(t)).toEqual(before);
      expect(await outcome(t, created.key)).toEqual(refused('revoked'));
    });
  });

  describe('bad input: 422, 404, 409 say what to fix and change nothing', () => {
    it('422 on the body names the field', async () => {
      await seedAccounts(t);
      const existing = await createKey(t);
      const before = await snapshot(t);
      const create = `${POS}/accounts/acme/keys`;
      const cases: [Body | undefined, string][] = [
        [undefined, 'body'],
        [{}, 'name'],
        [{ name: '   ' }, 'name'],
        [{ name: 'x'.repeat(201) }, 'name'],
        [{ name: 'a\u0000b' }, 'name'],
        [{ name: 'x', permissions: ['sale.view'] }, 'permissions.0'],
        [{ name: 'x', permissions: 'event.view' }, 'permissions'],
        [{ name: 'x', places: 'some' }, 'places'],
        [{ name: 'x', places: ['P-1'] }, 'places'],
        [{ name: 'x', places: ['P1', 'X1'] }, 'places.1'],
        [{ name: 'x', places: ['NOPE'] }, 'places.0'],
        [{ name: 'x', unknown: 1 }, 'body'],
        [{ name: 'x', expires_at: '2027-01-01T00:00:00Z' }, 'body'],
      ];
      for (const [body, field] of cases) {
        expectInvalid(await asOperator(t, 'POST', create, body), field);
      }
      const url = `${POS}/accounts/acme/keys/${String(existing.id)}`;
      expectInvalid(await asOperator(t, 'PATCH', url, { name: '' }), 'name');
      expectInvalid(await asOperator(t, 'PATCH', url, { places: ['X1'] }), 'places.0');
      expectInvalid(await asOperator(t, 'PATCH', url, { id: 'x' }), 'body');
      expectInvalid(
        await asOperator(t, 'POST', `${url}/rotate`, { invalidate_current: 'yes' }),
        'invalidate_current',
      );
      expectInvalid(await asOperator(t, 'GET', `${POS}/keys?account=a-b`), 'account');
      expectInvalid(await asOperator(t, 'GET', `${POS}/keys?state=active`), 'query');
      expect(await snapshot(t)).toEqual(before);
      expect(await outcome(t, existing.key)).toEqual(WORKS);
    });

    it('422 on identifiers in the path', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      expectInvalid(await asOperator(t, 'POST', `${POS}/accounts/a-b/keys`, { name: 'x' }), 'account');
      expectInvalid(await asOperator(t, 'GET', `${POS}/accounts/${'a'.repeat(65)}/keys`), 'account');
      expectInvalid(await asOperator(t, 'POST', `${POS}/accounts/acme/keys/a_b/pause`), 'id');
      expect(await keyOf(t, created.id)).toMatchObject({ state: 'active' });
    });

    it('404 for an unknown account, an unknown key, or a key of another account', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const before = await snapshot(t);
      expectProblem(
        await asOperator(t, 'POST', `${POS}/accounts/nobody/keys`, { name: 'x' }),
        404,
        'not_found',
      );
      expectProblem(await asOperator(t, 'GET', `${POS}/accounts/nobody/keys`), 404, 'not_found');
      const id = String(created.id);
      for (const [method, url, body] of [
        ['PATCH', `${POS}/accounts/acme/keys/nokey`, { name: 'x' }],
        ['POST', `${POS}/accounts/acme/keys/nokey/rotate`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/pause`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/revoke`, undefined],
        ['POST', `${POS}/accounts/other/keys/${id}/rotate`, undefined],
        ['PATCH', `${POS}/accounts/other/keys/${id}`, { name: 'x' }],
      ] as const) {
        expectProblem(await asOperator(t, method, url, body), 404, 'not_found');
      }
      expect(await snapshot(t)).toEqual(before);
    });
  });
});
