import { describe, expect, it } from 'vitest';
import { bodyOf } from '../expect-http.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { asOperator, ISO_SECONDS } from './fixtures.js';
import { createStaffUser, STAFF, tokenOf } from './staff-admin-fixtures.js';

// Staff users through the admin API (docs/back-office.md, Staff users): the operator creates one with a role and is
// answered the one-time link (72 hours) to hand over, lists them, issues a fresh link, disables one.

const PASSWORD = 'uma frase longa e segura';

describeEachDialect('admin API, staff users', (dialect) => {
  const t = useTestApp(dialect, { config: { ADMIN_HOST: '0.0.0.0', ADMIN_PORT: '9081' } });

  describe('POST /admin/v1/staff/users: 201 with the set-password link', () => {
    it('the user without a password yet, and the link on the console of ADMIN_BASE_URL’s default', async () => {
      const created = await createStaffUser(t, { email: ' Bia@Operator.EXAMPLE', role: 'operator' });
      expect(created).toEqual({
        id: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
        email: 'bia@operator.example',
        name: 'Bia',
        role: 'operator',
        active: false,
        disabled_at: null,
        created_at: '2026-11-20T12:00:00Z',
        // The admin listener listens everywhere: the link names this machine's loopback address.
        set_password_url: expect.stringMatching(
          /^http:\/\/127\.0\.0\.1:9081\/console\/set-password\?token=[A-Za-z0-9_-]{43}$/,
        ),
        set_password_expires_at: '2026-11-23T12:00:00Z',
      });
      const link = await t.services.staffUsers.link(tokenOf(created.set_password_url));
      expect(link).toMatchObject({ ok: true, purpose: 'invitation', user: { id: created.id } });
    });
  });

  describe('GET /admin/v1/staff/users: every staff user, by address, never a password or hash', () => {
    it('active once the link set a password; disabled ones too, with their instant', async () => {
      const bia = await createStaffUser(t);
      const caio = await createStaffUser(t, { email: 'caio@operator.example', name: 'Caio' });
      await t.services.staffUsers.setPasswordWithLink(tokenOf(bia.set_password_url), PASSWORD);
      t.clock.advance(60_000);
      await t.admin('POST', `${STAFF}/${String(caio.id)}/disable`);
      const response = await asOperator(t, 'GET', STAFF);
      expect(response.statusCode).toBe(200);
      const users = JSON.parse(response.body) as Record<string, unknown>[];
      expect(users.map((user) => [user.email, user.active, user.disabled_at])).toEqual([
        ['bia@operator.example', true, null],
        ['caio@operator.example', false, '2026-11-20T12:01:00Z'],
      ]);
      expect(response.body).not.toMatch(/hash|scrypt|token|password/);
    });
  });

  describe('POST …/{id}/password-link: 201, a fresh link; the earlier ones stop working', () => {
    it('the new link works, the old one is used', async () => {
      const created = await createStaffUser(t);
      t.clock.advance(3_600_000);
      const response = await asOperator(t, 'POST', `${STAFF}/${String(created.id)}/password-link`);
      expect(response.statusCode, response.body).toBe(201);
      const fresh = bodyOf(response);
      expect(Object.keys(fresh).sort()).toEqual(['set_password_expires_at', 'set_password_url']);
      expect(fresh.set_password_expires_at).toBe('2026-11-23T13:00:00Z');
      expect(fresh.set_password_url).not.toBe(created.set_password_url);
      expect(await t.services.staffUsers.link(tokenOf(created.set_password_url))).toEqual({
        ok: false,
        reason: 'used',
      });
      const done = await t.services.staffUsers.setPasswordWithLink(tokenOf(fresh.set_password_url), PASSWORD);
      expect(done.ok).toBe(true);
    });
  });

  describe('POST …/{id}/disable: 200 with the user', () => {
    it('disabled: no sign-in; again answers the same user', async () => {
      const created = await createStaffUser(t);
      await t.services.staffUsers.setPasswordWithLink(tokenOf(created.set_password_url), PASSWORD);
      const response = await asOperator(t, 'POST', `${STAFF}/${String(created.id)}/disable`, {});
      expect(response.statusCode, response.body).toBe(200);
      const disabled = bodyOf(response);
      expect(disabled).toMatchObject({ id: created.id, active: false });
      expect(disabled.disabled_at).toMatch(ISO_SECONDS);
      expect(await t.services.staffUsers.authenticate('bia@operator.example', PASSWORD)).toBeNull();
      const again = await asOperator(t, 'POST', `${STAFF}/${String(created.id)}/disable`);
      expect([again.statusCode, bodyOf(again)]).toEqual([200, disabled]);
    });
  });
});
