import { expect, it } from 'vitest';
import { PAYMENT_METHODS } from '../../src/pos/receipts/payment-methods.js';
import { DEMO_ACCOUNT, posIsEmpty, seedPosDemo } from '../../src/pos/demo.js';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from '../../src/pos/receipts/receipt-rules.js';
import { describeEachDialect, useTestApp } from '../helper.js';

// The point-of-sale demo of a first start (issue: three places in different time zones, events,
// receipts covering every method, kind and status, a key that works on every route).

describeEachDialect('POS demo data', (dialect) => {
  const t = useTestApp(dialect);

  it('creates the demo merchant with varied receipts and a working key', async () => {
    expect(await posIsEmpty(t.db)).toBe(true);
    const { key } = await seedPosDemo(t.services, { receipts: 3000 });
    expect(await posIsEmpty(t.db)).toBe(false);

    const places = await t.db.selectFrom('pos_places').select(['id', 'timezone']).execute();
    expect(new Set(places.map((p) => p.timezone)).size).toBe(3);
    const receipts = await t.db
      .selectFrom('pos_receipts')
      .select(['payment_method', 'kind', 'status', 'brand', 'event_id'])
      .where('account_id', '=', DEMO_ACCOUNT)
      .execute();
    expect(receipts).toHaveLength(3000);
    for (const method of PAYMENT_METHODS)
      expect(receipts.some((r) => r.payment_method === method.code)).toBe(true);
    for (const kind of [...RECEIPT_KINDS, null]) expect(receipts.some((r) => r.kind === kind)).toBe(true);
    for (const status of RECEIPT_STATUSES) expect(receipts.some((r) => r.status === status)).toBe(true);
    expect(receipts.some((r) => r.brand === 'MASTER  CARD')).toBe(true);
    expect(receipts.some((r) => r.event_id !== null)).toBe(true);

    for (const url of ['/v1/api-public/ping', '/v1/api-public/places', '/v1/api-public/events?place=REC01']) {
      const response = await t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
  });
});
