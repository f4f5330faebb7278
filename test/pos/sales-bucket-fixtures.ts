import type { Db } from '../../src/db/database.js';
import type { AdminClient } from '../helper.js';

// What the tests of the bucket check and of its command start from: two accounts written through the
// admin API (so their buckets are kept by the write path), and three faults made by hand in acme's.

const POS = '/admin/v1/pos/accounts';
export const HOUR = 3_600_000;

/** acme: R1 (cash 12.50, event e1) and R2 (tef_credit, no brand, 5.00) an hour later; other: R9. */
export async function seedBucketAccounts(t: AdminClient): Promise<void> {
  for (const account of ['acme', 'other']) {
    await t.admin('PUT', `${POS}/${account}`, { name: account });
    await t.admin('PUT', `${POS}/${account}/places/p1`, { timezone: 'America/Sao_Paulo' });
    await t.admin('PUT', `${POS}/${account}/places/p1/events/e1`, { name: 'São João' });
  }
  const receipt = (id: string, fields: Record<string, unknown>) => ({
    id,
    place: 'p1',
    payment_method: 'cash',
    amount: '12.50',
    kind: 'sale',
    ...fields,
  });
  await t.admin('POST', `${POS}/acme/receipts`, {
    receipts: [
      receipt('R1', { event: 'e1', occurred_at: '2026-11-20T18:37:12-03:00' }),
      receipt('R2', {
        occurred_at: '2026-11-20T19:37:12-03:00',
        payment_method: 'tef_credit',
        amount: '5.00',
      }),
    ],
  });
  await t.admin('POST', `${POS}/other/receipts`, {
    receipts: [receipt('R9', { occurred_at: '2026-11-20T18:37:12-03:00' })],
  });
}

/** R1's hour (UTC). */
export const R1_HOUR = Date.parse('2026-11-20T21:00:00Z');

/** Changes one stored bucket of acme, deletes another and adds one the receipts do not make. */
export async function tamperBuckets(t: { db: Db }): Promise<void> {
  await t.db
    .updateTable('pos_sales_buckets')
    .set({ receipts: 2, amount_cents: 9999 })
    .where('account_id', '=', 'acme')
    .where('event_id', '=', '')
    .where('slot_ms', '=', HOUR)
    .where('payment_method', '=', 'cash')
    .execute();
  await t.db
    .deleteFrom('pos_sales_buckets')
    .where('account_id', '=', 'acme')
    .where('event_id', '=', 'e1')
    .where('slot_ms', '=', HOUR)
    .execute();
  await t.db
    .insertInto('pos_sales_buckets')
    .values({
      account_id: 'acme',
      place_id: 'p2',
      event_id: '',
      slot_ms: HOUR,
      slot_start: 0,
      payment_method: 'pix',
      branded: 0,
      brand: '',
      receipts: 1,
      amount_cents: 100,
    })
    .execute();
}
