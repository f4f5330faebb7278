import { expect, it } from 'vitest';
import { expectProblem } from '../expect-http.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { expectInvalidParam } from '../admin/fixtures.js';
import { createKey, seedAccounts } from '../admin/pos-keys-admin-fixtures.js';
import { HD, POS } from './key-audit-fixtures.js';

// Readings of the key audit trail that are refused (docs/back-office.md, Audit trail and last use): 404 for a system,
// account or key that does not exist, 422 naming the query parameter to fix.

describeEachDialect('key audit trail, refusals', (dialect) => {
  const t = useTestApp(dialect);

  it('404 for an unknown system, account or key', async () => {
    await seedAccounts(t);
    for (const url of [
      `${HD}/systems/nobody/audit`,
      `${POS}/accounts/nobody/audit`,
      `${POS}/accounts/acme/keys/K1/audit`,
    ]) {
      expectProblem(await t.adminRaw({ method: 'GET', url }), 404, 'not_found');
    }
  });

  it('a key of another account is not found under this one', async () => {
    await seedAccounts(t);
    const created = await createKey(t, { name: 'x' }, 'other');
    const url = `${POS}/accounts/acme/keys/${String(created.id)}/audit`;
    expectProblem(await t.adminRaw({ method: 'GET', url }), 404, 'not_found');
  });

  it('422 naming the parameter: cursor, event, from, limit, kind', async () => {
    for (const [query, param] of [
      ['cursor=abc', 'query.cursor'],
      ['cursor=1.2.3', 'query.cursor'],
      ['event=rotated,exploded', 'query.event.1'],
      ['from=yesterday', 'query.from'],
      ['limit=0', 'query.limit'],
      ['limit=201', 'query.limit'],
      ['kind=both', 'query.kind'],
      ['key=K1', 'query'],
    ] as const) {
      const response = await t.adminRaw({ method: 'GET', url: `/admin/v1/audit/keys?${query}` });
      expect(response.statusCode, query).toBe(422);
      expectInvalidParam(response, param);
    }
  });
});
