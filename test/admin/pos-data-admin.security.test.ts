import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { adminAs, describeEachDialect, SUPPORT_TOKEN, useTestApp } from '../helper.js';
import { expectProblem } from '../expect-http.js';
import { POS } from './fixtures.js';
import { ACCOUNT, receipt, receiptCount, RECEIPTS, seed } from './pos-data-admin-fixtures.js';

// Who may use the point-of-sale data half of the back office (docs/admin-rules.md, intro): support may only
// list and revoke keys, so it gets 403 here; no token gets 401.

type Body = Record<string, unknown>;

describeEachDialect('admin API, point of sale data: tokens and roles', (dialect) => {
  const t = useTestApp(dialect);

  describe('support token (docs/admin-rules.md intro: support may only list and revoke keys)', () => {
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
