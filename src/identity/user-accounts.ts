import type { Selectable } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { MerchantUserTable, StaffUserTable } from '../db/schema.js';
import {
  checkLink,
  endUserLinks,
  issueLink,
  setPasswordThroughLink,
  type LinkOutcome,
  type LinkPurpose,
  type LinkTable,
} from './one-time-link.js';
import { hashPassword, UNUSABLE_PASSWORD_HASH, verifyPassword } from './password-hash.js';

// The one mechanism by which the web faces' users sign in and set passwords, merchant users (issue 13)
// and staff users (issue 14) alike: a user table and its link table, the faces' view of a row, and how
// long a link lasts. What differs between them (who creates users, how links reach them, the log) stays
// in each domain's service.

/** The rows of the user tables, by table. */
interface UserRows {
  merchant_users: Selectable<MerchantUserTable>;
  staff_users: Selectable<StaffUserTable>;
}

/** The tables of users who sign in to a web face. */
export type UserTable = keyof UserRows;

/** A one-time link where a user sets a password: the URL (its token in the query) and its end. */
export interface PasswordLink {
  url: string;
  expiresAt: number;
}

/** The user accounts of one web face, bound to its user table and its link table. */
export function createUserAccounts<T extends UserTable, U extends { active: boolean }>(deps: {
  db: Db;
  clock: Clock;
  /** The table of the face's users. */
  users: T;
  /** The table of their one-time links. */
  links: LinkTable;
  /** Where a link points, its token appended: `{face URL}/set-password?token=`. */
  setPasswordUrl: string;
  /** How long a link of `purpose` stays good, in milliseconds. */
  lifetime: (purpose: LinkPurpose) => number;
  /** The user's earlier unused links a new one of `purpose` ends: only the newest of those counts. */
  supersedes: (purpose: LinkPurpose) => readonly LinkPurpose[];
  /** The user as the faces see them (never the password hash). */
  toUser: (row: UserRows[T]) => U;
}) {
  const { db, clock, links, toUser } = deps;
  // The two user tables share the columns read and written here: typed as one of them.
  const users = deps.users as 'merchant_users';
  type Row = UserRows[T];

  const findRow = (trx: Db, id: string) =>
    trx.selectFrom(users).selectAll().where('id', '=', id).executeTakeFirst() as Promise<Row | undefined>;

  const findRowByEmail = (trx: Db, email: string) =>
    trx.selectFrom(users).selectAll().where('email', '=', email).executeTakeFirst() as Promise<
      Row | undefined
    >;

  async function setPasswordHash(trx: Db, id: string, hash: string, now: number): Promise<void> {
    await trx.updateTable(users).set({ password_hash: hash, updated_at: now }).where('id', '=', id).execute();
  }

  /** A link's outcome with the user as the faces see them. */
  const userOutcome = (outcome: LinkOutcome<Row>): LinkOutcome<U> =>
    outcome.ok ? { ...outcome, user: toUser(outcome.user) } : outcome;

  const findOwnRow = (id: string) => findRow(db, id);

  return {
    /** The row of the user `id`, if any (read in `trx`, the database by default). */
    findRow: (id: string, trx: Db = db) => findRow(trx, id),

    /** The row of the user with this (lower-cased) address, if any. */
    findRowByEmail: (email: string, trx: Db = db) => findRowByEmail(trx, email),

    /** Stores a new one-time link in `trx`; returns its URL and its end. */
    newLink: async (trx: Db, userId: string, purpose: LinkPurpose, now: number): Promise<PasswordLink> => {
      const expiresAt = now + deps.lifetime(purpose);
      const token = await issueLink(trx, links, {
        userId,
        purpose,
        expiresAt,
        now,
        supersedes: deps.supersedes(purpose),
      });
      return { url: `${deps.setPasswordUrl}${token}`, expiresAt };
    },

    /** The user of `id`; undefined when there is none or they are disabled (a session's user). */
    get: async (id: string): Promise<U | undefined> => {
      const row = await findRow(db, id);
      return row?.disabled_at !== null ? undefined : toUser(row);
    },

    /**
     * The user whose e-mail and password these are, or null. An unknown address costs the same hash as a
     * known one, so the time taken says nothing about whether it exists.
     */
    authenticate: async (email: string, password: string): Promise<U | null> => {
      const row = await findRowByEmail(db, email.trim().toLowerCase());
      const hash = row?.disabled_at === null ? row.password_hash : null;
      const matches = await verifyPassword(password, hash ?? UNUSABLE_PASSWORD_HASH);
      return row !== undefined && hash !== null && matches ? toUser(row) : null;
    },

    /** What a one-time link is worth now (the page that sets the password shows the outcome). */
    link: async (token: string): Promise<LinkOutcome<U>> => {
      return userOutcome(await checkLink(db, links, token, clock.now(), findOwnRow));
    },

    /** Sets the password through a one-time link, which is then used up. */
    setPasswordWithLink: async (token: string, password: string): Promise<LinkOutcome<U>> => {
      const now = clock.now();
      const outcome = await setPasswordThroughLink(db, links, token, now, {
        findUser: findOwnRow,
        hash: () => hashPassword(password),
        storeHash: (trx, userId, hash) => setPasswordHash(trx, userId, hash, now),
      });
      return outcome.ok ? { ...outcome, user: { ...toUser(outcome.user), active: true } } : outcome;
    },

    /**
     * Sets a password without the current one (the operator's new password for the demo user,
     * `partner-gateway demo credentials`) and ends the user's links, as a change does.
     */
    setPassword: async (id: string, next: string): Promise<void> => {
      const hash = await hashPassword(next);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, id, hash, now);
        await endUserLinks(trx, links, id, now);
      });
    },

    /**
     * Changes a signed-in user's password and ends their links; false when the user is unknown, disabled
     * or without a password, or the current one is wrong.
     */
    changePassword: async (id: string, current: string, next: string): Promise<boolean> => {
      const row = await findRow(db, id);
      if (row?.disabled_at !== null || row.password_hash === null) return false;
      if (!(await verifyPassword(current, row.password_hash))) return false;
      const hash = await hashPassword(next);
      const now = clock.now();
      // A link sent or handed over before the change (to someone who had the mailbox, say) ends with it.
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, id, hash, now);
        await endUserLinks(trx, links, id, now);
      });
      return true;
    },
  };
}
