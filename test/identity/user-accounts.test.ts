import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import type { LinkTable } from '../../src/identity/one-time-link.js';
import { hashPassword } from '../../src/identity/password-hash.js';
import { createUserAccounts, type UserTable } from '../../src/identity/user-accounts.js';
import { insertUser } from '../../src/pos/users/merchant-user-repository.js';
import { insertStaffUser } from '../../src/staff/staff-user-repository.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The one identity mechanism of the web faces' users, run over each face's tables (merchant users:
// issue 13; staff users: issue 14): the same rules for a link, a password set through it, a sign-in and
// a password change, whichever table holds the user.

const PASSWORD = 'uma frase longa e segura';
const NEXT = 'outra frase longa e segura';

interface Face {
  name: string;
  users: UserTable;
  links: LinkTable;
  /** Stores a user with this id and address (and password hash, null for none). */
  insert(t: TestApp, id: string, email: string, hash: string | null): Promise<void>;
}

const FACES: Face[] = [
  {
    name: 'merchant users',
    users: 'merchant_users',
    links: 'merchant_user_links',
    async insert(t, id, email, hash) {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
      const now = t.clock.now();
      await insertUser(t.db, {
        ...{ id, account_id: 'acme', email, name: 'Ana', password_hash: hash },
        ...{ disabled_at: null, created_at: now, updated_at: now },
      });
    },
  },
  {
    name: 'staff users',
    users: 'staff_users',
    links: 'staff_user_links',
    async insert(t, id, email, hash) {
      const now = t.clock.now();
      await insertStaffUser(t.db, {
        ...{ id, email, name: 'Ana', role: 'support', password_hash: hash },
        ...{ disabled_at: null, created_at: now, updated_at: now },
      });
    },
  },
];

/** The token in a link's URL. */
const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

function accountsOf(t: TestApp, face: Face) {
  return createUserAccounts({
    db: t.db,
    clock: t.clock,
    users: face.users,
    links: face.links,
    setPasswordUrl: 'https://faces.example.test/set-password?token=',
    lifetime: (purpose) => (purpose === 'invitation' ? 72 : 1) * 3_600_000,
    supersedes: (purpose) => [purpose],
    toUser: (row) => ({ id: row.id, email: row.email, active: row.password_hash !== null }),
  });
}

/** Marks the user `id` disabled, as the operator would. */
async function disable(db: Db, face: Face, id: string, now: number): Promise<void> {
  await db
    .updateTable(face.users as 'staff_users')
    .set({ disabled_at: now })
    .where('id', '=', id)
    .execute();
}

describeEachDialect('user accounts', (dialect) => {
  const t = useTestApp(dialect);

  describe.each(FACES)('$name', (face) => {
    it('a link sets a password once; the user then signs in with it, by any case of the address', async () => {
      const accounts = accountsOf(t, face);
      await face.insert(t, 'ana', 'ana@faces.example', null);
      const link = await t.db
        .transaction()
        .execute((trx) => accounts.newLink(trx, 'ana', 'invitation', t.clock.now()));
      expect(link.expiresAt).toBe(t.clock.now() + 72 * 3_600_000);
      expect(await accounts.link(tokenOf(link.url))).toMatchObject({ ok: true, purpose: 'invitation' });
      expect(await accounts.authenticate('ana@faces.example', PASSWORD)).toBeNull();
      const set = await accounts.setPasswordWithLink(tokenOf(link.url), PASSWORD);
      expect(set).toEqual({
        ok: true,
        purpose: 'invitation',
        user: { id: 'ana', email: 'ana@faces.example', active: true },
      });
      expect(await accounts.setPasswordWithLink(tokenOf(link.url), NEXT)).toEqual({
        ok: false,
        reason: 'used',
      });
      expect(await accounts.authenticate(' ANA@faces.example ', PASSWORD)).toMatchObject({ id: 'ana' });
      expect(await accounts.authenticate('ana@faces.example', NEXT)).toBeNull();
    });

    it('a link past its end is expired', async () => {
      const accounts = accountsOf(t, face);
      await face.insert(t, 'ana', 'ana@faces.example', await hashPassword(PASSWORD));
      const link = await t.db
        .transaction()
        .execute((trx) => accounts.newLink(trx, 'ana', 'reset', t.clock.now()));
      t.clock.advance(3_600_000);
      expect(await accounts.link(tokenOf(link.url))).toEqual({ ok: false, reason: 'expired' });
    });

    it('a password change needs the current one, and ends the links given out before it', async () => {
      const accounts = accountsOf(t, face);
      await face.insert(t, 'ana', 'ana@faces.example', await hashPassword(PASSWORD));
      const link = await t.db
        .transaction()
        .execute((trx) => accounts.newLink(trx, 'ana', 'reset', t.clock.now()));
      expect(await accounts.changePassword('ana', NEXT, NEXT)).toBe(false);
      expect(await accounts.link(tokenOf(link.url))).toMatchObject({ ok: true });
      expect(await accounts.changePassword('ana', PASSWORD, NEXT)).toBe(true);
      expect(await accounts.link(tokenOf(link.url))).toEqual({ ok: false, reason: 'used' });
      expect(await accounts.authenticate('ana@faces.example', NEXT)).toMatchObject({ id: 'ana' });
    });

    it('a disabled user is nobody: no session user, no sign-in, no link, no password change', async () => {
      const accounts = accountsOf(t, face);
      await face.insert(t, 'ana', 'ana@faces.example', await hashPassword(PASSWORD));
      const link = await t.db
        .transaction()
        .execute((trx) => accounts.newLink(trx, 'ana', 'reset', t.clock.now()));
      expect(await accounts.get('ana')).toMatchObject({ id: 'ana' });
      await disable(t.db, face, 'ana', t.clock.now());
      expect(await accounts.get('ana')).toBeUndefined();
      expect(await accounts.authenticate('ana@faces.example', PASSWORD)).toBeNull();
      expect(await accounts.link(tokenOf(link.url))).toEqual({ ok: false, reason: 'unknown' });
      expect(await accounts.changePassword('ana', PASSWORD, NEXT)).toBe(false);
    });
  });
});
