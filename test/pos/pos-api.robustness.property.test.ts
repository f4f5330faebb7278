import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { publicRequest } from '../request.js';

// Robustness of the point-of-sale data API (docs/pos-api.md): whatever arrives under the prefix — any
// path, method, query text or headers, with or without a key — the answer is never a 5xx but the planned
// routes' documented 501, is JSON (or empty for HEAD), carries X-Request-Id, and a key never sees data of
// a place it does not reach or of another account.

const P = '/admin/v1/pos/accounts';
const PREFIX = '/v1/api-public/';

async function seed(t: TestApp): Promise<{ narrow: string; other: string }> {
  for (const account of ['acme', 'rival']) {
    await t.admin('PUT', `${P}/${account}`, { name: account });
    for (const place of ['P1', 'P2']) {
      await t.admin('PUT', `${P}/${account}/places/${place}`, { timezone: 'America/Sao_Paulo' });
      await t.admin('PUT', `${P}/${account}/places/${place}/events/E1`, { name: `${account} ${place}` });
      await t.admin('POST', `${P}/${account}/receipts`, {
        receipts: [
          {
            id: `R${place}`,
            place,
            event: 'E1',
            occurred_at: '2026-11-19T10:00:00Z',
            payment_method: 'cash',
            amount: '10.00',
            kind: 'sale',
          },
        ],
      });
    }
  }
  const key = async (account: string, places: string[] | 'all') =>
    (
      JSON.parse(
        (
          await t.admin('POST', `${P}/${account}/keys`, {
            name: 'k',
            permissions: ['event.view', 'sale-by-payment-method.view'],
            places,
          })
        ).body,
      ) as { key: string }
    ).key;
  return { narrow: await key('acme', ['P1']), other: await key('rival', 'all') };
}

const routeArb = fc.constantFrom(
  'ping',
  'places',
  'events',
  'sales/by-payment-method',
  'sales/summary',
  'orders',
  'orders/x1',
  'products',
  'events/',
  'Ping',
  'docs',
  '',
  '%zz',
);
const paramArb = fc.tuple(
  fc.constantFrom(
    'place',
    'event',
    'from',
    'to',
    'search',
    'limit',
    'cursor',
    'place[]',
    'x',
    'created_from',
  ),
  fc.oneof(
    fc.constantFrom(
      'P1',
      'P2',
      'E1',
      'P1,P2',
      '2026-11-19T00:00:00Z',
      '2026-11-20T00:00:00%2B01:00',
      '2026-11-19',
      '50',
      '0',
      '%ff',
      '',
    ),
    fc.string({ maxLength: 20 }).map(encodeURIComponent),
  ),
);

describeEachDialect('POS API robustness', (dialect) => {
  const t = useTestApp(dialect);

  it('no request gets a 5xx (but 501), every answer is JSON with X-Request-Id, and no key sees what it does not reach', async () => {
    const keys = await seed(t);
    await fc.assert(
      fc.asyncProperty(
        routeArb,
        fc.array(paramArb, { maxLength: 5 }),
        fc.constantFrom('GET', 'GET', 'GET', 'POST', 'HEAD', 'OPTIONS'),
        fc.constantFrom(keys.narrow, keys.other, undefined, 'gtpk_x'),
        fc.option(fc.constantFrom('text/plain', 'application/json', 'Application/JSON'), { nil: undefined }),
        async (route, params, method, key, contentType) => {
          t.clock.advance(61_000); // a fresh minute for every call: limits are tested elsewhere
          const query = params.map(([name, value]) => `${name}=${value}`).join('&');
          const response = await publicRequest(t, {
            method,
            url: `${PREFIX}${route}${query === '' ? '' : `?${query}`}`,
            key,
            type: contentType,
            ...(contentType === undefined || method === 'HEAD' ? {} : { payload: 'x' }),
          });
          expect(response.statusCode === 501 || response.statusCode < 500, response.body).toBe(true);
          expect(response.headers['x-request-id']).toBeDefined();
          if (method !== 'HEAD') expect(() => JSON.parse(response.body) as unknown).not.toThrow();
          if (response.statusCode === 200) {
            // The narrow key reaches only acme's P1; the other key only rival's places.
            const text = response.body;
            if (key === keys.narrow) expect(text).not.toMatch(/rival|"P2"/);
            if (key === keys.other) expect(text).not.toMatch(/acme/);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
