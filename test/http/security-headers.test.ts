import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, adminAs, ADMIN_TOKEN } from '../helper.js';
import { OPTIONS_URL, postTicket, seedHelpdesk, ticket, UNKNOWN_KEY } from '../helpdesk/fixtures.js';
import { getWithKey, seedPos, SALES_URL } from '../pos/fixtures.js';

// Every answer of both listeners is private and typed: `Cache-Control: no-store` (no proxy or browser
// keeps a ticket, a sales figure or a newly issued key) and `X-Content-Type-Options: nosniff`.

function expectPrivate(response: { headers: Record<string, unknown>; statusCode: number }, what: string) {
  expect(response.headers['cache-control'], what).toBe('no-store');
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
}

describeEachDialect('security headers on every answer', (dialect) => {
  const t = useTestApp(dialect);

  it('public listener: successes, refusals, not-found pages and the POS API all carry no-store and nosniff', async () => {
    const keys = await seedHelpdesk(t);
    const { key } = await seedPos(t);
    const answers = {
      'ticket 201': await postTicket(t, keys.alpha, ticket()),
      'ticket 401': await postTicket(t, UNKNOWN_KEY, ticket()),
      'options 200': await t.call({ url: OPTIONS_URL, headers: { authorization: `Bearer ${keys.alpha}` } }),
      'POS sales 200': await getWithKey(t, key, SALES_URL),
      'POS 404 problem': await t.call({ url: '/v1/api-public/nowhere' }),
      'HTML 404 page': await t.call({ url: '/nothing-here' }),
    };
    expect(Object.values(answers).map((response) => response.statusCode)).toEqual([
      201, 401, 200, 200, 404, 404,
    ]);
    for (const [what, response] of Object.entries(answers)) expectPrivate(response, what);
  });

  it('admin listener: the answer that shows a newly issued key once is never stored, nor any other', async () => {
    await seedPos(t);
    const created = await adminAs(t, ADMIN_TOKEN, 'POST', '/admin/v1/pos/accounts/acme/keys', {
      name: 'Caixa',
    });
    expect(created.statusCode).toBe(201);
    expect(JSON.parse(created.body)).toHaveProperty('key');
    expectPrivate(created, 'key created');
    expectPrivate(await adminAs(t, undefined, 'GET', '/admin/v1/pos/keys'), 'admin 401');
    expectPrivate(await adminAs(t, ADMIN_TOKEN, 'GET', '/admin/v1/nowhere'), 'admin 404');
    expectPrivate(await t.app.admin.inject({ url: '/healthz' }), 'healthz');
  });
});
