import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PosAccountTable } from '../../db/schema.js';
import { upsertRow } from '../../db/upsert.js';

/** A merchant's account: the owner of places, events, receipts and keys. */
export interface PosAccount {
  id: string;
  name: string;
  /** ISO 4217 code of the account's money. */
  currency: string;
  active: boolean;
  /** Where the merchant's e-mail goes (a key created, rotated or widened); null: none is sent. */
  email: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What the operator writes with PUT. */
export interface AccountSettings {
  name: string;
  currency: string;
  active: boolean;
  email: string | null;
}

function toAccount(row: Selectable<PosAccountTable>): PosAccount {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    active: row.active === 1,
    email: row.email,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function findAccount(db: Db, id: string): Promise<PosAccount | undefined> {
  const row = await db.selectFrom('pos_accounts').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toAccount(row);
}

export async function listAccounts(db: Db): Promise<PosAccount[]> {
  const rows = await db.selectFrom('pos_accounts').selectAll().orderBy('id').execute();
  return rows.map(toAccount);
}

/**
 * Creates or replaces an account (its creation instant is kept), in one atomic upsert. Returns true when
 * it was created.
 */
export async function putAccount(
  db: Db,
  id: string,
  settings: AccountSettings,
  now: number,
): Promise<boolean> {
  const values = {
    name: settings.name,
    currency: settings.currency,
    active: settings.active ? 1 : 0,
    email: settings.email,
    updated_at: now,
  };
  return upsertRow(db, 'pos_accounts', ['id'], { id, ...values, created_at: now }, values);
}
