import type { AdminClient, TestApp } from '../helper.js';

// The account most POS suites start from, written through the admin API as the operator would.

/** A sales query over P1's receipts of 2026-11-19 (UTC-03:00). */
export const SALES_URL =
  '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00';

export const ACCOUNTS = '/admin/v1/pos/accounts';

/** An account `acme` with places P1 and P2, two events and three receipts of P1, and one key. */
export async function seedPos(t: AdminClient, permissions = ['event.view', 'sale-by-payment-method.view']) {
  await t.admin('PUT', `${ACCOUNTS}/acme`, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
  await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
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
  const created = await t.admin('POST', `${ACCOUNTS}/acme/keys`, { name: 'ERP', permissions });
  return JSON.parse(created.body) as { id: string; key: string };
}

/** A GET to the public listener with the key. */
export const getWithKey = (t: TestApp, key: string, url: string) =>
  t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
