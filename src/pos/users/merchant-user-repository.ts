import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MerchantUserTable } from '../../db/schema.js';

// Storage of merchant users (migration 0007) that is theirs alone: finding a user and storing a password
// are src/identity/user-accounts.ts's, their one-time links src/identity/one-time-link.ts's.

export type MerchantUserRecord = Selectable<MerchantUserTable>;

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

/** Queues a password-reset request for `email` (a user's address or not). */
export async function queueResetRequest(db: Db, email: string, now: number): Promise<void> {
  await db.insertInto('password_reset_requests').values({ email, requested_at: now }).execute();
}

/** The oldest `limit` queued reset requests. */
export function oldestResetRequests(db: Db, limit: number): Promise<{ seq: number; email: string }[]> {
  return db
    .selectFrom('password_reset_requests')
    .select(['seq', 'email'])
    .orderBy('seq')
    .limit(limit)
    .execute();
}

/** Takes the request `seq` off the queue; false when another sender took it first. */
export async function takeResetRequest(db: Db, seq: number): Promise<boolean> {
  const result = await db.deleteFrom('password_reset_requests').where('seq', '=', seq).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
