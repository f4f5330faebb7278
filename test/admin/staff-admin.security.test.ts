import { describe, expect, it } from 'vitest';
import { expectProblem } from '../expect-http.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { asSupport } from './fixtures.js';
import { ACTIONS, createStaffUser, STAFF } from './staff-admin-fixtures.js';

// Who may manage staff users and read the back-office log (docs/back-office.md, Staff users): the operator's token
// only; support gets 403 and changes nothing, no token 401.

describeEachDialect('admin API, staff users: tokens and roles', (dialect) => {
  const t = useTestApp(dialect);

  describe('the operator only', () => {
    it('support gets 403 on every staff route and the action log, and nothing changes', async () => {
      const created = await createStaffUser(t);
      const id = String(created.id);
      const before = await t.db.selectFrom('staff_users').selectAll().execute();
      const actions = await t.db.selectFrom('back_office_actions').selectAll().execute();
      for (const [method, url, body] of [
        ['POST', STAFF, { email: 'caio@operator.example', name: 'Caio', role: 'operator' }],
        ['GET', STAFF, undefined],
        ['POST', `${STAFF}/${id}/password-link`, undefined],
        ['POST', `${STAFF}/${id}/disable`, undefined],
        ['GET', ACTIONS, undefined],
      ] as const) {
        expectProblem(await asSupport(t, method, url, body), 403, 'forbidden');
      }
      expect(await t.db.selectFrom('staff_users').selectAll().execute()).toEqual(before);
      expect(await t.db.selectFrom('back_office_actions').selectAll().execute()).toEqual(actions);
    });

    it('without a token: 401', async () => {
      for (const url of [STAFF, ACTIONS]) {
        expectProblem(await t.app.admin.inject({ method: 'GET', url }), 401, 'unauthorized');
      }
    });
  });

  describe('the link is answered once, and kept nowhere else', () => {
    it('neither the listing, nor the log, nor the stored links hold the token', async () => {
      const created = await createStaffUser(t);
      const token = new URL(String(created.set_password_url)).searchParams.get('token') ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const listing = await t.admin('GET', STAFF);
      const log = await t.admin('GET', ACTIONS);
      const stored = JSON.stringify(await t.db.selectFrom('staff_user_links').selectAll().execute());
      for (const text of [listing.body, log.body, stored]) expect(text).not.toContain(token);
    });
  });
});
