import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { getWithKey as get, SALES_URL, seedPos as seed } from './fixtures.js';

// The point-of-sale data API end to end through the real app (docs/pos-api.md, Endpoints).

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

    const sales = await get(t, key, SALES_URL);
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
