import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { MAILBOX_MESSAGES } from '../../src/console/messages/mailbox.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { csrfIn, signedInStaff, staffWithPassword } from './console-agent.js';

// The console's development mailbox (docs/operations.md, Reading e-mail locally): outside production the
// operator lists the e-mail the service sent and reads each whole, its links clickable and every value
// escaped; the HTML version is a document of its own under a sandboxing CSP, never part of a console
// page. Support gets 403 and no navigation entry. In production the pages do not exist (the console's
// 404 page) and the navigation does not name them.

const PT = MAILBOX_MESSAGES['pt-BR'];
const LINK = /http:\/\/panel\.test\/panel\/set-password\?token=[A-Za-z0-9_-]{43}/;

/** The console's navigation links of a page. */
const navHrefs = (page: string) =>
  [...(/<nav[\s\S]*?<\/nav>/.exec(page)?.[0] ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

/** A merchant invited and the sender's poll: one message in the mailbox; its id. */
async function invitationSent(t: TestApp): Promise<string> {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
  await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'ana@acme.example', name: 'Ana' });
  await t.services.mailSender.sendDue();
  const [entry] = await t.services.mailbox!.list();
  return entry!.id;
}

describe('console: development mailbox', () => {
  describeEachDialect('outside production', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('the operator: the list newest first, a message whole with its link clickable, its HTML alone and sandboxed', async () => {
      const { agent } = await signedInStaff(t, 'operator');
      const empty = await agent.get('/console/mailbox');
      expect(empty.statusCode).toBe(200);
      expect(empty.body).toContain(PT.mailNone);
      expect(navHrefs(empty.body)).toContain('/console/mailbox');

      const id = await invitationSent(t);
      const list = await agent.get('/console/mailbox');
      expect(list.body).toContain(`href="/console/mailbox/${id}"`);
      expect(list.body).toContain('ana@acme.example');
      expect(list.body).toContain('panel_invitation');

      const page = await agent.get(`/console/mailbox/${id}`);
      expect(page.statusCode).toBe(200);
      const link = LINK.exec(page.body)?.[0];
      expect(link).toBeDefined();
      // In the list of links and in the text, as links (the page's `&` written `&amp;`: none here).
      expect(
        page.body.match(new RegExp(`<a class="mono" href="${link!.replace(/[?]/g, '\\?')}">`, 'g')),
      ).toHaveLength(1);
      expect(page.body).toMatch(
        new RegExp(
          `<pre class="pre mono" id="mail-text">[\\s\\S]*<a href="${link!.replace(/[?]/g, '\\?')}">`,
        ),
      );
      expect(page.body).toContain(`href="/console/mailbox/${id}/html"`);
      expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'/);

      const document = await agent.get(`/console/mailbox/${id}/html`);
      expect(document.statusCode).toBe(200);
      expect(document.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(document.headers['content-security-policy']).toMatch(/^sandbox; default-src 'none';/);
      expect(document.headers['cache-control']).toBe('no-store');
      expect(document.body).toBe((await t.services.mailbox!.find(id))!.html);
    });

    it('a hostile message is shown as text: subject, address, text and a javascript: URL never become markup', async () => {
      const { agent } = await signedInStaff(t, 'operator');
      const id = '00000000-0000-7000-8000-000000000666';
      await t.services.mailbox!.keep(
        {
          id,
          kind: '<b>kind</b>',
          to: 'x"@acme.example',
          subject: '<script>alert(1)</script>',
          text: 'Hi <img src=x onerror=alert(1)>\njavascript:alert(1)\nhttps://ok.test/a?b=1&c="x"\n',
          html: '<script>alert(1)</script><p>hi</p>',
        },
        'log',
      );
      const list = await agent.get('/console/mailbox');
      expect(list.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(list.body).not.toContain('<script>alert');
      const page = await agent.get(`/console/mailbox/${id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).not.toContain('<img');
      expect(page.body).not.toContain('<b>kind');
      expect(page.body).toContain('Hi &lt;img src=x onerror=alert(1)&gt;');
      expect(page.body).not.toContain('href="javascript:');
      expect(page.body).toContain('<a href="https://ok.test/a?b=1&amp;c=">https://ok.test/a?b=1&amp;c=</a>');
      // The HTML as sent, but sandboxed: no script runs there, and it is not the console's origin.
      const document = await agent.get(`/console/mailbox/${id}/html`);
      expect(document.headers['content-security-policy']).toMatch(/^sandbox;/);
    });

    it('an unknown message is the console’s 404 page; support gets 403 and no navigation entry', async () => {
      const { agent } = await signedInStaff(t, 'operator');
      for (const path of ['/console/mailbox/nope', '/console/mailbox/nope/html']) {
        const missing = await agent.get(path);
        expect(missing.statusCode, path).toBe(404);
        expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(missing.body).toContain('Página não encontrada');
        // The console's own policy on its 404 page, not the message's.
        expect(missing.headers['content-security-policy']).toMatch(/^default-src 'none'/);
      }
      const id = await invitationSent(t);
      const support = await signedInStaff(t, 'support');
      for (const path of ['/console/mailbox', `/console/mailbox/${id}`, `/console/mailbox/${id}/html`]) {
        const refused = await support.agent.get(path);
        expect(refused.statusCode, path).toBe(403);
        expect(refused.body).not.toMatch(LINK);
      }
      expect(navHrefs((await support.agent.get('/console/find')).body)).not.toContain('/console/mailbox');
    });
  });

  describeEachDialect('in production (behind its TLS proxy)', (dialect) => {
    const PROXY = '10.0.0.1';
    const t = useTestApp(dialect, {
      config: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://panel.test', TRUST_PROXY: PROXY },
    });

    it('no mailbox page (the console’s 404 page) and no navigation entry, for the operator too', async () => {
      const { email, password } = await staffWithPassword(t, 'operator');
      const jar = new Map<string, string>();
      const send = async (options: InjectOptions): Promise<LightMyRequestResponse> => {
        const response = await t.app.admin.inject({
          remoteAddress: PROXY,
          ...options,
          headers: {
            'x-forwarded-proto': 'https',
            cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '),
            ...options.headers,
          },
        });
        for (const cookie of response.cookies as { name: string; value: string }[])
          jar.set(cookie.name, cookie.value);
        return response;
      };
      const signIn = await send({
        method: 'POST',
        url: '/console/sign-in',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          _csrf: csrfIn((await send({ method: 'GET', url: '/console/sign-in' })).body),
          email,
          password,
        }).toString(),
      });
      expect(signIn.statusCode).toBe(303);
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
      await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'ana@acme.example', name: 'Ana' });
      await t.services.mailSender.sendDue();

      const dashboard = await send({ method: 'GET', url: '/console/dashboard' });
      expect(dashboard.statusCode).toBe(200);
      expect(navHrefs(dashboard.body)).toContain('/console/staff');
      expect(navHrefs(dashboard.body)).not.toContain('/console/mailbox');
      expect(dashboard.body).not.toContain(PT.navMailbox);
      for (const path of ['/console/mailbox', '/console/mailbox/x', '/console/mailbox/x/html']) {
        const page = await send({ method: 'GET', url: path });
        expect(page.statusCode, path).toBe(404);
        expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(page.body).toContain('Página não encontrada');
      }
    });
  });
});
