import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/lib/api-key.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { asSupport, POS } from './fixtures.js';
import {
  createKey,
  keyOf,
  outcome,
  refused,
  rotate,
  seedAccounts,
  snapshot,
} from './pos-keys-admin-fixtures.js';

// Who may see and stop merchants' API keys (docs/admin-rules.md, intro and Point of sale; docs/pos-api.md,
// States and transitions): support may list and revoke, nothing else; no token gets 401; listings never
// show a key or its hash; a deactivated owner account stops its keys.

type Body = Record<string, unknown>;

describeEachDialect('admin API, merchants’ API keys: tokens and roles', (dialect) => {
  const t = useTestApp(dialect);

  describe('create: 201 {id, key, expires_at}, the key shown once', () => {
    it('listings show metadata and state, never the key text or its hashes', async () => {
      await seedAccounts(t);
      const created = await createKey(t, {
        name: 'BI',
        permissions: ['event.view', 'sale-by-payment-method.view', 'event.view'],
        places: ['P2', 'P1', 'P2'],
      });
      const rotated = await rotate(t, created.id);
      for (const url of [`${POS}/accounts/acme/keys`, `${POS}/keys`]) {
        const body = (await t.admin('GET', url)).body;
        for (const secret of [created.key, rotated.key]) {
          expect(body).not.toContain(String(secret));
          expect(body).not.toContain(hashApiKey(String(secret)));
        }
        expect(body).not.toMatch(/hash/);
      }
      expect(await keyOf(t, created.id)).toMatchObject({
        permissions: ['event.view', 'sale-by-payment-method.view'],
        places: ['P2', 'P1'],
      });
    });
  });

  describe('pause, reactivate, revoke', () => {
    it('a deactivated owner account: 401 without reason, not counted', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      await t.db.updateTable('pos_accounts').set({ active: 0 }).where('id', '=', 'acme').execute();
      expect(await outcome(t, created.key)).toEqual(refused(null));
      expect(await outcome(t, `gtpk_${'A'.repeat(43)}`)).toEqual(refused(null, true));
      expect(await outcome(t, 'not a key')).toEqual(refused(null, true));
    });
  });

  describe('support may list and revoke keys, nothing else', () => {
    it('support lists one account’s keys, all keys, and revokes', async () => {
      await seedAccounts(t);
      const mine = await createKey(t);
      const theirs = await createKey(t, { name: 'Other ERP' }, 'other');
      const one = await asSupport(t, 'GET', `${POS}/accounts/acme/keys`);
      expect(one.statusCode).toBe(200);
      expect((JSON.parse(one.body) as Body[]).map((key) => key.id)).toEqual([mine.id]);
      const all = await asSupport(t, 'GET', `${POS}/keys`);
      expect(all.statusCode).toBe(200);
      expect((JSON.parse(all.body) as Body[]).map((key) => [key.account, key.id])).toEqual([
        ['acme', mine.id],
        ['other', theirs.id],
      ]);
      const filtered = await asSupport(t, 'GET', `${POS}/keys?account=other`);
      expect((JSON.parse(filtered.body) as Body[]).map((key) => key.id)).toEqual([theirs.id]);
      const revoked = await asSupport(t, 'POST', `${POS}/accounts/acme/keys/${String(mine.id)}/revoke`);
      expect(revoked.statusCode).toBe(200);
      expect(bodyOf(revoked).state).toBe('revoked');
      expect(await outcome(t, mine.key)).toEqual(refused('revoked'));
    });

    it('support gets 403 on create, edit, rotate, pause and reactivate, and nothing changes', async () => {
      await seedAccounts(t);
      const created = await createKey(t);
      const url = `${POS}/accounts/acme/keys/${String(created.id)}`;
      const before = await snapshot(t);
      for (const [method, path, body] of [
        ['POST', `${POS}/accounts/acme/keys`, { name: 'x' }],
        ['PATCH', url, { name: 'x' }],
        ['POST', `${url}/rotate`, undefined],
        ['POST', `${url}/pause`, undefined],
        ['POST', `${url}/reactivate`, undefined],
      ] as const) {
        expectProblem(await asSupport(t, method, path, body), 403, 'forbidden');
      }
      expect(await snapshot(t)).toEqual(before);
    });

    it('without a token: 401', async () => {
      const response = await t.app.admin.inject({ method: 'GET', url: `${POS}/keys` });
      expectProblem(response, 401, 'unauthorized');
    });
  });
});
