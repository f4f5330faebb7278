import { expect } from 'vitest';
import { createMerchantKeyService } from '../../src/pos/keys/merchant-key-service.js';
import { bodyOf } from '../expect-http.js';
import type { TestApp } from '../helper.js';
import { asOperator, POS } from './fixtures.js';

// The merchants' keys back-office suites' accounts, calls and key outcomes (docs/admin-rules.md, Point of
// sale; docs/pos-api.md, States and transitions). What a presented key is worth is checked through the key
// service's `verify`, the look-up the public API uses.

type Body = Record<string, unknown>;

export const KEY_SHAPE = /^gtpk_[A-Za-z0-9_-]{43}$/;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** Two accounts with places, written directly (the account routes belong to another module). */
export async function seedAccounts(t: TestApp): Promise<void> {
  const now = t.clock.now();
  await t.db
    .insertInto('pos_accounts')
    .values([
      { id: 'acme', name: 'Acme', currency: 'BRL', active: 1, created_at: now, updated_at: now },
      { id: 'other', name: 'Other', currency: 'BRL', active: 1, created_at: now, updated_at: now },
    ])
    .execute();
  await t.db
    .insertInto('pos_places')
    .values([
      {
        account_id: 'acme',
        id: 'P1',
        name: 'Loja 1',
        timezone: 'America/Sao_Paulo',
        active: 1,
        created_at: now,
        updated_at: now,
      },
      {
        account_id: 'acme',
        id: 'P2',
        name: 'Loja 2',
        timezone: 'America/Sao_Paulo',
        active: 1,
        created_at: now,
        updated_at: now,
      },
      {
        account_id: 'other',
        id: 'X1',
        name: null,
        timezone: 'America/Sao_Paulo',
        active: null,
        created_at: now,
        updated_at: now,
      },
    ])
    .execute();
}

/** Creates a key (201 expected) and returns {id, key, expires_at}. */
export async function createKey(t: TestApp, body: Body = { name: 'ERP' }, account = 'acme'): Promise<Body> {
  const response = await asOperator(t, 'POST', `${POS}/accounts/${account}/keys`, body);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf(response);
}

/** The account's keys as the operator lists them. */
export async function listKeys(t: TestApp, account = 'acme'): Promise<Body[]> {
  return JSON.parse((await t.admin('GET', `${POS}/accounts/${account}/keys`)).body) as Body[];
}

/** One key of the account's listing (fails when absent). */
export async function keyOf(t: TestApp, id: unknown, account = 'acme'): Promise<Body> {
  const found = (await listKeys(t, account)).find((key) => key.id === id);
  expect(found).toBeDefined();
  return found!;
}

/** Rotates a key of `acme` (201 expected). */
export async function rotate(t: TestApp, id: unknown, body?: Body): Promise<Body> {
  const response = await asOperator(t, 'POST', `${POS}/accounts/acme/keys/${String(id)}/rotate`, body);
  expect(response.statusCode, response.body).toBe(201);
  return bodyOf(response);
}

/** Pauses, reactivates or revokes a key of `acme`. */
export async function act(t: TestApp, id: unknown, action: 'pause' | 'reactivate' | 'revoke'): Promise<Body> {
  return bodyOf(await t.admin('POST', `${POS}/accounts/acme/keys/${String(id)}/${action}`));
}

/** What a presented key is worth now, as the public API will see it. */
export async function outcome(t: TestApp, key: unknown, graceSeconds = 86400) {
  const service = createMerchantKeyService({ db: t.db, clock: t.clock, rotationGraceSeconds: graceSeconds });
  return (await service.verify(String(key))).outcome;
}

/** The outcome of a key that works and is not the previous key of a rotation. */
export const WORKS = { ok: true, superseded: false, supersededUntil: null };
/** The outcome of a refused key. */
export const refused = (reason: string | null, countsTowardIpBlock = false) => ({
  ok: false,
  reason,
  countsTowardIpBlock,
});

/** Everything stored of the keys, to show that a refused call changed nothing. */
export const snapshot = (t: TestApp) => t.db.selectFrom('pos_keys').selectAll().orderBy('id').execute();
