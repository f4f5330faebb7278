import { expect, it } from 'vitest';
import { expectApiProblem, expectProblem } from '../expect-http.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp } from '../helper.js';
import { OPTIONS_URL, seedHelpdesk } from '../helpdesk/fixtures.js';
import { seedPos } from '../pos/fixtures.js';

// Two Authorization headers present no credential: Node keeps only the first, so the key the client
// meant is ambiguous. Each API answers as for a call without a key (its 401), whatever the headers hold,
// and the key's balance is not spent.

/** Repeated Authorization headers: the inject library sends each value of an array as its own header. */
function authorizations(...values: string[]): Record<string, string> {
  return { authorization: values } as unknown as Record<string, string>;
}

describeEachDialect('two Authorization headers', (dialect) => {
  const t = useTestApp(dialect);

  it('ticket API: 401 unauthorized even when both carry the valid key (Authentication)', async () => {
    const keys = await seedHelpdesk(t);
    const one = await t.call({ url: OPTIONS_URL, headers: { authorization: `Bearer ${keys.alpha}` } });
    expect(one.statusCode).toBe(200);
    const two = await t.call({
      url: OPTIONS_URL,
      headers: authorizations(`Bearer ${keys.alpha}`, `Bearer ${keys.alpha}`),
    });
    expectApiProblem(two, 401, 'unauthorized');
    expect(two.headers['www-authenticate']).toBe('Bearer');
    expect(two.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  it('POS API: 401 invalid_token without reason, the key not spent (Authentication)', async () => {
    const { key } = await seedPos(t);
    const two = await t.call({
      url: '/v1/api-public/ping',
      headers: authorizations(`Bearer ${key}`, 'Bearer other'),
    });
    expectApiProblem(two, 401, 'invalid_token');
    expect(JSON.parse(two.body)).not.toHaveProperty('reason');
    const one = await t.call({ url: '/v1/api-public/ping', headers: { authorization: `Bearer ${key}` } });
    expect(one.statusCode).toBe(200);
    expect(one.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('admin API: 401 even with the operator token twice', async () => {
    const two = await t.app.admin.inject({
      method: 'GET',
      url: '/admin/v1/pos/accounts',
      headers: authorizations(`Bearer ${ADMIN_TOKEN}`, `Bearer ${ADMIN_TOKEN}`),
    });
    expectProblem(two, 401, 'unauthorized');
  });
});
