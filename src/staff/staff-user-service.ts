import type { z } from 'zod';
import type { Actor } from '../audit/actor.js';
import type { BackOfficeLog } from '../audit/back-office-log.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { conflict, invalidInput, notFound } from '../errors/refusals.js';
import { randomAlphanumeric } from '../lib/identifiers.js';
import { wireTime } from '../lib/wire-time.js';
import type { LinkOutcome, LinkPurpose } from '../identity/one-time-link.js';
import { hashPassword } from '../identity/password-hash.js';
import { deleteUserSessions } from '../identity/session-store.js';
import { createUserAccounts, type PasswordLink } from '../identity/user-accounts.js';
import { newPassword } from '../identity/user-input.js';
import {
  firstOperatorInput,
  staffUserInput,
  type FirstOperatorInput,
  type StaffRole,
  type StaffUserInput,
} from './staff-user-input.js';
import {
  countActiveOperators,
  countStaffUsers,
  disableStaffUser,
  insertStaffUser,
  listStaffUsers,
  lockStaffUsers,
  type StaffUserRecord,
} from './staff-user-repository.js';

// The operator's staff, who sign in to the back-office console (issue 14): named users with a role,
// `operator` or `support`, created by the operator (admin API, CLI, console) with a one-time link where
// they set their password, or, on a deployment without any, the first operator on the console's
// first-start page. Links are handed over by the operator, not e-mailed: staff are few, and the admin
// listener the console lives on is internal. Only the hash of a link's token is stored; only a scrypt
// hash of a password. Every change is written to the back-office log in its own transaction.

/** Both kinds of link last 72 hours: the operator hands them over, which may take a day or two. */
export const STAFF_LINK_LIFETIME_MS = 72 * 3_600_000;

/** The face whose sessions are staff users' (web_sessions.face): the console's session store uses it. */
export const STAFF_SESSION_FACE = 'console';

/** A staff user as the faces see them (never the password hash). */
export interface StaffUser {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** True once a password is set, until the user is disabled. */
  active: boolean;
  /** When the operator disabled the user; null while they are not. */
  disabledAt: number | null;
  createdAt: number;
}

/** A one-time link where a staff user sets a password: the URL (its token in the query) and its end. */
export type StaffPasswordLink = PasswordLink;

function toUser(row: StaffUserRecord): StaffUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role === 'operator' ? 'operator' : 'support',
    active: row.password_hash !== null && row.disabled_at === null,
    disabledAt: row.disabled_at,
    createdAt: row.created_at,
  };
}

/** What the back-office log names a staff user by. */
const targetOf = (id: string) => `staff/users/${id}`;

/** `value` parsed by `schema`, or a 422 naming the field (`email: must be an e-mail address`). */
function parsed<S extends z.ZodType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = [field, ...(issue?.path ?? []).map(String)].filter((part) => part !== undefined).join('.');
  const detail =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.join(', ')}`
      : (issue?.message ?? 'invalid');
  throw invalidInput(param === '' ? 'input' : param, detail);
}

/** Reads a staff user's row in `trx`. */
type StaffRowFinder = (id: string, trx: Db) => Promise<StaffUserRecord | undefined>;

/** A new staff user's row, created `now`, with a fresh id. */
function newStaffRow(
  fields: Pick<StaffUserRecord, 'email' | 'name' | 'role' | 'password_hash'>,
  now: number,
): StaffUserRecord {
  return { id: randomAlphanumeric(24), ...fields, disabled_at: null, created_at: now, updated_at: now };
}

/**
 * Disables the staff user `id` in `trx` (see the service's `disable`): nothing when they are disabled
 * already; 409 for the last operator who can sign in.
 */
async function disableInTransaction(
  trx: Db,
  { backOfficeLog, findRow }: { backOfficeLog: Pick<BackOfficeLog, 'record'>; findRow: StaffRowFinder },
  { id, actor, now }: { id: string; actor: Actor; now: number },
): Promise<void> {
  // Locked from the count to the change: two operators disabling each other at once would each
  // count the other, and both go.
  await lockStaffUsers(trx);
  const row = await findRow(id, trx);
  if (row?.disabled_at !== null) return;
  if (toUser(row).active && row.role === 'operator' && (await countActiveOperators(trx)) <= 1) {
    throw conflict(
      `The staff user "${id}" is the last operator who can sign in: create another operator (and let them set a password) first.`,
    );
  }
  if (!(await disableStaffUser(trx, id, now))) return;
  await deleteUserSessions(trx, STAFF_SESSION_FACE, id);
  await backOfficeLog.record(trx, actor, {
    action: 'disableStaffUser',
    target: targetOf(id),
    details: { email: row.email },
  });
}

/** Staff users on the web faces' one identity mechanism: links to the console, 72 hours either kind. */
function staffAccounts(db: Db, clock: Clock, consoleUrl: string) {
  return createUserAccounts({
    db,
    clock,
    users: 'staff_users',
    links: 'staff_user_links',
    setPasswordUrl: `${consoleUrl}/set-password?token=`,
    lifetime: () => STAFF_LINK_LIFETIME_MS,
    // A new link of either purpose ends the user's earlier ones: only the newest handed over counts.
    supersedes: () => ['invitation', 'reset'],
    toUser,
  });
}

/** The staff users service. */
export function createStaffUserService(deps: {
  db: Db;
  clock: Clock;
  /** Where the links point: `{ADMIN_BASE_URL}/console`. */
  consoleUrl: string;
  backOfficeLog: Pick<BackOfficeLog, 'record'>;
}) {
  const { db, clock, consoleUrl, backOfficeLog } = deps;

  const accounts = staffAccounts(db, clock, consoleUrl);
  const { findRow, newLink } = accounts;

  /** The user of `id`, or 404. */
  async function existing(id: string): Promise<StaffUserRecord> {
    const row = await findRow(id);
    if (row === undefined) throw notFound(`staff user "${id}"`);
    return row;
  }

  return {
    /**
     * Creates a staff user without a password, and a one-time link (72 hours) where they set one, for
     * the operator to hand over. An address that is a staff user's already: 409.
     */
    async create(input: StaffUserInput, actor: Actor): Promise<{ user: StaffUser; link: StaffPasswordLink }> {
      const { email, name, role } = parsed(staffUserInput, input);
      const taken = () => conflict(`A staff user with the e-mail address "${email}" already exists.`);
      const now = clock.now();
      try {
        return await db.transaction().execute(async (trx) => {
          if ((await accounts.findRowByEmail(email, trx)) !== undefined) throw taken();
          const row = newStaffRow({ email, name, role, password_hash: null }, now);
          await insertStaffUser(trx, row);
          const link = await newLink(trx, row.id, 'invitation', now);
          await backOfficeLog.record(trx, actor, {
            action: 'createStaffUser',
            target: targetOf(row.id),
            details: { email, name, role, link_expires_at: wireTime(link.expiresAt) },
          });
          return { user: toUser(row), link };
        });
      } catch (error) {
        // The same address twice at once (PostgreSQL: neither saw the other's row): the unique index.
        if (isUniqueViolation(error)) throw taken();
        throw error;
      }
    },

    /** Every staff user, disabled ones too, by address. */
    async list(): Promise<StaffUser[]> {
      return (await listStaffUsers(db)).map(toUser);
    },

    /** The staff user of `id`; undefined when there is none or they are disabled (a session's user). */
    get: accounts.get,

    /** How many staff users there are, disabled ones too (none: the console offers its first start). */
    count: (): Promise<number> => countStaffUsers(db),

    /**
     * The staff user whose e-mail and password these are, or null. An unknown address costs the same
     * hash as a known one, so the time taken says nothing about whether it exists.
     */
    authenticate: accounts.authenticate,

    /** What a one-time link is worth now (the page that sets the password shows the outcome). */
    link: accounts.link,

    /**
     * Sets the password through a one-time link, which is then used up; a password of the wrong length:
     * 422 (the console's form checks it first). The console ends the user's other sessions.
     */
    async setPasswordWithLink(token: string, password: string): Promise<LinkOutcome<StaffUser>> {
      parsed(newPassword, password, 'password');
      return accounts.setPasswordWithLink(token, password);
    },

    /**
     * Changes a signed-in user's password and ends their links; false when the current one is wrong (a
     * bad new one: 422).
     */
    async changePassword(id: string, current: string, next: string): Promise<boolean> {
      parsed(newPassword, next, 'password');
      return accounts.changePassword(id, current, next);
    },

    /**
     * A fresh one-time link (72 hours) for a staff user who lost theirs or forgot their password; their
     * earlier links stop working, and their password (if any) stays until the link is used. 404 for an
     * unknown user, 409 for a disabled one.
     */
    async newPasswordLink(id: string, actor: Actor): Promise<StaffPasswordLink> {
      const row = await existing(id);
      if (row.disabled_at !== null) throw conflict(`The staff user "${id}" is disabled.`);
      const purpose: LinkPurpose = row.password_hash === null ? 'invitation' : 'reset';
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        const link = await newLink(trx, id, purpose, now);
        await backOfficeLog.record(trx, actor, {
          action: 'issueStaffUserPasswordLink',
          target: targetOf(id),
          details: { email: row.email, purpose, link_expires_at: wireTime(link.expiresAt) },
        });
        return link;
      });
    },

    /**
     * Disables a staff user: they can no longer sign in, their links stop working, and their console
     * sessions end in the same commit. Disabling one who is disabled already changes (and records)
     * nothing. 404 for an unknown user; 409 for the last operator who can sign in, so that the console
     * is never left without one (ADMIN_TOKEN creates a first operator only while there is no staff user
     * at all).
     */
    async disable(id: string, actor: Actor): Promise<StaffUser> {
      await existing(id);
      const now = clock.now();
      await db
        .transaction()
        .execute((trx) => disableInTransaction(trx, { backOfficeLog, findRow }, { id, actor, now }));
      return toUser(await existing(id));
    },

    /**
     * Creates the first operator, with a password at once (the console's first-start page, reached with
     * ADMIN_TOKEN). Only while there is no staff user at all: otherwise 409, also for the second of two
     * calls at once (the table is locked from the check to the insert). Bad input: 422 naming the field.
     */
    async createFirstOperator(input: FirstOperatorInput, actor: Actor): Promise<StaffUser> {
      const { email, name, password } = parsed(firstOperatorInput, input);
      const exists = () =>
        conflict('There are staff users already: the first operator can only be created before any.');
      if ((await countStaffUsers(db)) > 0) throw exists();
      const hash = await hashPassword(password);
      const now = clock.now();
      return db.transaction().execute(async (trx) => {
        await lockStaffUsers(trx);
        if ((await countStaffUsers(trx)) > 0) throw exists();
        const row = newStaffRow({ email, name, role: 'operator', password_hash: hash }, now);
        await insertStaffUser(trx, row);
        await backOfficeLog.record(trx, actor, {
          action: 'createFirstStaffOperator',
          target: targetOf(row.id),
          details: { email, name, role: 'operator' },
        });
        return toUser(row);
      });
    },
  };
}

export type StaffUserService = ReturnType<typeof createStaffUserService>;
