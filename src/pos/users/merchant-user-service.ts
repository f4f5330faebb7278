import { z } from 'zod';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { conflict, notFound } from '../../errors/refusals.js';
import { randomAlphanumeric } from '../../lib/identifiers.js';
import { displayName } from '../../lib/input-text.js';
import { hashPassword } from '../../identity/password-hash.js';
import { createUserAccounts } from '../../identity/user-accounts.js';
import { emailAddress } from '../../identity/user-input.js';
import { enqueueMail } from '../../mail/outbox-repository.js';
import { invitationMail, passwordResetMail } from './merchant-user-mail.js';
import {
  insertUser,
  listUsers,
  oldestResetRequests,
  queueResetRequest,
  takeResetRequest,
  type MerchantUserRecord,
} from './merchant-user-repository.js';

// The people of a merchant account who sign in to the panel (issue 13, Who signs in): the operator
// invites one (admin API, CLI) and the invitation goes out by e-mail with a one-time link valid 72
// hours, where the user sets a password; a password reset sends a one-time link valid 1 hour. Only the
// hash of a link's token is stored; only a scrypt hash of a password. A link and its e-mail are written in
// one transaction (the e-mail to the outbox, src/mail/): both exist, or neither.

const INVITATION_LIFETIME_MS = 72 * 3_600_000;
const RESET_LIFETIME_MS = 3_600_000;

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

/** Merchant users on the web faces' one identity mechanism: links to the panel, by purpose. */
function merchantAccounts(db: Db, clock: Clock, panelUrl: string) {
  return createUserAccounts({
    db,
    clock,
    users: 'merchant_users',
    links: 'merchant_user_links',
    setPasswordUrl: `${panelUrl}/set-password?token=`,
    lifetime: (purpose) => (purpose === 'invitation' ? INVITATION_LIFETIME_MS : RESET_LIFETIME_MS),
    // Only the newest e-mail of a purpose counts: its earlier links of that purpose stop working.
    supersedes: (purpose) => [purpose],
    toUser,
  });
}

/** The merchant users service. */
export function createMerchantUserService(deps: {
  db: Db;
  clock: Clock;
  /** Where the links point: `{PUBLIC_BASE_URL}/panel`. */
  panelUrl: string;
}) {
  const { db, clock, panelUrl } = deps;

  const accounts = merchantAccounts(db, clock, panelUrl);
  const { findRowByEmail, newLink } = accounts;

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
          let row = await findRowByEmail(input.email, trx);
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
          const link = await newLink(trx, row.id, 'invitation', now);
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

    /** The user of `id`; undefined when there is none or they are disabled (a session's user). */
    get: accounts.get,

    /**
     * The user whose e-mail and password these are, or null. An unknown address costs the same hash as a
     * known one, so the time taken says nothing about whether it exists.
     */
    authenticate: accounts.authenticate,

    /**
     * Queues a reset request for the e-mail sender, which e-mails a reset link (1 hour) when the address
     * is a user's; says nothing either way. The request takes the same work, one insert, for any address,
     * so that the time of its answer says nothing about whether the address exists; the lookup, the link
     * and the e-mail happen off the request (`sendRequestedResets`). Committed before the page answers,
     * a request is never lost.
     */
    async requestPasswordReset(email: string): Promise<void> {
      const parsed = emailAddress.safeParse(email);
      if (!parsed.success) return;
      await queueResetRequest(db, parsed.data, clock.now());
    },

    /**
     * Turns the queued reset requests into links and e-mails (the e-mail sender runs it before each
     * poll): each request is taken off the queue in the transaction that writes its link and e-mail, so
     * that in a fleet each is sent once, and one that fails stays queued. Returns how many were taken.
     */
    async sendRequestedResets(limit = 50): Promise<number> {
      let taken = 0;
      for (const request of await oldestResetRequests(db, limit)) {
        const now = clock.now();
        const took = await db.transaction().execute(async (trx) => {
          if (!(await takeResetRequest(trx, request.seq))) return false;
          const row = await findRowByEmail(request.email, trx);
          if (row?.disabled_at !== null || row.password_hash === null) return true;
          const link = await newLink(trx, row.id, 'reset', now);
          await enqueueMail(trx, passwordResetMail(row, link), now);
          return true;
        });
        if (took) taken += 1;
      }
      return taken;
    },

    /** What a one-time link is worth now (the page that sets the password shows the outcome). */
    link: accounts.link,

    /** Sets the password through a one-time link, which is then used up. */
    setPasswordWithLink: accounts.setPasswordWithLink,

    /** Changes a signed-in user's password and ends their links; false when the current one is wrong. */
    changePassword: accounts.changePassword,

    /** Creates a user with a password at once (the demo user); an existing address is left as it is, or, with
     * `replace`, gets the password and its links end (`partner-gateway demo credentials`). */
    async ensureWithPassword(
      accountId: string,
      email: string,
      name: string,
      password: string,
      options: { replace?: boolean } = {},
    ): Promise<MerchantUser> {
      const existing = await findRowByEmail(email);
      if (existing !== undefined && options.replace === true) {
        if (existing.account_id !== accountId) throw conflict(`"${email}" is a user of another account.`);
        await accounts.setPassword(existing.id, password);
      }
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
