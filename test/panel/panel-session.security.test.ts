import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The panel's sessions and forms (issue 13, What must show: "a form posted without the token is refused;
// another account's key id is 404"), its sign-in limits, and its separation from the APIs.

const PASSWORD = 'uma frase longa e segura';

/** A browser's cookie jar over inject. */
function browser(t: TestApp) {
  const jar = new Map<string, string>();
  const remember = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies as { name: string; value: string }[])
      jar.set(cookie.name, cookie.value);
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    get: async (url: string) => remember(await t.call({ method: 'GET', url, headers: { cookie: cookie() } })),
    post: async (url: string, form: Record<string, string>) =>
      remember(
        await t.call({
          method: 'POST',
          url,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(form).toString(),
        }),
      ),
    /** The CSRF token of the page's forms. */
    token: (page: LightMyRequestResponse) => /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '',
  };
}

async function signedInUser(t: TestApp, account: string, email: string) {
  await t.admin('PUT', `/admin/v1/pos/accounts/${account}`, { name: account });
  await t.services.merchantUsers.ensureWithPassword(account, email, 'User', PASSWORD);
  const b = browser(t);
  const page = await b.get('/panel/sign-in');
  const done = await b.post('/panel/sign-in', { _csrf: b.token(page), email, password: PASSWORD });
  expect(done.statusCode).toBe(303);
  expect(done.headers.location).toBe('/panel/keys');
  return b;
}

describe('merchant panel: sessions, CSRF and limits', () => {
  describeEachDialect('on the public listener', (dialect) => {
    const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

    it('the session and CSRF cookies are HttpOnly, SameSite=Lax, scoped to /panel; pages carry a CSP without inline code', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'acme' });
      await t.services.merchantUsers.ensureWithPassword('acme', 'a@acme.test', 'User', PASSWORD);
      const b = browser(t);
      const page = await b.get('/panel/sign-in');
      expect(page.statusCode).toBe(200);
      // A visitor's page sets the CSRF secret's cookie only; the session's comes with the sign-in.
      const csrfCookie = String(page.headers['set-cookie']);
      expect(csrfCookie).not.toMatch(/panel_session=/);
      const signIn = await b.post('/panel/sign-in', {
        _csrf: b.token(page),
        email: 'a@acme.test',
        password: PASSWORD,
      });
      expect(signIn.statusCode).toBe(303);
      const sessionCookie = String(signIn.headers['set-cookie']);
      expect(sessionCookie).toMatch(/panel_session=/);
      expect(csrfCookie).toMatch(/panel_csrf=/);
      for (const cookie of [sessionCookie, csrfCookie]) {
        expect(cookie).toMatch(/HttpOnly/);
        expect(cookie).toMatch(/SameSite=Lax/);
        expect(cookie).toMatch(/Path=\/panel/);
      }
      const csp = String(page.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.body).not.toMatch(/<script>|style="/);
    });

    it('one-time links (invitation 72 h): unknown, used and expired answer 410 saying which, and set nothing', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
      const invite = async (email: string) => {
        await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email, name: 'Ana' });
        const last = await t.db
          .selectFrom('mail_outbox')
          .select('text_body')
          .where('recipient', '=', email)
          .orderBy('seq', 'desc')
          .executeTakeFirst();
        return /set-password\?token=([A-Za-z0-9_-]{43})/.exec(last?.text_body ?? '')?.[1] ?? '';
      };
      const b = browser(t);
      const unknown = await b.get(`/panel/set-password?token=${'x'.repeat(43)}`);
      expect(unknown.statusCode).toBe(410);
      expect(unknown.body).toContain('Este link não é válido.');

      const token = await invite('ana@acme.test');
      const form = await b.get(`/panel/set-password?token=${token}`);
      expect(form.statusCode).toBe(200);
      const fields = { _csrf: b.token(form), token, password: PASSWORD, confirm: PASSWORD };
      expect((await b.post('/panel/set-password', fields)).statusCode).toBe(303);
      const used = await b.get(`/panel/set-password?token=${token}`);
      expect(used.statusCode).toBe(410);
      expect(used.body).toContain('Este link já foi usado.');
      const again = await b.post('/panel/set-password', { ...fields, password: 'outra frase bem longa' });
      expect(again.statusCode).toBe(410);
      expect(await t.services.merchantUsers.authenticate('ana@acme.test', PASSWORD)).not.toBeNull();

      const late = await invite('bia@acme.test');
      t.clock.advance(72 * 3600_000 + 1000);
      const expired = await b.get(`/panel/set-password?token=${late}`);
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('Este link expirou.');
    });

    it('a key form the keys service refuses shows the refusal on its field in the panel’s words (422) and writes nothing: an expiry in the past, the 21st active key', async () => {
      const b = await signedInUser(t, 'acme', 'a@acme.test');
      let form = await b.get('/panel/keys/new');
      const past = await b.post('/panel/keys', {
        _csrf: b.token(form),
        name: 'ERP',
        places: 'all',
        expires_on: '2000-01-01',
      });
      expect(past.statusCode).toBe(422);
      expect(past.body).toMatch(/must not be in the past \(today is \d{4}-\d{2}-\d{2} in UTC-03:00\)/);
      expect(await t.services.merchantKeys.list('acme')).toEqual([]);
      for (let n = 0; n < 20; n++) {
        keyOutcomeValue(
          await t.services.merchantKeys.create(
            'acme',
            { name: `k${n}`, permissions: [], places: 'all' },
            SERVICE_ACTOR,
          ),
        );
      }
      form = await b.get('/panel/keys/new');
      const over = await b.post('/panel/keys', { _csrf: b.token(form), name: 'ERP', places: 'all' });
      expect(over.statusCode).toBe(422);
      expect(over.body).toContain(
        'Account &quot;acme&quot; already has 20 active keys, the most it may have. Revoke a key (or let one expire) first.',
      );
      expect(await t.services.merchantKeys.list('acme')).toHaveLength(20);
    });

    it('a form posted without its CSRF token is refused (403) and changes nothing', async () => {
      const b = await signedInUser(t, 'acme', 'a@acme.test');
      const refused = await b.post('/panel/keys', { name: 'x', places: 'all', expires_on: '' });
      expect(refused.statusCode).toBe(403);
      expect(await t.services.merchantKeys.list('acme')).toEqual([]);
      const wrong = await b.post('/panel/keys', { _csrf: 'forged', name: 'x', places: 'all' });
      expect(wrong.statusCode).toBe(403);
      const form = await b.get('/panel/keys/new');
      const created = await b.post('/panel/keys', { _csrf: b.token(form), name: 'ERP', places: 'all' });
      expect(created.statusCode).toBe(200);
      expect(created.body).toMatch(/gtpk_[A-Za-z0-9_-]{43}/);
    });

    it('panel actions are in the audit trail with the merchant user (channel panel); the pages show who, when, last use', async () => {
      const b = await signedInUser(t, 'acme', 'a@acme.test');
      const user = (await t.services.merchantUsers.list('acme'))[0]!;
      const form = await b.get('/panel/keys/new');
      expect(
        (await b.post('/panel/keys', { _csrf: b.token(form), name: 'ERP', places: 'all' })).statusCode,
      ).toBe(200);
      const [key] = await t.services.merchantKeys.list('acme');
      const page = await b.get(`/panel/keys/${key!.id}`);
      expect((await b.post(`/panel/keys/${key!.id}/pause`, { _csrf: b.token(page) })).statusCode).toBe(303);
      const trail = await t.services.keyAudit.ofMerchantKey('acme', key!.id, { limit: 50 });
      expect(trail.events.map((event) => event.event)).toEqual(['paused', 'issued']);
      for (const event of trail.events) {
        expect(event.actor).toMatchObject({
          role: 'merchant_user',
          userId: user.id,
          displayName: 'User',
          channel: 'panel',
        });
        expect(event.actor.ip).toBeTruthy();
      }
      const shown = (await b.get(`/panel/keys/${key!.id}`)).body;
      expect(shown).toContain('<tr data-event="paused">');
      expect(shown).toContain('<tr data-event="issued">');
      expect(shown).toContain('Nunca usada');
      const list = (await b.get('/panel/keys')).body;
      expect(list).toMatch(/Criada por[\s\S]*User/);

      // A key the operator created shows its role, never a token.
      await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', { name: 'Ops', places: 'all' });
      expect((await b.get('/panel/keys')).body).toContain('Operador da plataforma');
    });

    it('another account’s key id is 404 on every key page and action', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/other', { name: 'other' });
      const theirs = keyOutcomeValue(
        await t.services.merchantKeys.create(
          'other',
          {
            name: 'theirs',
            permissions: [],
            places: 'all',
          },
          SERVICE_ACTOR,
        ),
      );
      const b = await signedInUser(t, 'acme', 'a@acme.test');
      for (const path of ['', '/edit', '/rotate', '/revoke']) {
        expect((await b.get(`/panel/keys/${theirs.id}${path}`)).statusCode).toBe(404);
      }
      const token = b.token(await b.get('/panel/keys'));
      for (const path of ['/pause', '/revoke', '/rotate', '/reactivate']) {
        expect((await b.post(`/panel/keys/${theirs.id}${path}`, { _csrf: token })).statusCode).toBe(404);
      }
      expect((await t.services.merchantKeys.get('other', theirs.id)).state).toBe('active');
    });

    it('signed out, key pages send to the sign-in page; signing out ends the session', async () => {
      const anonymous = browser(t);
      const page = await anonymous.get('/panel/keys');
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe('/panel/sign-in');
      const b = await signedInUser(t, 'acme', 'a@acme.test');
      expect((await b.get('/panel/keys')).statusCode).toBe(200);
      const keys = await b.get('/panel/keys');
      expect((await b.post('/panel/sign-out', { _csrf: b.token(keys) })).statusCode).toBe(303);
      expect((await b.get('/panel/keys')).statusCode).toBe(303);
    });

    it('sign-in attempts are limited per e-mail, with the same answer whether the address exists', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'acme' });
      await t.services.merchantUsers.ensureWithPassword('acme', 'a@acme.test', 'User', PASSWORD);
      const b = browser(t);
      const answers: Record<string, number[]> = {};
      for (const email of ['a@acme.test', 'nobody@acme.test']) {
        answers[email] = [];
        for (let i = 0; i < 11; i += 1) {
          const page = await b.get('/panel/sign-in');
          const response = await b.post('/panel/sign-in', {
            _csrf: b.token(page),
            email,
            password: 'wrong password!',
          });
          answers[email].push(response.statusCode);
        }
      }
      expect(answers['a@acme.test']).toEqual([...Array<number>(10).fill(401), 429]);
      expect(answers['nobody@acme.test']).toEqual(answers['a@acme.test']);
      // Even the right password waits now.
      const page = await b.get('/panel/sign-in');
      const right = await b.post('/panel/sign-in', {
        _csrf: b.token(page),
        email: 'a@acme.test',
        password: PASSWORD,
      });
      expect(right.statusCode).toBe(429);
      expect(right.body).toContain('Muitas tentativas');
    });

    it('the APIs keep their answers: nothing of the panel under their prefixes', async () => {
      const response = await t.call({ method: 'GET', url: '/v1/api-public/panel/keys' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('application/problem+json');
    });
  });
});
