import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp, type TestApp } from '../helper.js';

// The web faces' sessions and CSRF (docs/back-office.md, Merchant panel: Security; Back-office console: Sessions): a
// session row is written only for a signed-in user, never for a visitor's page or form; every form post,
// a visitor's included, carries a token of the browser's own signed CSRF cookie, bound to the signed-in
// session when there is one; the session id is new at sign-in and gone at sign-out.

const PASSWORD = 'uma frase longa e segura';
const FORM_EXPIRED = 'Formulário expirado';

type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>;

/** A browser over inject: it keeps the cookies it is given (and forgets the cleared ones). */
function browser(inject: Inject) {
  const jar = new Map<string, string>();
  const keep = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) jar.delete(cookie.name);
      else jar.set(cookie.name, cookie.value);
    }
    return response;
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    jar,
    get: async (url: string) => keep(await inject({ method: 'GET', url, headers: { cookie: cookie() } })),
    post: async (url: string, form: Record<string, string>) =>
      keep(
        await inject({
          method: 'POST',
          url,
          headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams(form).toString(),
        }),
      ),
  };
}
type Browser = ReturnType<typeof browser>;

/** The CSRF token of a page's forms. */
function tokenOf(page: LightMyRequestResponse): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on the page (${page.statusCode})`);
  return token;
}

/** The Set-Cookie lines of an answer. */
function setCookies(response: LightMyRequestResponse): string[] {
  const header = response.headers['set-cookie'];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

async function sessionRows(t: TestApp) {
  return t.db.selectFrom('web_sessions').select(['face', 'user_id']).execute();
}

/** The token of a merchant user's invitation, from its message in the outbox. */
async function invitation(t: TestApp, email: string): Promise<string> {
  await t.admin('POST', '/admin/v1/pos/accounts/acme/users', { email, name: 'Ana' });
  const message = await t.db
    .selectFrom('mail_outbox')
    .select('text_body')
    .where('recipient', '=', email)
    .orderBy('seq', 'desc')
    .executeTakeFirstOrThrow();
  return /set-password\?token=([A-Za-z0-9_-]{43})/.exec(message.text_body)![1]!;
}

/** A staff user's one-time link token. */
async function staffLink(t: TestApp, email: string, role: 'operator' | 'support' = 'support') {
  const { link } = await t.services.staffUsers.create({ email, name: 'Sérgio', role }, SERVICE_ACTOR);
  return new URL(link.url).searchParams.get('token')!;
}

/** The faces, as their tests reach them: the panel on the public listener, the console on the admin one. */
const FACES = [
  {
    name: 'panel',
    prefix: '/panel',
    listener:
      (t: TestApp): Inject =>
      (o) =>
        t.app.public.inject(o),
  },
  {
    name: 'console',
    prefix: '/console',
    listener:
      (t: TestApp): Inject =>
      (o) =>
        t.app.admin.inject(o),
  },
] as const;

/** A session cookie among an answer's Set-Cookie lines. */
const sessionCookies = (response: LightMyRequestResponse) =>
  setCookies(response).filter((line) => line.includes('_session='));

describeEachDialect('web faces: sessions only for signed-in users, CSRF on every form', (dialect) => {
  const t = useTestApp(dialect, { config: { PUBLIC_BASE_URL: 'http://panel.test' } });

  // 1,000 requests: about 13 s on SQLite alone; a busy machine gets more time than the default 30 s.
  it(
    '1,000 cookie-less page loads of both faces write no session row and set no session cookie',
    { timeout: 120_000 },
    async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
      const panelToken = await invitation(t, 'ana@acme.test');
      const [panel, admin] = [FACES[0].listener(t), FACES[1].listener(t)];
      const stylesheet = async (inject: Inject, url: string) =>
        /<link rel="stylesheet" href="([^"]+)"/.exec((await inject({ method: 'GET', url })).body)![1]!;
      // [listener, path, status]: every kind of page a visitor reaches.
      type Load = [Inject, string, number];
      const panelPages: Load[] = [
        [panel, '/panel/', 303],
        [panel, '/panel/sign-in', 200],
        [panel, '/panel/password-reset', 200],
        [panel, `/panel/set-password?token=${panelToken}`, 200],
        [panel, `/panel/set-password?token=${'x'.repeat(43)}`, 410],
        [panel, '/panel/keys', 303],
        [panel, '/panel/nowhere', 404],
        [panel, await stylesheet(panel, '/panel/sign-in'), 200],
      ];
      const consolePages: Load[] = [
        [admin, '/console/', 303],
        [admin, '/console/sign-in', 200],
        [admin, '/console/dashboard', 303],
        [admin, '/console/nowhere', 404],
        [admin, await stylesheet(admin, '/console/sign-in'), 200],
      ];
      const load = async (pages: Load[], count: number) => {
        for (let i = 0; i < count; i += 1) {
          const [inject, url, status] = pages[i % pages.length]!;
          const response = await inject({ method: 'GET', url });
          expect(response.statusCode, url).toBe(status);
          expect(sessionCookies(response), url).toEqual([]);
        }
      };
      // Before the first operator, the console's sign-in page is the first operator's page.
      expect((await admin({ method: 'GET', url: '/console/sign-in' })).body).toContain('ADMIN_TOKEN');
      await load([...panelPages, ...consolePages], 500);
      const consoleToken = await staffLink(t, 'sergio@operator.example');
      await load(
        [...panelPages, ...consolePages, [admin, `/console/set-password?token=${consoleToken}`, 200]],
        500,
      );
      expect((await admin({ method: 'GET', url: '/console/sign-in' })).body).not.toContain('ADMIN_TOKEN');
      expect(await sessionRows(t)).toEqual([]);
    },
  );

  it('a visitor’s form posts (wrong password, reset request, set-password, language, first operator) write no session row', async () => {
    await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
    await t.services.merchantUsers.ensureWithPassword('acme', 'a@acme.test', 'User', PASSWORD);
    const panelToken = await invitation(t, 'ana@acme.test');
    const panel = browser(FACES[0].listener(t));
    const posts: [Browser, string, string, Record<string, string>, number][] = [
      [panel, '/panel/sign-in', '/panel/sign-in', { email: 'a@acme.test', password: 'wrong password!' }, 401],
      [
        panel,
        `/panel/set-password?token=${panelToken}`,
        '/panel/set-password',
        { token: panelToken, password: PASSWORD, confirm: 'another one' },
        422,
      ],
      [panel, '/panel/sign-in', '/panel/language', { lang: 'en', back: '/panel/sign-in' }, 303],
      [panel, '/panel/password-reset', '/panel/password-reset', { email: 'a@acme.test' }, 303],
    ];
    const console = browser(FACES[1].listener(t));
    posts.push(
      [
        console,
        '/console/sign-in',
        '/console/first-operator',
        { token: 'not it', email: 'o@x.example' },
        401,
      ],
      [console, '/console/sign-in', '/console/language', { lang: 'en', back: '/console/sign-in' }, 303],
    );
    for (const [b, from, action, fields, status] of posts) {
      const answer = await b.post(action, { ...fields, _csrf: tokenOf(await b.get(from)) });
      expect(answer.statusCode, action).toBe(status);
      expect(sessionCookies(answer), action).toEqual([]);
    }
    // The reset's message shows on the next page, from its cookie.
    expect((await panel.get('/panel/sign-in')).body).toContain('the link was sent');
    expect(await sessionRows(t)).toEqual([]);
  });

  describe.each(FACES)('the $name', (face) => {
    const { prefix } = face;

    /** A user of the face with a password, and a browser signed in as them. */
    async function signedIn(email = `user@${face.name}.example`) {
      if (face.name === 'panel') {
        await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
        await t.services.merchantUsers.ensureWithPassword('acme', email, 'User', PASSWORD);
      } else {
        const token = await staffLink(t, email, 'operator');
        const done = await t.services.staffUsers.setPasswordWithLink(token, PASSWORD);
        expect(done.ok).toBe(true);
      }
      const b = browser(face.listener(t));
      const page = await b.get(`${prefix}/sign-in`);
      const done = await b.post(`${prefix}/sign-in`, { _csrf: tokenOf(page), email, password: PASSWORD });
      expect(done.statusCode).toBe(303);
      return b;
    }

    /** Every form a visitor can post, with fields that would change something if the post passed. */
    async function visitorForms(): Promise<
      { from: string; action: string; fields: Record<string, string> }[]
    > {
      const forms: { from: string; action: string; fields: Record<string, string> }[] = [
        { from: '/sign-in', action: '/sign-in', fields: { email: 'nobody@x.example', password: PASSWORD } },
        { from: '/sign-in', action: '/language', fields: { lang: 'en', back: `${prefix}/sign-in` } },
        { from: '/sign-in', action: '/sign-out', fields: {} },
      ];
      if (face.name === 'panel') {
        await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
        const token = await invitation(t, 'ana@acme.test');
        forms.push(
          { from: '/password-reset', action: '/password-reset', fields: { email: 'ana@acme.test' } },
          {
            from: `/set-password?token=${token}`,
            action: '/set-password',
            fields: { token, password: PASSWORD, confirm: PASSWORD },
          },
        );
      } else {
        forms.push({
          from: '/sign-in',
          action: '/first-operator',
          fields: { token: ADMIN_TOKEN, email: 'olga@operator.example', name: 'Olga', password: PASSWORD },
        });
      }
      return forms.map((form) => ({ ...form, from: prefix + form.from, action: prefix + form.action }));
    }

    it('every visitor’s form refuses a missing, a forged, and another browser’s token with the 403 page, and nothing changes', async () => {
      const forms = await visitorForms();
      const before = {
        outbox: (await t.db.selectFrom('mail_outbox').select('id').execute()).length,
        staff: await t.services.staffUsers.count(),
      };
      for (const { from, action, fields } of forms) {
        const mine = browser(face.listener(t));
        const other = browser(face.listener(t));
        await mine.get(from);
        const theirs = tokenOf(await other.get(from));
        const forgedFromTheirs = theirs.slice(0, -4) + (theirs.endsWith('AAAA') ? 'BBBB' : 'AAAA');
        const stranger = browser(face.listener(t));
        for (const [why, b, token] of [
          ['missing', mine, undefined],
          ['forged', mine, 'forged'],
          ['altered', mine, forgedFromTheirs],
          ['another browser’s', mine, theirs],
          ['without the CSRF cookie', stranger, theirs],
        ] as const) {
          const answer = await b.post(action, token === undefined ? fields : { ...fields, _csrf: token });
          expect(answer.statusCode, `${action}: ${why}`).toBe(403);
          expect(answer.body, `${action}: ${why}`).toContain(FORM_EXPIRED);
          expect(
            setCookies(answer).filter((line) => /^lang=|_session=/.test(line)),
            action,
          ).toEqual([]);
        }
      }
      expect((await t.db.selectFrom('mail_outbox').select('id').execute()).length).toBe(before.outbox);
      expect(await t.services.staffUsers.count()).toBe(before.staff);
      if (face.name === 'panel') {
        expect(await t.services.merchantUsers.authenticate('ana@acme.test', PASSWORD)).toBeNull();
      }
      expect(await sessionRows(t)).toEqual([]);

      // The same forms pass with the browser's own token: the refusals above are the CSRF check's.
      for (const { from, action, fields } of forms) {
        const b = browser(face.listener(t));
        const answer = await b.post(action, { ...fields, _csrf: tokenOf(await b.get(from)) });
        expect(answer.statusCode, action).not.toBe(403);
      }
    });

    it('a token from before the sign-in, or of an earlier session, does not pass for the signed-in session', async () => {
      const b = await signedIn();
      // Taken as a visitor, in the same browser, before signing in again.
      const visitor = tokenOf(await b.get(`${prefix}/nowhere`));
      expect(visitor).not.toBe('');
      const home = `${prefix}/sign-in`;
      const signedInPage = await b.get(`${prefix}/account/password`);
      expect(signedInPage.statusCode).toBe(200);
      const current = tokenOf(signedInPage);

      const outOfSession = browser(face.listener(t));
      const anonymousToken = tokenOf(await outOfSession.get(home));
      // The visitor's token of another browser with that browser's CSRF cookie planted in this one.
      const csrfCookie = `${face.name}_csrf`;
      const planted = browser(face.listener(t));
      for (const [name, value] of b.jar) planted.jar.set(name, value);
      planted.jar.set(csrfCookie, outOfSession.jar.get(csrfCookie)!);
      const tossed = await planted.post(`${prefix}/sign-out`, { _csrf: anonymousToken });
      expect(tossed.statusCode).toBe(403);

      // Signed out and in again: the earlier session's token is worth nothing.
      expect((await b.post(`${prefix}/sign-out`, { _csrf: current })).statusCode).toBe(303);
      const page = await b.get(`${prefix}/sign-in`);
      const beforeSignIn = tokenOf(page);
      const email = `user@${face.name}.example`;
      expect(
        (await b.post(`${prefix}/sign-in`, { _csrf: beforeSignIn, email, password: PASSWORD })).statusCode,
      ).toBe(303);
      for (const [why, token] of [
        ['the earlier session’s', current],
        ['before the sign-in', beforeSignIn],
      ] as const) {
        const answer = await b.post(`${prefix}/language`, { _csrf: token, lang: 'en' });
        expect(answer.statusCode, why).toBe(403);
        expect(answer.body, why).toContain(FORM_EXPIRED);
      }
      // Still signed in, and a token of this session's page passes.
      const fresh = await b.get(`${prefix}/account/password`);
      expect(fresh.statusCode).toBe(200);
      expect((await b.post(`${prefix}/language`, { _csrf: tokenOf(fresh), lang: 'en' })).statusCode).toBe(
        303,
      );
    });

    it('sign-in writes one session under a new id, form posts work, sign-out deletes it and clears the cookie', async () => {
      const email = `user@${face.name}.example`;
      const cookieName = `${face.name}_session`;
      const b = await signedIn(email);
      const first = b.jar.get(cookieName)!;
      expect(first).toBeTruthy();
      expect(await sessionRows(t)).toEqual([{ face: face.name, user_id: expect.any(String) }]);

      // A session id planted in the browser (here: its own earlier one) is replaced at the next sign-in.
      const page = await b.get(`${prefix}/account/password`);
      const signIn = await b.post(`${prefix}/sign-in`, { _csrf: tokenOf(page), email, password: PASSWORD });
      expect(signIn.statusCode).toBe(303);
      const session = b.jar.get(cookieName)!;
      expect(session).not.toBe(first);
      const line = setCookies(signIn).find((l) => l.startsWith(`${cookieName}=`))!;
      expect(line).toMatch(/; HttpOnly/);
      expect(line).toMatch(/; SameSite=Lax/);
      expect(line).toMatch(new RegExp(`; Path=${prefix}(;|$)`));
      expect(await sessionRows(t)).toEqual([{ face: face.name, user_id: expect.any(String) }]);
      const stale = browser(face.listener(t));
      stale.jar.set(cookieName, first);
      expect((await stale.get(`${prefix}/account/password`)).headers.location).toBe(`${prefix}/sign-in`);

      // A form post of the signed-in user, with its one-time message on the next page.
      const form = await b.get(`${prefix}/account/password`);
      const changed = await b.post(`${prefix}/account/password`, {
        _csrf: tokenOf(form),
        current: PASSWORD,
        password: 'another long enough phrase',
        confirm: 'another long enough phrase',
      });
      expect(changed.statusCode).toBe(303);
      // The face's home (the console's goes on to the role's start page).
      let home = changed.headers.location!;
      let followed = await b.get(home);
      while (followed.statusCode === 303) followed = await b.get((home = followed.headers.location!));
      expect(followed.statusCode).toBe(200);
      expect(followed.body).toContain('Senha alterada.');
      const again = await b.get(home);
      expect(again.statusCode).toBe(200);
      expect(again.body).not.toContain('Senha alterada.');

      const out = await b.post(`${prefix}/sign-out`, { _csrf: tokenOf(followed) });
      expect(out.statusCode).toBe(303);
      expect(setCookies(out).some((l) => l.startsWith(`${face.name}_session=;`))).toBe(true);
      expect(await sessionRows(t)).toEqual([]);
      // The old cookie, replayed, opens nothing.
      const replay = browser(face.listener(t));
      replay.jar.set(`${face.name}_session`, session);
      const after = await replay.get(`${prefix}/account/password`);
      expect(after.statusCode).toBe(303);
      expect(after.headers.location).toBe(`${prefix}/sign-in`);
    });

    it('a one-time message shows once, and a message cookie not signed by the face shows nothing', async () => {
      const b = browser(face.listener(t));
      const token = await (face.name === 'panel'
        ? t
            .admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' })
            .then(() => invitation(t, 'ana@acme.test'))
        : staffLink(t, 'sergio@operator.example'));
      const form = await b.get(`${prefix}/set-password?token=${token}`);
      const set = await b.post(`${prefix}/set-password`, {
        _csrf: tokenOf(form),
        token,
        password: PASSWORD,
        confirm: PASSWORD,
      });
      expect(set.statusCode).toBe(303);
      const flash = setCookies(set).find((l) => l.startsWith(`${face.name}_flash=`))!;
      expect(flash).toMatch(/; HttpOnly/);
      expect(flash).toMatch(/; SameSite=Lax/);
      expect(flash).toMatch(new RegExp(`; Path=${prefix}(;|$)`));
      expect((await b.get(`${prefix}/sign-in`)).body).toContain('Senha definida.');
      expect((await b.get(`${prefix}/sign-in`)).body).not.toContain('Senha definida.');
      expect(await sessionRows(t)).toEqual([]);

      const words = Buffer.from('Ligue para 0800 000 000', 'utf8').toString('base64url');
      b.jar.set(`${face.name}_flash`, words);
      expect((await b.get(`${prefix}/sign-in`)).body).not.toContain('Ligue para');
    });
  });
});

describeEachDialect('web faces in production: the cookies', (dialect) => {
  const t = useTestApp(dialect, {
    config: { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://panel.test', TRUST_PROXY: '127.0.0.1' },
  });

  it('the panel behind its TLS proxy: the CSRF, message and session cookies are Secure, HttpOnly, SameSite=Lax, Path=/panel', async () => {
    await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
    await t.services.merchantUsers.ensureWithPassword('acme', 'a@acme.test', 'User', PASSWORD);
    const b = browser((options) =>
      t.call({ ...options, headers: { ...options.headers, 'x-forwarded-proto': 'https' } }),
    );
    const flags = (line: string | undefined) => {
      expect(line).toBeDefined();
      for (const flag of ['; Secure', '; HttpOnly', '; SameSite=Lax']) expect(line).toContain(flag);
      expect(line).toMatch(/; Path=\/panel(;|$)/);
    };
    const page = await b.get('/panel/password-reset');
    expect(setCookies(page).some((line) => line.startsWith('panel_session='))).toBe(false);
    flags(setCookies(page).find((line) => line.startsWith('panel_csrf=')));
    const reset = await b.post('/panel/password-reset', { _csrf: tokenOf(page), email: 'a@acme.test' });
    expect(reset.statusCode).toBe(303);
    flags(setCookies(reset).find((line) => line.startsWith('panel_flash=')));
    expect(await sessionRows(t)).toEqual([]);

    const signInPage = await b.get('/panel/sign-in');
    const signIn = await b.post('/panel/sign-in', {
      _csrf: tokenOf(signInPage),
      email: 'a@acme.test',
      password: PASSWORD,
    });
    expect(signIn.statusCode).toBe(303);
    flags(setCookies(signIn).find((line) => line.startsWith('panel_session=')));
    expect(await sessionRows(t)).toEqual([{ face: 'panel', user_id: expect.any(String) }]);
    expect((await b.get('/panel/keys')).statusCode).toBe(200);
  });
});
