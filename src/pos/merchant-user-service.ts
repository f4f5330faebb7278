import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/unique-violation.js';
import { conflict, notFound } from '../errors/refusals.js';
import { randomAlphanumeric } from '../lib/identifiers.js';
import { displayName } from '../lib/input-text.js';
import { hashPassword, UNUSABLE_PASSWORD_HASH, verifyPassword } from '../web/password-hash.js';
import { enqueueMail } from '../mail/outbox-repository.js';
import { invitationMail, passwordResetMail } from './merchant-user-mail.js';
import {
  findLink,
  findUser,
  findUserByEmail,
  insertLink,
  insertUser,
  listUsers,
  setPasswordHash,
  useLink,
  type MerchantUserRecord,
} from './merchant-user-repository.js';

// The people of a merchant account who sign in to the panel (issue 13, Who signs in): the operator
// invites one (admin API, CLI) and the invitation goes out by e-mail with a one-time link valid 72
// hours, where the user sets a password; a password reset sends a one-time link valid 1 hour. Only the
// hash of a link's token is stored; only a scrypt hash of a password. A link and its e-mail are written in
// one transaction (the e-mail to the outbox, src/mail/): both exist, or neither.

export const INVITATION_LIFETIME_MS = 72 * 3_600_000;
export const RESET_LIFETIME_MS = 3_600_000;
export { PASSWORD_MAX, PASSWORD_MIN } from '../web/password-policy.js';

/** An e-mail address as stored: trimmed, lower-cased, a plain shape (the mail server judges the rest). */
export const emailAddress = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address');

/** What the operator sends to invite a user. */
export const userInviteInput = z.strictObject({ email: emailAddress, name: displayName });
export type UserInviteInput = z.infer<typeof userInviteInput>;

/** A merchant user as the faces see them (never the password hash). */
export interface MerchantUser {
  id: string;
  accountId: string;
  email: string;
  name: string;
  /** False until the invitation's link was used to set a password. */
  active: boolean;
  createdAt: number;
}

function toUser(row: MerchantUserRecord): MerchantUser {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    name: row.name,
    active: row.password_hash !== null && row.disabled_at === null,
    createdAt: row.created_at,
  };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** What a one-time link is worth now. */
export type LinkOutcome =
  | { ok: true; user: MerchantUser; purpose: 'invitation' | 'reset' }
  | { ok: false; reason: 'unknown' | 'expired' | 'used' };

/** The merchant users service. */
export function createMerchantUserService(deps: {
  db: Db;
  clock: Clock;
  /** Where the links point: `{PUBLIC_BASE_URL}/panel`. */
  panelUrl: string;
}) {
  const { db, clock, panelUrl } = deps;

  /** Stores a new one-time link in `trx`; returns its URL (the token in the query) and its end. */
  async function issueLink(
    trx: Db,
    user: MerchantUserRecord,
    purpose: 'invitation' | 'reset',
    now: number,
  ): Promise<{ url: string; expiresAt: number }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + (purpose === 'invitation' ? INVITATION_LIFETIME_MS : RESET_LIFETIME_MS);
    await insertLink(trx, {
      token_hash: tokenHash(token),
      user_id: user.id,
      purpose,
      expires_at: expiresAt,
      created_at: now,
    });
    return { url: `${panelUrl}/set-password?token=${token}`, expiresAt };
  }

  async function checkLink(token: string): Promise<LinkOutcome & { row?: MerchantUserRecord }> {
    const link = await findLink(db, tokenHash(token));
    if (link === undefined) return { ok: false, reason: 'unknown' };
    if (link.used_at !== null) return { ok: false, reason: 'used' };
    if (link.expires_at <= clock.now()) return { ok: false, reason: 'expired' };
    const row = await findUser(db, link.user_id);
    if (row?.disabled_at !== null) return { ok: false, reason: 'unknown' };
    return { ok: true, user: toUser(row), purpose: link.purpose === 'reset' ? 'reset' : 'invitation', row };
  }

  return {
    /**
     * Invites a person to an account: creates the user (or, for one who has not accepted yet, sends a new
     * link that replaces the earlier one) and e-mails the one-time link (72 hours). A user who already
     * set a password: 409.
     */
    async invite(
      accountId: string,
      input: UserInviteInput,
    ): Promise<{ user: MerchantUser; expiresAt: number }> {
      const account = await db
        .selectFrom('pos_accounts')
        .select(['id', 'name'])
        .where('id', '=', accountId)
        .executeTakeFirst();
      if (account === undefined) throw notFound(`account "${accountId}"`);
      const now = clock.now();
      const attempt = () =>
        db.transaction().execute(async (trx) => {
          let row = await findUserByEmail(trx, input.email);
          if (row !== undefined && (row.account_id !== accountId || row.password_hash !== null)) {
            throw conflict(`A user with the e-mail address "${input.email}" already exists.`);
          }
          if (row === undefined) {
            row = {
              id: randomAlphanumeric(24),
              account_id: accountId,
              email: input.email,
              name: input.name,
              password_hash: null,
              disabled_at: null,
              created_at: now,
              updated_at: now,
            };
            await insertUser(trx, row);
          }
          const link = await issueLink(trx, row, 'invitation', now);
          await enqueueMail(trx, invitationMail(account, row, link), now);
          return { user: toUser(row), expiresAt: link.expiresAt };
        });
      try {
        return await attempt();
      } catch (error) {
        // Two first invitations of one address at once (PostgreSQL: neither saw the other's row): the
        // second's insert meets the first's user. Run again, it finds that user: a new link, or 409.
        if (!isUniqueViolation(error)) throw error;
        return attempt();
      }
    },

    /** The users of an account. */
    async list(accountId: string): Promise<MerchantUser[]> {
      return (await listUsers(db, accountId)).map(toUser);
    },

    async get(id: string): Promise<MerchantUser | undefined> {
      const row = await findUser(db, id);
      return row?.disabled_at !== null ? undefined : toUser(row);
    },

    /**
     * The user whose e-mail and password these are, or null. An unknown address costs the same hash as a
     * known one, so the time taken says nothing about whether it exists.
     */
    async authenticate(email: string, password: string): Promise<MerchantUser | null> {
      const row = await findUserByEmail(db, email.trim().toLowerCase());
      const hash = row?.disabled_at === null ? row.password_hash : null;
      const matches = await verifyPassword(password, hash ?? UNUSABLE_PASSWORD_HASH);
      return row !== undefined && hash !== null && matches ? toUser(row) : null;
    },

    /** E-mails a reset link (1 hour) when the address is a user's; says nothing either way. */
    async requestPasswordReset(email: string): Promise<void> {
      const parsed = emailAddress.safeParse(email);
      if (!parsed.success) return;
      const row = await findUserByEmail(db, parsed.data);
      if (row?.disabled_at !== null || row.password_hash === null) return;
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const link = await issueLink(trx, row, 'reset', now);
        await enqueueMail(trx, passwordResetMail(row, link), now);
      });
    },

    /** What a one-time link is worth now (the page that sets the password shows the outcome). */
    async link(token: string): Promise<LinkOutcome> {
      const { row: _row, ...outcome } = await checkLink(token);
      return outcome;
    },

    /** Sets the password through a one-time link, which is then used up. */
    async setPasswordWithLink(token: string, password: string): Promise<LinkOutcome> {
      const outcome = await checkLink(token);
      if (!outcome.ok) return outcome;
      const hash = await hashPassword(password);
      const now = clock.now();
      if (!(await useLink(db, tokenHash(token), now))) return { ok: false, reason: 'used' };
      await setPasswordHash(db, outcome.user.id, hash, now);
      const { row: _row, ...rest } = outcome;
      return { ...rest, user: { ...rest.user, active: true } };
    },

    /** Changes a signed-in user's password; false when the current one is wrong. */
    async changePassword(userId: string, current: string, next: string): Promise<boolean> {
      const row = await findUser(db, userId);
      if (row === undefined || row.password_hash === null) return false;
      if (!(await verifyPassword(current, row.password_hash))) return false;
      await setPasswordHash(db, userId, await hashPassword(next), clock.now());
      return true;
    },

    /** Creates a user with a password at once (the demo user); an existing address is left as it is. */
    async ensureWithPassword(
      accountId: string,
      email: string,
      name: string,
      password: string,
    ): Promise<MerchantUser> {
      const existing = await findUserByEmail(db, email);
      if (existing !== undefined) return toUser(existing);
      const now = clock.now();
      const row: MerchantUserRecord = {
        id: randomAlphanumeric(24),
        account_id: accountId,
        email,
        name,
        password_hash: await hashPassword(password),
        disabled_at: null,
        created_at: now,
        updated_at: now,
      };
      await insertUser(db, row);
      return toUser(row);
    },
  };
}

export type MerchantUserService = ReturnType<typeof createMerchantUserService>;
