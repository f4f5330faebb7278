import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  describeEachDialect,
  testApp,
  testConfig,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { httpsOnlyStartWarning, STRICT_TRANSPORT_SECURITY } from '../../src/web/https-only.js';

// The web faces in production behind a TLS proxy (docs/production.md): the admin listener believes the
// proxies named in TRUST_PROXY as the public one does, so the console's and the panel's Secure session
// cookies work over HTTPS as the proxy reports it; a face's page reached over plain HTTP answers a page
// saying it is served over HTTPS only (never a sign-in page whose forms then all "expire"); the faces'
// answers over HTTPS carry Strict-Transport-Security, the APIs' answers do not.

const PROXY = '10.0.0.1';
const CLIENT = '198.51.100.23';
const PRODUCTION = {
  NODE_ENV: 'production',
  TRUST_PROXY: PROXY,
  PUBLIC_BASE_URL: 'https://api.example.test',
};
const OVER_HTTPS = { 'x-forwarded-proto': 'https', 'x-forwarded-for': CLIENT };
const PASSWORD = 'uma frase longa e segura para a sessão';

type Listener = 'public' | 'admin';

/** A browser's cookie jar over inject, its requests arriving through the TLS proxy. */
function browserThroughProxy(t: TestApp, listener: Listener) {
  const jar = new Map<string, string>();
  const setCookies: string[] = [];
  const send = async (options: InjectOptions) => {
    const response = await t.app[listener].inject({
      remoteAddress: PROXY,
      ...options,
      headers: {
        ...OVER_HTTPS,
        cookie: [...jar].map(([n, v]) => `${n}=${v}`).join('; '),
        ...options.headers,
      },
    });
    for (const cookie of response.cookies as { name: string; value: string }[])
      jar.set(cookie.name, cookie.value);
    setCookies.push(...[response.headers['set-cookie'] ?? []].flat());
    return response;
  };
  return {
    setCookies,
    get: (url: string) => send({ method: 'GET', url }),
    post: (url: string, form: Record<string, string>) =>
      send({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(form).toString(),
      }),
  };
}

function csrfOf(page: LightMyRequestResponse): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1];
  if (token === undefined) throw new Error(`no CSRF token on the page (${page.statusCode}): ${page.body}`);
  return token;
}

function expectSecureSessionCookie(response: LightMyRequestResponse, name: string) {
  const cookie = [response.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${name}=`));
  expect(cookie, `${name} set`).toBeDefined();
  expect(cookie).toMatch(/; Secure/);
  expect(cookie).toMatch(/; HttpOnly/);
}

describe('web faces in production behind a TLS proxy (docs/production.md)', () => {
  describeEachDialect('production, TRUST_PROXY names the proxy', (dialect) => {
    const t = useTestApp(dialect, { config: PRODUCTION });

    it('console: the first operator is made from ADMIN_TOKEN and signs in again, with Secure cookies, through the proxy over HTTPS', async () => {
      const b = browserThroughProxy(t, 'admin');
      const first = await b.get('/console/sign-in');
      expect(first.statusCode).toBe(200);
      const made = await b.post('/console/first-operator', {
        _csrf: csrfOf(first),
        token: ADMIN_TOKEN,
        email: 'olga@operator.example',
        name: 'Olga Operadora',
        password: PASSWORD,
      });
      expect(made.statusCode, made.body).toBe(303);
      expect(made.headers.location).toBe('/console/start');
      expectSecureSessionCookie(made, 'console_session');

      // The client's address came from X-Forwarded-For: the back-office log says who, from where.
      const log = await t.admin('GET', '/admin/v1/audit/actions');
      const actions = (JSON.parse(log.body) as { data: { actor: { ip: string | null } }[] }).data;
      expect(actions.map((a) => a.actor.ip)).toContain(CLIENT);

      const signOut = await b.post('/console/sign-out', { _csrf: csrfOf(await b.get('/console/find')) });
      expect(signOut.statusCode).toBe(303);
      const page = await b.get('/console/sign-in');
      expect(page.statusCode).toBe(200);
      const signedIn = await b.post('/console/sign-in', {
        _csrf: csrfOf(page),
        email: 'olga@operator.example',
        password: PASSWORD,
      });
      expect(signedIn.statusCode, signedIn.body).toBe(303);
      expect(signedIn.headers.location).toBe('/console/start');
      expectSecureSessionCookie(signedIn, 'console_session');
      expect((await b.get('/console/dashboard')).statusCode).toBe(200);
    });

    it('panel: a merchant user signs in with Secure cookies through the proxy over HTTPS', async () => {
      await t.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme' });
      await t.services.merchantUsers.ensureWithPassword('acme', 'ana@acme.example', 'Ana', PASSWORD);
      const b = browserThroughProxy(t, 'public');
      const page = await b.get('/panel/sign-in');
      expect(page.statusCode).toBe(200);
      const signedIn = await b.post('/panel/sign-in', {
        _csrf: csrfOf(page),
        email: 'ana@acme.example',
        password: PASSWORD,
      });
      expect(signedIn.statusCode, signedIn.body).toBe(303);
      expect(signedIn.headers.location).toBe('/panel/keys');
      expectSecureSessionCookie(signedIn, 'panel_session');
      const keys = await b.get('/panel/keys');
      expect(keys.statusCode).toBe(200);
      expect(b.setCookies.every((c) => c.includes('; Secure'))).toBe(true);
    });

    it('over plain HTTP a face page answers that it is served over HTTPS only, in the reader’s language, and sets no cookie', async () => {
      const cases: {
        listener: Listener;
        url: string;
        remoteAddress: string;
        headers: Record<string, string>;
      }[] = [
        // Straight to the listener, no proxy.
        { listener: 'public', url: '/panel/sign-in', remoteAddress: '203.0.113.9', headers: {} },
        { listener: 'admin', url: '/console/sign-in', remoteAddress: '203.0.113.9', headers: {} },
        // A client that claims HTTPS itself is not believed.
        {
          listener: 'admin',
          url: '/console/sign-in',
          remoteAddress: '203.0.113.9',
          headers: { 'x-forwarded-proto': 'https' },
        },
        {
          listener: 'public',
          url: '/panel/keys',
          remoteAddress: '203.0.113.9',
          headers: { 'x-forwarded-proto': 'https' },
        },
        // The trusted proxy, over its plain HTTP side.
        {
          listener: 'public',
          url: '/panel/sign-in',
          remoteAddress: PROXY,
          headers: { 'x-forwarded-proto': 'http' },
        },
        { listener: 'admin', url: '/console/', remoteAddress: PROXY, headers: {} },
      ];
      for (const { listener, url, remoteAddress, headers } of cases) {
        const answer = await t.app[listener].inject({ method: 'GET', url, remoteAddress, headers });
        const what = `${listener} ${url} from ${remoteAddress} ${JSON.stringify(headers)}`;
        expect(answer.statusCode, what).toBe(403);
        expect(answer.headers['content-type'], what).toBe('text/html; charset=utf-8');
        expect(answer.body, what).toContain('<html lang="pt-BR">');
        expect(answer.body, what).toContain('Esta página só é servida por HTTPS');
        expect(answer.body, what).toContain('TRUST_PROXY');
        expect(answer.body, what).toContain('X-Forwarded-Proto: https');
        expect(answer.headers['set-cookie'], what).toBeUndefined();
        expect(answer.headers['strict-transport-security'], what).toBeUndefined();
      }
      const english = await t.app.admin.inject({
        method: 'POST',
        url: '/console/sign-in',
        headers: { cookie: 'lang=en', 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%40b.example&password=x',
      });
      expect(english.statusCode).toBe(403);
      expect(english.body).toContain('<html lang="en">');
      expect(english.body).toContain('This page is served over HTTPS only');
      expect(await t.services.staffUsers.count()).toBe(0);
    });

    it('Strict-Transport-Security on the faces’ and /docs answers over HTTPS; none on the APIs’ answers', async () => {
      const through = (listener: Listener, url: string, headers: Record<string, string> = {}) =>
        t.app[listener].inject({
          method: 'GET',
          url,
          remoteAddress: PROXY,
          headers: { ...OVER_HTTPS, ...headers },
        });
      for (const [listener, url] of [
        ['public', '/panel/sign-in'],
        ['public', '/panel/assets/nothing.css'],
        ['public', '/docs/'],
        ['admin', '/console/sign-in'],
      ] as const) {
        const answer = await through(listener, url);
        expect(answer.headers['strict-transport-security'], `${listener} ${url}`).toBe(
          STRICT_TRANSPORT_SECURITY,
        );
      }
      for (const [listener, url, headers] of [
        ['public', '/v1/api-public/ping', {}],
        ['public', '/v1/api-external-system/help-desk-ticket-options', {}],
        ['public', '/v1/api-public/nowhere', {}],
        ['public', '/', {}],
        ['admin', '/admin/v1/helpdesk/systems', { authorization: `Bearer ${ADMIN_TOKEN}` }],
        ['admin', '/admin/v1/helpdesk/systems', {}],
        ['admin', '/healthz', {}],
      ] as const) {
        const answer = await through(listener, url, headers);
        expect(answer.headers['strict-transport-security'], `${listener} ${url}`).toBeUndefined();
      }
    });
  });

  describe('outside production', () => {
    it('the faces answer over plain HTTP as before, without Strict-Transport-Security', async () => {
      const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
      await migrateToLatest(db);
      const t = testApp({ db, config: { TRUST_PROXY: PROXY } });
      try {
        for (const [listener, url] of [
          ['public', '/panel/sign-in'],
          ['admin', '/console/sign-in'],
          ['public', '/docs/'],
        ] as const) {
          const answer = await t.app[listener].inject({
            method: 'GET',
            url,
            remoteAddress: PROXY,
            headers: OVER_HTTPS,
          });
          expect(answer.statusCode, url).toBe(200);
          expect(answer.headers['strict-transport-security'], url).toBeUndefined();
        }
      } finally {
        await t.app.close();
        await db.destroy();
      }
    });
  });

  it('start-up: production with a face on and TRUST_PROXY empty is warned about; with a proxy, or outside production, not', () => {
    const base = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://api.example.test' };
    expect(httpsOnlyStartWarning(testConfig(base))).toMatch(
      /TRUST_PROXY is not set: the merchant panel \(\/panel\/\) and the back-office console \(\/console\/\) are served over HTTPS only/,
    );
    expect(httpsOnlyStartWarning(testConfig({ ...base, CONSOLE: 'false' }))).toMatch(
      /merchant panel \(\/panel\/\) is served/,
    );
    expect(httpsOnlyStartWarning(testConfig({ ...base, PANEL: 'false', CONSOLE: 'false' }))).toBeNull();
    expect(httpsOnlyStartWarning(testConfig({ ...base, TRUST_PROXY: PROXY }))).toBeNull();
    expect(httpsOnlyStartWarning(testConfig({ PUBLIC_BASE_URL: 'https://api.example.test' }))).toBeNull();
  });
});
