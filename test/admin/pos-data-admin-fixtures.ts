import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { findReceipt } from '../../src/pos/receipts/receipt-repository.js';
import { ADMIN_TOKEN, type TestApp } from '../helper.js';
import { asOperator, POS } from './fixtures.js';

// The point-of-sale data back-office suites' accounts, receipts and calls (docs/admin-rules.md, Point of
// sale).

export const ACCOUNT = `${POS}/accounts/acme`;
export const RECEIPTS = `${ACCOUNT}/receipts`;

/** A valid receipt of place `p1`; fields overridable. */
export function receipt(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    place: 'p1',
    occurred_at: '2026-11-20T21:30:00-03:00',
    payment_method: 'tef_credit',
    brand: 'VISA',
    amount: '12.50',
    kind: 'sale',
    ...overrides,
  };
}

/** Account `acme` with places `p1`, `p2` (event `e1` in `p1`), and account `other` with place `x1`. */
export async function seed(t: TestApp): Promise<void> {
  await t.admin('PUT', ACCOUNT, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACCOUNT}/places/p1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACCOUNT}/places/p2`, { timezone: 'America/Manaus' });
  await t.admin('PUT', `${ACCOUNT}/places/p1/events/e1`, { name: 'Festa Junina' });
  await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra' });
  await t.admin('PUT', `${POS}/accounts/other/places/x1`, { timezone: 'UTC' });
}

/** POSTs receipts of `acme` as JSON with the operator's token; any status. */
export async function postReceipts(t: TestApp, receipts: unknown[]): Promise<LightMyRequestResponse> {
  return asOperator(t, 'POST', RECEIPTS, { receipts });
}

/** How many receipts are stored, of every account. */
export async function receiptCount(t: TestApp): Promise<number> {
  const row = await t.db
    .selectFrom('pos_receipts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The stored receipt, as the repository reads it; throws when absent. */
export async function stored(t: TestApp, id: string, account = 'acme') {
  const found = await findReceipt(t.db, account, id);
  if (found === undefined) throw new Error(`receipt ${id} not stored`);
  return found;
}

/** NDJSON lines produced lazily, a few hundred per chunk: the body is never built in memory. */
export function ndjson(total: number, line: (n: number) => string): Readable {
  return Readable.from(
    (function* () {
      const perChunk = 250;
      for (let start = 1; start <= total; start += perChunk) {
        let chunk = '';
        for (let n = start; n < start + perChunk && n <= total; n += 1) chunk += `${line(n)}\n`;
        yield chunk;
      }
    })(),
  );
}

/** POSTs an NDJSON body (text or stream) with the operator's token; any status. */
export function postNdjson(t: TestApp, payload: Readable | string, url = RECEIPTS) {
  return t.app.admin.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload,
  });
}
