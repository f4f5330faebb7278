import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { MerchantUserTable } from '../db/schema.js';

// Storage of merchant users and their one-time links (migration 0007).

export type MerchantUserRecord = Selectable<MerchantUserTable>;

/** The user with this (lower-cased) address, if any. */
export function findUserByEmail(db: Db, email: string): Promise<MerchantUserRecord | undefined> {
  return db.selectFrom('merchant_users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findUser(db: Db, id: string): Promise<MerchantUserRecord | undefined> {
  return db.selectFrom('merchant_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listUsers(db: Db, accountId: string): Promise<MerchantUserRecord[]> {
  return db
    .selectFrom('merchant_users')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('email')
    .execute();
}

export async function insertUser(db: Db, row: MerchantUserRecord): Promise<void> {
  await db.insertInto('merchant_users').values(row).execute();
}

export async function setPasswordHash(db: Db, id: string, hash: string, now: number): Promise<void> {
  await db
    .updateTable('merchant_users')
    .set({ password_hash: hash, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Stores a link; earlier unused links of the same purpose stop working (only the newest e-mail counts). */
export async function insertLink(
  db: Db,
  link: { token_hash: string; user_id: string; purpose: string; expires_at: number; created_at: number },
): Promise<void> {
  await db
    .updateTable('merchant_user_links')
    .set({ used_at: link.created_at })
    .where('user_id', '=', link.user_id)
    .where('purpose', '=', link.purpose)
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto('merchant_user_links')
    .values({ ...link, used_at: null })
    .execute();
}

export function findLink(db: Db, tokenHash: string) {
  return db
    .selectFrom('merchant_user_links')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Marks a link used; false when it was used meanwhile (two tabs submitting at once). */
export async function useLink(db: Db, tokenHash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('merchant_user_links')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
