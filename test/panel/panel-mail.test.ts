import { describe, expect, it } from 'vitest';
import { redactKeys } from '../../src/lib/redact-keys.js';
import { createLogMailTransport } from '../../src/mail/log-transport.js';
import { claimDueMail } from '../../src/mail/outbox-repository.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The panel's e-mails (issue 13, Who signs in): the invitation and the password reset are written to the
// outbox in the transaction of their one-time link, and the log transport (no SMTP_URL) never writes the
// link's token.

const LINK = /http:\/\/panel\.test\/panel\/set-password\?token=([A-Za-z0-9_-]{43})/;

async function outbox(t: TestApp) {
  return t.db.selectFrom('mail_outbox').select(['kind', 'recipient', 'text_body', 'html_body']).execute();
}

describe('merchant panel: invitation and password reset e-mails', () => {
  describeEachDialect('through the outbox', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('an invitation writes its message with the link; the link works; a refused invitation writes none', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
      await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'Ana@Example.com', name: 'Ana' });
      const [message, ...more] = await outbox(t);
      expect(more).toEqual([]);
      expect(message).toMatchObject({ kind: 'panel_invitation', recipient: 'ana@example.com' });
      const token = LINK.exec(message!.text_body)![1]!;
      expect(message!.html_body).toContain(`href="http://panel.test/panel/set-password?token=${token}"`);
      await expect(t.services.merchantUsers.link(token)).resolves.toMatchObject({
        ok: true,
        purpose: 'invitation',
      });

      // Unknown account, and an address of another account: refused, and nothing written.
      const unknown = await t.adminRaw({
        method: 'POST',
        url: '/admin/v1/pos/accounts/nobody/users',
        payload: { email: 'x@example.com', name: 'X' },
      });
      expect(unknown.statusCode).toBe(404);
      await t.admin('PUT', '/admin/v1/pos/accounts/other', { name: 'Other' });
      const taken = await t.adminRaw({
        method: 'POST',
        url: '/admin/v1/pos/accounts/other/users',
        payload: { email: 'ana@example.com', name: 'Ana' },
      });
      expect(taken.statusCode).toBe(409);
      expect(await outbox(t)).toHaveLength(1);
    });

    it('two first invitations of one address at once: both answered, one user, each invitation mailed', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
      const invite = () =>
        t.adminRaw({
          method: 'POST',
          url: '/admin/v1/pos/accounts/acme/users',
          payload: { email: 'bia@example.com', name: 'Bia' },
        });
      const answers = await Promise.all([invite(), invite(), invite()]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([201, 201, 201]);
      const users = await t.db.selectFrom('merchant_users').select('email').execute();
      expect(users).toEqual([{ email: 'bia@example.com' }]);
      expect((await outbox(t)).map((message) => message.kind)).toEqual([
        'panel_invitation',
        'panel_invitation',
        'panel_invitation',
      ]);
    });

    it('a password reset writes its message for a user only; the log transport writes no token', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
      await t.services.merchantUsers.ensureWithPassword('acme', 'ana@example.com', 'Ana', 'uma frase longa');
      await t.services.merchantUsers.requestPasswordReset('nobody@example.com');
      await t.services.merchantUsers.requestPasswordReset('ANA@example.com');
      // Queued, for either address alike; the e-mail sender's poll turns them into the user's e-mail.
      expect(await outbox(t)).toEqual([]);
      expect(await t.services.merchantUsers.sendRequestedResets()).toBe(2);
      const [reset, ...more] = await outbox(t);
      expect(more).toEqual([]);
      expect(reset).toMatchObject({ kind: 'panel_password_reset', recipient: 'ana@example.com' });
      const token = LINK.exec(reset!.text_body)![1]!;

      const lines: { fields: object; message: string }[] = [];
      const transport = createLogMailTransport({
        info: (fields, message) => lines.push({ fields, message }),
      });
      const [mail] = await claimDueMail(t.db, { now: t.clock.now(), leaseMs: 60_000, limit: 10, token: 'x' });
      await transport.send(mail!);
      const logged = JSON.stringify(lines);
      expect(logged).not.toContain(token);
      expect(logged).toContain('http://panel.test/panel/set-password?…');
      expect(logged).toContain('Redefini');
    });
  });
  it('the request log writes a one-time link without its token', () => {
    const token = 'aB3_'.repeat(10) + 'xyz';
    expect(redactKeys(`/panel/set-password?token=${token}`)).toBe('/panel/set-password?token=[redacted]');
    expect(redactKeys(`/panel/set-password?lang=en&token=${token}#x`)).toBe(
      '/panel/set-password?lang=en&token=[redacted]#x',
    );
  });
});
