import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The panel's identity pages against an attacker (issue 20, items 4, 5 and 6): a reset request is never
// a sign-in attempt, the change-password form is limited per user across sessions, and a reset link
// sent before a password change is worth nothing after it.

const PASSWORD = 'uma frase longa e segura';
const NEW_PASSWORD = 'outra frase longa e segura';
const LINK = /set-password\?token=([A-Za-z0-9_-]{43})/;

/** A browser's cookie jar over inject, from one client IP. */
function browser(t: TestApp, ip = '192.0.2.10') {
  const jar = new Map<string, string>();
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as { name: string; value: string }[])
      jar.set(cookie.name, cookie.value);
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const get = async (url: string) =>
    remember(await t.call({ method: 'GET', url, remoteAddress: ip, headers: { cookie: cookie() } }));
  const token = (page: LightMyRequestResponse) => /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return {
    get,
    setCookie: (name: string, value: string) => jar.set(name, value),
    /** Posts a form as its page (`from`) does, with that page's CSRF token. */
    post: async (url: string, form: Record<string, string>, from = url) => {
      const csrf = token(await get(from));
      return remember(
        await t.call({
          method: 'POST',
          url,
          remoteAddress: ip,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ ...form, _csrf: csrf }).toString(),
        }),
      );
    },
  };
}

async function merchant(t: TestApp, email = 'ana@acme.test') {
  await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
  return t.services.merchantUsers.ensureWithPassword('acme', email, 'Ana', PASSWORD);
}

async function signIn(t: TestApp, email: string, password: string, ip?: string) {
  const b = browser(t, ip);
  const done = await b.post('/panel/sign-in', { email, password });
  return { b, done };
}

/** The reset e-mails written so far (as the e-mail sender's poll first turns the requests into them). */
async function resetMails(t: TestApp, email: string) {
  await t.services.merchantUsers.sendRequestedResets();
  return t.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('recipient', '=', email)
    .where('kind', '=', 'panel_password_reset')
    .orderBy('seq')
    .execute();
}

describe('merchant panel: identity limits and links', () => {
  describeEachDialect('on the public listener', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('reset requests never count as sign-in attempts: after a flood of them the owner signs in (item 4)', async () => {
      await merchant(t);
      const attacker = browser(t, '198.51.100.7');
      for (let i = 0; i < 12; i += 1) {
        const answer = await attacker.post('/panel/password-reset', { email: 'ana@acme.test' });
        expect(answer.statusCode).toBe(303);
        expect(answer.headers.location).toBe('/panel/sign-in');
      }
      const { done } = await signIn(t, 'ana@acme.test', PASSWORD, '203.0.113.9');
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/panel/keys');
    });

    it('reset requests are limited on their own counters: over the limit the same page, and no e-mail (item 4)', async () => {
      await merchant(t);
      const b = browser(t, '198.51.100.8');
      const answers: string[] = [];
      for (let i = 0; i < 7; i += 1) {
        const answer = await b.post('/panel/password-reset', { email: 'ana@acme.test' });
        const page = await b.get(String(answer.headers.location));
        answers.push(
          `${answer.statusCode} ${answer.headers.location} ${/role="status"[^>]*>([^<]*)/.exec(page.body)?.[1]}`,
        );
      }
      // Five e-mails per address in 15 minutes; the sixth and seventh answer as the first did.
      expect(new Set(answers).size).toBe(1);
      expect(await resetMails(t, 'ana@acme.test')).toHaveLength(5);
      // Another address from the same IP still gets its e-mail (20 per IP).
      await merchant(t, 'bia@acme.test');
      await b.post('/panel/password-reset', { email: 'bia@acme.test' });
      expect(await resetMails(t, 'bia@acme.test')).toHaveLength(1);
    });

    // Fourteen scrypt hashes: a minute and more on a loaded machine.
    it(
      'change-password attempts are limited per user across sessions: the 11th is a 429 page with Retry-After, the password unchanged (item 5)',
      { timeout: 180_000 },
      async () => {
        await merchant(t);
        const first = (await signIn(t, 'ana@acme.test', PASSWORD)).b;
        const second = (await signIn(t, 'ana@acme.test', PASSWORD, '203.0.113.20')).b;
        second.setCookie('lang', 'en');
        const guess = (b: ReturnType<typeof browser>, current: string) =>
          b.post('/panel/account/password', { current, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
        for (let i = 0; i < 10; i += 1) {
          expect((await guess(i % 2 === 0 ? first : second, `wrong guess ${i}`)).statusCode).toBe(422);
        }
        const limited = await guess(first, 'wrong guess 10');
        expect(limited.statusCode).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(limited.body).toContain('Muitas tentativas de trocar a senha');
        // Even the right current password waits now, from the other session, in its language.
        const right = await guess(second, PASSWORD);
        expect(right.statusCode).toBe(429);
        expect(right.body).toContain('Too many attempts to change the password');
        expect(await t.services.merchantUsers.authenticate('ana@acme.test', PASSWORD)).not.toBeNull();
        expect(await t.services.merchantUsers.authenticate('ana@acme.test', NEW_PASSWORD)).toBeNull();
        // The window passes: the right password changes it.
        t.clock.advance(15 * 60_000 + 1000);
        expect((await guess(second, PASSWORD)).statusCode).toBe(303);
        expect(await t.services.merchantUsers.authenticate('ana@acme.test', NEW_PASSWORD)).not.toBeNull();
      },
    );

    it('a reset link sent before a password change in the panel is refused after it (item 6)', async () => {
      await merchant(t);
      await browser(t).post('/panel/password-reset', { email: 'ana@acme.test' });
      const [mail] = await resetMails(t, 'ana@acme.test');
      const token = LINK.exec(mail?.text_body ?? '')?.[1] ?? '';
      const b = (await signIn(t, 'ana@acme.test', PASSWORD)).b;
      expect((await b.get(`/panel/set-password?token=${token}`)).statusCode).toBe(200);
      const changed = await b.post('/panel/account/password', {
        current: PASSWORD,
        password: NEW_PASSWORD,
        confirm: NEW_PASSWORD,
      });
      expect(changed.statusCode).toBe(303);
      const stale = browser(t, '198.51.100.9');
      const page = await stale.get(`/panel/set-password?token=${token}`);
      expect(page.statusCode).toBe(410);
      const used = await stale.post(
        '/panel/set-password',
        { token, password: 'a frase de quem roubou', confirm: 'a frase de quem roubou' },
        '/panel/sign-in',
      );
      expect(used.statusCode).toBe(410);
      expect(await t.services.merchantUsers.authenticate('ana@acme.test', NEW_PASSWORD)).not.toBeNull();
    });
  });
});
