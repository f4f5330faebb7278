import { describe, expect, it } from 'vitest';
import { expectProblem } from '../expect-http.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { asOperator, expectInvalidParam } from './fixtures.js';
import { createStaffUser, STAFF, tokenOf } from './staff-admin-fixtures.js';

// Staff users in the back office refusing what they must (docs/back-office.md, Staff users; docs/admin-rules.md, intro):
// 422 naming the field, 409 for an address that is taken, a disabled user's link or the last operator who
// can sign in, 404 for a user that does not exist; a refusal changes nothing and records nothing.

describeEachDialect('admin API, staff users: refusals', (dialect) => {
  const t = useTestApp(dialect);

  const stored = async () => ({
    users: await t.db.selectFrom('staff_users').selectAll().orderBy('id').execute(),
    links: await t.db.selectFrom('staff_user_links').selectAll().orderBy('token_hash').execute(),
    actions: await t.db.selectFrom('back_office_actions').selectAll().orderBy('seq').execute(),
  });

  describe('create: 422 naming the field, nothing stored', () => {
    it('each bad field is named in param and detail', async () => {
      const good = { email: 'bia@operator.example', name: 'Bia', role: 'support' };
      const before = await stored();
      for (const [body, param] of [
        [{ ...good, email: 'bia at operator' }, 'body.email'],
        [{ ...good, email: `${'b'.repeat(250)}@x.example` }, 'body.email'],
        [{ name: 'Bia', role: 'support' }, 'body.email'],
        [{ ...good, name: '' }, 'body.name'],
        [{ ...good, name: 'B'.repeat(201) }, 'body.name'],
        [{ ...good, role: 'admin' }, 'body.role'],
        [{ email: good.email, name: 'Bia' }, 'body.role'],
        [{ ...good, password: 'not here' }, 'body'],
      ] as const) {
        expectInvalidParam(await asOperator(t, 'POST', STAFF, body), param);
      }
      const missing = await asOperator(t, 'POST', STAFF);
      expectInvalidParam(missing, 'body');
      expect(await stored()).toEqual(before);
    });

    it('the role’s refusal says which roles there are', async () => {
      const response = await asOperator(t, 'POST', STAFF, {
        email: 'x@operator.example',
        name: 'X',
        role: 'root',
      });
      expect(String(expectInvalidParam(response, 'body.role').detail)).toBe(
        'body.role: must be operator or support',
      );
    });
  });

  describe('409 conflict', () => {
    it('an address that is a staff user’s already, in any case', async () => {
      await createStaffUser(t);
      const before = await stored();
      const response = await asOperator(t, 'POST', STAFF, {
        email: 'BIA@operator.example',
        name: 'Another Bia',
        role: 'operator',
      });
      expect(String(expectProblem(response, 409, 'conflict').detail)).toContain('bia@operator.example');
      expect(await stored()).toEqual(before);
    });

    it('a fresh link for a disabled user', async () => {
      const created = await createStaffUser(t);
      await t.admin('POST', `${STAFF}/${String(created.id)}/disable`);
      const before = await stored();
      expectProblem(
        await asOperator(t, 'POST', `${STAFF}/${String(created.id)}/password-link`),
        409,
        'conflict',
      );
      expect(await stored()).toEqual(before);
    });

    it('the last operator who can sign in: the console would be left without one', async () => {
      const created = await createStaffUser(t, { email: 'olga@operator.example', role: 'operator' });
      const done = await t.services.staffUsers.setPasswordWithLink(
        tokenOf(created.set_password_url),
        'a long enough passphrase',
      );
      expect(done.ok).toBe(true);
      const before = await stored();
      const response = await asOperator(t, 'POST', `${STAFF}/${String(created.id)}/disable`);
      expect(String(expectProblem(response, 409, 'conflict').detail)).toContain('last operator');
      expect(await stored()).toEqual(before);
    });
  });

  describe('404 and bad ids', () => {
    it('a user that does not exist: 404 for a link and for disable', async () => {
      for (const action of ['password-link', 'disable']) {
        expectProblem(await asOperator(t, 'POST', `${STAFF}/nobody/${action}`), 404, 'not_found');
      }
      expect((await stored()).actions).toEqual([]);
    });

    it('an id that cannot be one: 422 path.id', async () => {
      expectInvalidParam(await asOperator(t, 'POST', `${STAFF}/no%20body/disable`), 'path.id');
      expectInvalidParam(await asOperator(t, 'POST', `${STAFF}/${'a'.repeat(65)}/password-link`), 'path.id');
    });
  });
});
