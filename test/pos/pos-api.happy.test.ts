import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The point-of-sale data API end to end through the real app (pos-data-api.md, Endpoints).

const P = '/admin/v1/pos/accounts';

async function seed(t: TestApp, permissions = ['event.view', 'sale-by-payment-method.view']) {
  await t.admin('PUT', `${P}/acme`, { name: 'Acme Bares' });
  await t.admin('PUT', `${P}/acme/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${P}/acme/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${P}/acme/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${P}/acme/places/P1/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
  await t.admin('POST', `${P}/acme/receipts`, {
    receipts: [
      {
        id: 'R1',
        place: 'P1',
        occurred_at: '2026-11-19T10:00:00-03:00',
        payment_method: 'tef_credit',
        brand: 'VISA',
        amount: '10.00',
        kind: 'sale',
      },
      {
        id: 'R2',
        place: 'P1',
        occurred_at: '2026-11-19T11:00:00-03:00',
        payment_method: 'cash',
        amount: '30.00',
        kind: 'sale',
      },
      {
        id: 'R3',
        place: 'P1',
        occurred_at: '2026-11-19T12:00:00-03:00',
        payment_method: 'cash',
        amount: '5.00',
        kind: 'sale',
        status: 'cancelled',
      },
    ],
  });
  const created = await t.admin('POST', `${P}/acme/keys`, { name: 'ERP', permissions });
  return JSON.parse(created.body) as { id: string; key: string };
}

const get = (t: TestApp, key: string, url: string) =>
  t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });

describeEachDialect('POS API, happy paths', (dialect) => {
  const t = useTestApp(dialect);

  it('ping: who the key belongs to, with rate headers (GET ping)', async () => {
    const { id, key } = await seed(t);
    const response = await get(t, key, '/v1/api-public/ping');
    expect(response.statusCode, response.body).toBe(200);
    const body = JSON.parse(response.body);
    expect(body.credential.id).toBe(id);
    expect(body.account).toEqual({ id: 'acme', name: 'Acme Bares' });
    expect(body.api_version).toBe('v1');
    expect(response.headers['x-ratelimit-limit']).toBe('60');
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('places, events and sales answer from the stored data (Endpoints)', async () => {
    const { key } = await seed(t);
    const places = JSON.parse((await get(t, key, '/v1/api-public/places')).body);
    expect(places.all).toBe(true);
    expect(places.data.map((p: { id: string }) => p.id).sort()).toEqual(['P1', 'P2']);

    const events = await get(t, key, '/v1/api-public/events?place=P1&search=sao');
    expect(events.statusCode, events.body).toBe(200);
    expect(JSON.parse(events.body).data.map((e: { id: string }) => e.id)).toEqual(['E1']);

    const sales = await get(
      t,
      key,
      '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
    );
    expect(sales.statusCode, sales.body).toBe(200);
    const body = JSON.parse(sales.body);
    expect(body.total).toEqual({ count: 2, amount: '40.00' });
    expect(body.data.map((d: { payment_method: string }) => d.payment_method)).toEqual([
      'cash',
      'tef_credit',
    ]);
    expect(sales.headers['x-ratelimit-limit']).toBe('10');
  });
});
