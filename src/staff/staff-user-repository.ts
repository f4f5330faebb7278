import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { StaffUserTable } from '../db/schema.js';

// Storage of the operator's staff users (migration 0008) that is theirs alone: finding a user and storing
// a password are src/identity/user-accounts.ts's, their one-time links src/identity/one-time-link.ts's
// (over `staff_user_links`).

export type StaffUserRecord = Selectable<StaffUserTable>;

/** Every staff user, disabled ones too, by address. */
export function listStaffUsers(db: Db): Promise<StaffUserRecord[]> {
  return db.selectFrom('staff_users').selectAll().orderBy('email').execute();
}

/** How many staff users there are, disabled ones too. */
export async function countStaffUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('staff_users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** How many operators can sign in: a password set, not disabled. */
export async function countActiveOperators(db: Db): Promise<number> {
  const row = await db
    .selectFrom('staff_users')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('role', '=', 'operator')
    .where('password_hash', 'is not', null)
    .where('disabled_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertStaffUser(db: Db, row: StaffUserRecord): Promise<void> {
  await db.insertInto('staff_users').values(row).execute();
}

/** Marks a staff user disabled; false when they were already. */
export async function disableStaffUser(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('staff_users')
    .set({ disabled_at: now, updated_at: now })
    .where('id', '=', id)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Holds every other writer of staff users off until `trx` ends, so that a check of the table and the
 * insert that follows it are one step (two first operators at once: the second finds the first). Must
 * be the transaction's first statement. PostgreSQL: a table lock that conflicts with itself and with
 * inserts. SQLite: a write that changes nothing takes the database's one write lock before anything is
 * read (another process waits for it, up to busy_timeout).
 */
export async function lockStaffUsers(trx: Db): Promise<void> {
  if (isPostgres(trx)) {
    await sql`lock table ${sql.table('staff_users')} in share row exclusive mode`.execute(trx);
  } else {
    await trx
      .updateTable('staff_users')
      .set({ updated_at: 0 })
      .where(sql<boolean>`0 = 1`)
      .execute();
  }
}
