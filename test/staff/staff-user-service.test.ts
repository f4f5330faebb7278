import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/audit/actor.js';
import { Problem } from '../../src/errors/problem.js';
import { lockStaffUsers } from '../../src/staff/staff-user-repository.js';
import { STAFF_LINK_LIFETIME_MS, STAFF_SESSION_FACE } from '../../src/staff/staff-user-service.js';
import { linkTokenHash } from '../../src/identity/one-time-link.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The staff users of the back-office console (issue 14; docs/back-office.md, Staff users): created with a role and a
// one-time link (72 hours) the operator hands over, good once; a password set through it signs in; a
// fresh link ends the earlier ones; a disabled user signs in no more and loses their console sessions;
// the first operator is created only while there is no staff user at all, one of two at once.

const OPERATOR: Actor = { role: 'operator', channel: 'admin_api', ip: '203.0.113.7' };
const PASSWORD = 'uma frase longa e segura';

/** The token in a link's URL. */
const tokenOf = (url: string) => new URL(url).searchParams.get('token') ?? '';

/** What a promise rejected with: a Problem's status and code. */
async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; param?: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(Problem);
    const problem = error as Problem;
    return {
      status: problem.status,
      code: String(problem.code),
      ...(problem.extras.param === undefined ? {} : { param: problem.extras.param }),
    };
  }
  throw new Error('expected a refusal');
}

async function createBia(t: TestApp, role: 'operator' | 'support' = 'support') {
  return t.services.staffUsers.create({ email: ' Bia@Operator.Example ', name: 'Bia', role }, OPERATOR);
}

describeEachDialect('staff user service', (dialect) => {
  const t = useTestApp(dialect, { config: { ADMIN_BASE_URL: 'https://ops.example.test/' } });

  describe('create: a user without a password and a one-time link (72 hours) on the console', () => {
    it('the address is stored lower-cased; the link points at the console’s set-password page', async () => {
      const { user, link } = await createBia(t);
      expect(user).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
        email: 'bia@operator.example',
        name: 'Bia',
        role: 'support',
        active: false,
        disabledAt: null,
        createdAt: t.clock.now(),
      });
      expect(link.url).toMatch(
        /^https:\/\/ops\.example\.test\/console\/set-password\?token=[A-Za-z0-9_-]{43}$/,
      );
      expect(link.expiresAt).toBe(t.clock.now() + STAFF_LINK_LIFETIME_MS);
      expect(STAFF_LINK_LIFETIME_MS).toBe(72 * 3_600_000);
      // Only the token's hash is stored; never the token.
      const rows = await t.db.selectFrom('staff_user_links').selectAll().execute();
      expect(rows).toEqual([
        expect.objectContaining({ token_hash: linkTokenHash(tokenOf(link.url)), purpose: 'invitation' }),
      ]);
      expect(JSON.stringify(rows)).not.toContain(tokenOf(link.url));
      expect(await t.services.staffUsers.list()).toEqual([user]);
      expect(await t.services.staffUsers.count()).toBe(1);
    });

    it('an address that is a staff user’s already: 409, whatever its case; nothing more stored', async () => {
      await createBia(t);
      expect(
        await refusal(
          t.services.staffUsers.create(
            { email: 'BIA@operator.example', name: 'B', role: 'operator' },
            OPERATOR,
          ),
        ),
      ).toEqual({ status: 409, code: 'conflict' });
      expect(await t.services.staffUsers.count()).toBe(1);
      expect(await t.db.selectFrom('staff_user_links').selectAll().execute()).toHaveLength(1);
    });

    it('bad input: 422 naming the field, nothing stored', async () => {
      const staffUsers = t.services.staffUsers;
      expect(
        await refusal(staffUsers.create({ email: 'not an address', name: 'X', role: 'support' }, OPERATOR)),
      ).toMatchObject({ status: 422, param: 'email' });
      expect(
        await refusal(
          staffUsers.create({ email: 'x@example.com', name: 'X', role: 'admin' as 'support' }, OPERATOR),
        ),
      ).toMatchObject({ status: 422, param: 'role' });
      expect(
        await refusal(staffUsers.create({ email: 'x@example.com', name: '  ', role: 'support' }, OPERATOR)),
      ).toMatchObject({ status: 422, param: 'name' });
      expect(await staffUsers.count()).toBe(0);
    });
  });

  describe('one-time links: good once, until they expire', () => {
    it('the link sets the password once; the user then signs in; the same link again is used', async () => {
      const staffUsers = t.services.staffUsers;
      const { user, link } = await createBia(t);
      const token = tokenOf(link.url);
      expect(await staffUsers.link(token)).toEqual({ ok: true, user, purpose: 'invitation' });
      expect(await staffUsers.authenticate('bia@operator.example', PASSWORD)).toBeNull();
      const done = await staffUsers.setPasswordWithLink(token, PASSWORD);
      expect(done).toEqual({ ok: true, user: { ...user, active: true }, purpose: 'invitation' });
      expect(await staffUsers.link(token)).toEqual({ ok: false, reason: 'used' });
      expect(await staffUsers.setPasswordWithLink(token, 'another long password')).toEqual({
        ok: false,
        reason: 'used',
      });
      // The first password stands; the address is found whatever its case and spaces.
      expect(await staffUsers.authenticate(' BIA@operator.example ', PASSWORD)).toEqual({
        ...user,
        active: true,
      });
      expect(await staffUsers.authenticate('bia@operator.example', 'another long password')).toBeNull();
      expect(await staffUsers.authenticate('nobody@operator.example', PASSWORD)).toBeNull();
      const row = await t.db.selectFrom('staff_users').selectAll().executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$/);
      expect(row.password_hash).not.toContain(PASSWORD);
    });

    it('expired at 72 hours; unknown for a token never issued; a short password is 422 and uses nothing', async () => {
      const staffUsers = t.services.staffUsers;
      const { link } = await createBia(t);
      const token = tokenOf(link.url);
      expect(await refusal(staffUsers.setPasswordWithLink(token, 'too short'))).toMatchObject({
        status: 422,
        param: 'password',
      });
      t.clock.advance(STAFF_LINK_LIFETIME_MS - 1);
      expect((await staffUsers.link(token)).ok).toBe(true);
      t.clock.advance(1);
      expect(await staffUsers.link(token)).toEqual({ ok: false, reason: 'expired' });
      expect(await staffUsers.setPasswordWithLink(token, PASSWORD)).toEqual({ ok: false, reason: 'expired' });
      expect(await staffUsers.link('x'.repeat(43))).toEqual({ ok: false, reason: 'unknown' });
      expect((await staffUsers.list())[0]?.active).toBe(false);
    });

    it('a fresh link (a forgotten password) ends the earlier ones; the old password works until it is used', async () => {
      const staffUsers = t.services.staffUsers;
      const { user, link } = await createBia(t);
      const second = await staffUsers.newPasswordLink(user.id, OPERATOR);
      expect(second.expiresAt).toBe(t.clock.now() + STAFF_LINK_LIFETIME_MS);
      expect(await staffUsers.link(tokenOf(link.url))).toEqual({ ok: false, reason: 'used' });
      await staffUsers.setPasswordWithLink(tokenOf(second.url), PASSWORD);
      const reset = await staffUsers.newPasswordLink(user.id, OPERATOR);
      expect(await staffUsers.link(tokenOf(reset.url))).toMatchObject({ ok: true, purpose: 'reset' });
      expect(await staffUsers.authenticate(user.email, PASSWORD)).not.toBeNull();
      await staffUsers.setPasswordWithLink(tokenOf(reset.url), 'a brand new long password');
      expect(await staffUsers.authenticate(user.email, PASSWORD)).toBeNull();
      expect(await staffUsers.authenticate(user.email, 'a brand new long password')).not.toBeNull();
      expect(await refusal(staffUsers.newPasswordLink('nobody', OPERATOR))).toEqual({
        status: 404,
        code: 'not_found',
      });
    });

    it('change password: only with the current one; a short new one is 422', async () => {
      const staffUsers = t.services.staffUsers;
      const { user, link } = await createBia(t);
      expect(await staffUsers.changePassword(user.id, '', PASSWORD)).toBe(false); // no password yet
      await staffUsers.setPasswordWithLink(tokenOf(link.url), PASSWORD);
      expect(await staffUsers.changePassword(user.id, 'wrong password here', 'next long password')).toBe(
        false,
      );
      expect(await refusal(staffUsers.changePassword(user.id, PASSWORD, 'short'))).toMatchObject({
        status: 422,
        param: 'password',
      });
      expect(await staffUsers.changePassword(user.id, PASSWORD, 'next long password')).toBe(true);
      expect(await staffUsers.authenticate(user.email, 'next long password')).not.toBeNull();
    });
  });

  describe('disable: no sign-in, no link, and the console’s sessions of that user end', () => {
    it('ends only that user’s console sessions, in the same commit; again changes and records nothing', async () => {
      const staffUsers = t.services.staffUsers;
      const { user, link } = await createBia(t);
      const other = await t.services.staffUsers.create(
        { email: 'caio@operator.example', name: 'Caio', role: 'operator' },
        OPERATOR,
      );
      await staffUsers.setPasswordWithLink(tokenOf(link.url), PASSWORD);
      const session = (id: string, face: string, userId: string) => ({
        id_hash: id,
        face,
        user_id: userId,
        data: '{}',
        expires_at: t.clock.now() + 3_600_000,
      });
      await t.db
        .insertInto('web_sessions')
        .values([
          session('a', STAFF_SESSION_FACE, user.id),
          session('b', STAFF_SESSION_FACE, user.id),
          session('c', STAFF_SESSION_FACE, other.user.id),
          // The same id on the panel is another person.
          session('d', 'panel', user.id),
        ])
        .execute();
      t.clock.advance(1000);
      const disabled = await staffUsers.disable(user.id, OPERATOR);
      expect(disabled).toEqual({ ...user, active: false, disabledAt: t.clock.now() });
      const left = await t.db.selectFrom('web_sessions').select('id_hash').orderBy('id_hash').execute();
      expect(left.map((row) => row.id_hash)).toEqual(['c', 'd']);
      expect(await staffUsers.authenticate(user.email, PASSWORD)).toBeNull();
      expect(await staffUsers.get(user.id)).toBeUndefined();
      expect(await staffUsers.get(other.user.id)).toEqual(other.user);
      expect(await refusal(staffUsers.newPasswordLink(user.id, OPERATOR))).toEqual({
        status: 409,
        code: 'conflict',
      });
      const logged = async () =>
        (await t.services.backOfficeLog.list({ action: 'disableStaffUser' })).actions.length;
      expect(await logged()).toBe(1);
      t.clock.advance(1000);
      expect((await staffUsers.disable(user.id, OPERATOR)).disabledAt).toBe(disabled.disabledAt);
      expect(await logged()).toBe(1);
      expect(await refusal(staffUsers.disable('nobody', OPERATOR))).toEqual({
        status: 404,
        code: 'not_found',
      });
    });

    it('the last operator who can sign in: 409, nothing changed; one waiting for a password does not count', async () => {
      const staffUsers = t.services.staffUsers;
      const olga = await staffUsers.create(
        { email: 'olga@operator.example', name: 'Olga', role: 'operator' },
        OPERATOR,
      );
      await staffUsers.setPasswordWithLink(tokenOf(olga.link.url), PASSWORD);
      // Another operator who has not set a password yet, and an active support user: neither can run
      // the console as an operator.
      const otto = await staffUsers.create(
        { email: 'otto@operator.example', name: 'Otto', role: 'operator' },
        OPERATOR,
      );
      const { user: bia, link } = await createBia(t);
      await staffUsers.setPasswordWithLink(tokenOf(link.url), PASSWORD);
      expect(await refusal(staffUsers.disable(olga.user.id, OPERATOR))).toEqual({
        status: 409,
        code: 'conflict',
      });
      expect(await staffUsers.get(olga.user.id)).toMatchObject({ active: true, disabledAt: null });
      expect((await t.services.backOfficeLog.list({ action: 'disableStaffUser' })).actions).toEqual([]);
      // The waiting operator and support may go; so may Olga once Otto has set his password.
      await staffUsers.disable(bia.id, OPERATOR);
      const ottoLink = await staffUsers.newPasswordLink(otto.user.id, OPERATOR);
      await staffUsers.setPasswordWithLink(tokenOf(ottoLink.url), PASSWORD);
      expect((await staffUsers.disable(olga.user.id, OPERATOR)).disabledAt).toBe(t.clock.now());
      expect(await refusal(staffUsers.disable(otto.user.id, OPERATOR))).toEqual({
        status: 409,
        code: 'conflict',
      });
    });

    it('two operators disabling each other at once: one goes, the other stays', async () => {
      const staffUsers = t.services.staffUsers;
      const operators = [];
      for (const name of ['olga', 'otto']) {
        const { user, link } = await staffUsers.create(
          { email: `${name}@operator.example`, name, role: 'operator' },
          OPERATOR,
        );
        await staffUsers.setPasswordWithLink(tokenOf(link.url), PASSWORD);
        operators.push(user);
      }
      const [olga, otto] = operators as [(typeof operators)[0], (typeof operators)[0]];
      let pending: Promise<PromiseSettledResult<unknown>[]> | undefined;
      // Both start while another writer holds the table: each must count the operators only once the
      // other's change is committed, not before (where each would still see two).
      await t.db.transaction().execute(async (trx) => {
        await lockStaffUsers(trx);
        pending = Promise.allSettled([
          staffUsers.disable(otto.id, { ...OPERATOR, role: 'staff', userId: olga.id }),
          staffUsers.disable(olga.id, { ...OPERATOR, role: 'staff', userId: otto.id }),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 500));
      });
      const attempts = await pending!;
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      expect((await staffUsers.list()).filter((user) => user.active)).toHaveLength(1);
    });

    it('a link issued before the user was disabled is unknown', async () => {
      const { user, link } = await createBia(t);
      await t.services.staffUsers.disable(user.id, OPERATOR);
      expect(await t.services.staffUsers.link(tokenOf(link.url))).toEqual({ ok: false, reason: 'unknown' });
      expect(await t.services.staffUsers.setPasswordWithLink(tokenOf(link.url), PASSWORD)).toEqual({
        ok: false,
        reason: 'unknown',
      });
    });
  });

  describe('the back-office log records each change with its actor, never the link', () => {
    it('create, a fresh link, disable', async () => {
      const staffUsers = t.services.staffUsers;
      const { user, link } = await createBia(t);
      t.clock.advance(1000);
      const second = await staffUsers.newPasswordLink(user.id, { ...OPERATOR, channel: 'cli' });
      t.clock.advance(1000);
      const staff: Actor = {
        role: 'staff',
        userId: 'op1',
        displayName: 'Olga',
        channel: 'console',
        ip: '10.0.0.9',
      };
      await staffUsers.disable(user.id, staff);
      const { actions } = await t.services.backOfficeLog.list();
      expect(actions.map((action) => [action.action, action.target, action.actor.channel])).toEqual([
        ['disableStaffUser', `staff/users/${user.id}`, 'console'],
        ['issueStaffUserPasswordLink', `staff/users/${user.id}`, 'cli'],
        ['createStaffUser', `staff/users/${user.id}`, 'admin_api'],
      ]);
      expect(actions[0]?.actor).toEqual({
        role: 'staff',
        userId: 'op1',
        displayName: 'Olga',
        channel: 'console',
        ip: '10.0.0.9',
      });
      expect(actions[2]?.details).toEqual({
        email: 'bia@operator.example',
        name: 'Bia',
        role: 'support',
        link_expires_at: '2026-11-23T12:00:00Z',
      });
      const stored = JSON.stringify(await t.db.selectFrom('back_office_actions').selectAll().execute());
      for (const secret of [tokenOf(link.url), tokenOf(second.url), linkTokenHash(tokenOf(link.url))]) {
        expect(stored).not.toContain(secret);
      }
    });
  });

  describe('the first operator: only while there is no staff user at all', () => {
    it('creates an active operator with a password at once; a second time: 409', async () => {
      const staffUsers = t.services.staffUsers;
      const actor: Actor = { role: 'operator', channel: 'console', ip: '10.0.0.1' };
      const first = await staffUsers.createFirstOperator(
        { email: 'Olga@Operator.Example', name: 'Olga', password: PASSWORD },
        actor,
      );
      expect(first).toMatchObject({ email: 'olga@operator.example', role: 'operator', active: true });
      expect(await staffUsers.authenticate('olga@operator.example', PASSWORD)).toEqual(first);
      expect(
        await refusal(
          staffUsers.createFirstOperator(
            { email: 'other@operator.example', name: 'O', password: PASSWORD },
            actor,
          ),
        ),
      ).toEqual({ status: 409, code: 'conflict' });
      const { actions } = await t.services.backOfficeLog.list();
      expect(actions.map((action) => [action.action, action.target])).toEqual([
        ['createFirstStaffOperator', `staff/users/${first.id}`],
      ]);
      expect(JSON.stringify(actions)).not.toContain(PASSWORD);
    });

    it('not once any staff user exists, a disabled one too', async () => {
      const { user } = await createBia(t);
      await t.services.staffUsers.disable(user.id, OPERATOR);
      expect(
        await refusal(
          t.services.staffUsers.createFirstOperator(
            { email: 'olga@operator.example', name: 'Olga', password: PASSWORD },
            OPERATOR,
          ),
        ),
      ).toEqual({ status: 409, code: 'conflict' });
    });

    it('bad input: 422 naming the field (a short password), nothing stored', async () => {
      expect(
        await refusal(
          t.services.staffUsers.createFirstOperator(
            { email: 'olga@operator.example', name: 'Olga', password: 'short' },
            OPERATOR,
          ),
        ),
      ).toMatchObject({ status: 422, param: 'password' });
      expect(await t.services.staffUsers.count()).toBe(0);
    });

    it('two at once, with different addresses: one wins, the other gets 409', async () => {
      const staffUsers = t.services.staffUsers;
      const attempts = await Promise.allSettled(
        ['olga', 'otto', 'oona'].map((name) =>
          staffUsers.createFirstOperator(
            { email: `${name}@operator.example`, name, password: PASSWORD },
            OPERATOR,
          ),
        ),
      );
      expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(1);
      for (const attempt of attempts) {
        if (attempt.status === 'rejected') {
          expect(attempt.reason).toBeInstanceOf(Problem);
          expect((attempt.reason as Problem).code).toBe('conflict');
        }
      }
      expect(await staffUsers.count()).toBe(1);
    });

    it('one that starts while another’s insert is not committed yet waits for it, then gets 409', async () => {
      const staffUsers = t.services.staffUsers;
      let pending: Promise<unknown> | undefined;
      await t.db.transaction().execute(async (trx) => {
        await lockStaffUsers(trx);
        await trx
          .insertInto('staff_users')
          .values({
            id: 'first',
            email: 'olga@operator.example',
            name: 'Olga',
            role: 'operator',
            password_hash: null,
            disabled_at: null,
            created_at: t.clock.now(),
            updated_at: t.clock.now(),
          })
          .execute();
        // Started while the row above is uncommitted: no count can see it until the commit.
        pending = staffUsers.createFirstOperator(
          { email: 'otto@operator.example', name: 'Otto', password: PASSWORD },
          OPERATOR,
        );
        pending.catch(() => undefined); // judged after the commit
        await new Promise((resolve) => setTimeout(resolve, 500));
      });
      expect(await refusal(pending!)).toEqual({ status: 409, code: 'conflict' });
      expect(await staffUsers.count()).toBe(1);
    });
  });
});
