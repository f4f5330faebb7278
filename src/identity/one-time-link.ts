import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';

// The one-time links of the web faces' users (merchant users: issue 13; staff users: issue 14): a
// random token in a link's query, of which only the SHA-256 is stored, good once and until it expires,
// where the user sets a password. Both link tables have the same columns; each service names its own.

/** What a link is for: a first password (`invitation`), or a new one (`reset`). */
export type LinkPurpose = 'invitation' | 'reset';

/** Why a link is worth nothing now: never issued (or its user disabled), past its end, or used. */
type LinkRefusal = 'unknown' | 'expired' | 'used';

/** What a one-time link is worth now, with the user it is for (as the face shows them). */
export type LinkOutcome<U> = { ok: true; user: U; purpose: LinkPurpose } | { ok: false; reason: LinkRefusal };

/** The tables of one-time links. */
export type LinkTable = 'merchant_user_links' | 'staff_user_links';

/** The columns of a user row a link's check reads. */
export interface LinkUserRow {
  id: string;
  disabled_at: number | null;
}

/** The stored form of a token: SHA-256, base64url. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/**
 * Stores a new link of `userId` and returns its token (32 random bytes, base64url), which is stored
 * nowhere. The user's earlier unused links of the `supersedes` purposes stop working (are marked used):
 * only the newest link counts.
 */
export async function issueLink(
  db: Db,
  table: LinkTable,
  link: {
    userId: string;
    purpose: LinkPurpose;
    expiresAt: number;
    now: number;
    supersedes: readonly LinkPurpose[];
  },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // The two tables have the same columns: typed as one of them.
  const links = table as 'merchant_user_links';
  await db
    .updateTable(links)
    .set({ used_at: link.now })
    .where('user_id', '=', link.userId)
    .where('purpose', 'in', [...link.supersedes])
    .where('used_at', 'is', null)
    .execute();
  await db
    .insertInto(links)
    .values({
      token_hash: linkTokenHash(token),
      user_id: link.userId,
      purpose: link.purpose,
      expires_at: link.expiresAt,
      used_at: null,
      created_at: link.now,
    })
    .execute();
  return token;
}

/**
 * What the link of `token` is worth at `now`: refused (unknown, expired, used; a disabled user's link is
 * unknown), or good, with its user's row as `findUser` reads it.
 */
export async function checkLink<R extends LinkUserRow>(
  db: Db,
  table: LinkTable,
  token: string,
  now: number,
  findUser: (id: string) => Promise<R | undefined>,
): Promise<LinkOutcome<R>> {
  const link = await db
    .selectFrom(table as 'merchant_user_links')
    .select(['user_id', 'purpose', 'expires_at', 'used_at'])
    .where('token_hash', '=', linkTokenHash(token))
    .executeTakeFirst();
  if (link === undefined) return { ok: false, reason: 'unknown' };
  if (link.used_at !== null) return { ok: false, reason: 'used' };
  if (link.expires_at <= now) return { ok: false, reason: 'expired' };
  const user = await findUser(link.user_id);
  if (user?.disabled_at !== null) return { ok: false, reason: 'unknown' };
  return { ok: true, user, purpose: link.purpose === 'reset' ? 'reset' : 'invitation' };
}

/**
 * Ends every outstanding link of `userId` (marks it used): called with each password change, so that a
 * link e-mailed or handed over before it (a reset someone else may hold) is worth nothing after.
 */
export async function endUserLinks(db: Db, table: LinkTable, userId: string, now: number): Promise<void> {
  await db
    .updateTable(table as 'merchant_user_links')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Marks the link of `token` used; false when it was used meanwhile (two tabs submitting at once). */
async function useLink(db: Db, table: LinkTable, token: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable(table as 'merchant_user_links')
    .set({ used_at: now })
    .where('token_hash', '=', linkTokenHash(token))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * Sets a password through a link: checks it, hashes the password (`hash`, outside any transaction: it
 * takes a tenth of a second), then in one transaction uses the link up, stores the hash (`storeHash`) and
 * ends the user's other links, so that a link is used exactly when its password is set.
 */
export async function setPasswordThroughLink<R extends LinkUserRow>(
  db: Db,
  table: LinkTable,
  token: string,
  now: number,
  steps: {
    findUser: (id: string) => Promise<R | undefined>;
    hash: () => Promise<string>;
    storeHash: (trx: Db, userId: string, hash: string) => Promise<void>;
  },
): Promise<LinkOutcome<R>> {
  const outcome = await checkLink(db, table, token, now, steps.findUser);
  if (!outcome.ok) return outcome;
  const hash = await steps.hash();
  const used = await db.transaction().execute(async (trx) => {
    if (!(await useLink(trx, table, token, now))) return false;
    await steps.storeHash(trx, outcome.user.id, hash);
    // The user's other links (an older invitation, a reset) end with the password they would have set.
    await endUserLinks(trx, table, outcome.user.id, now);
    return true;
  });
  return used ? outcome : { ok: false, reason: 'used' };
}
