import { expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { consoleAgent, csrfIn, signedInStaff } from './console-agent.js';

// The console's identity pages against an attacker (issue 20, items 5, 6 and 8): the change-password form
// limited per staff user, a link handed over before a password change worth nothing after it, and the
// first start's admin-token attempts counted per IP under a ceiling over all IPs.

const NEW_PASSWORD = 'a new passphrase for the console';

/** One try at the first-operator page from `ip`, with its own session. */
async function firstOperatorFrom(t: TestApp, ip: string, token: string) {
  const page = await t.app.admin.inject({ method: 'GET', url: '/console/sign-in', remoteAddress: ip });
  const cookie = page.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const fields = {
    _csrf: csrfIn(page.body),
    token,
    email: 'ana@operator.example',
    name: 'Ana',
    password: 'a long enough passphrase',
  };
  return t.app.admin.inject({
    method: 'POST',
    url: '/console/first-operator',
    remoteAddress: ip,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

describeEachDialect('back-office console: identity limits and links', (dialect) => {
  const t = useTestApp(dialect);

  it('ten wrong admin tokens from one IP do not block the first start from another (item 8)', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await firstOperatorFrom(t, '198.51.100.1', `wrong token ${i}`)).statusCode).toBe(401);
    }
    const limited = await firstOperatorFrom(t, '198.51.100.1', ADMIN_TOKEN);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await t.services.staffUsers.count()).toBe(0);
    const other = await firstOperatorFrom(t, '203.0.113.50', ADMIN_TOKEN);
    expect(other.statusCode).toBe(303);
    expect(await t.services.staffUsers.count()).toBe(1);
  });

  it('a flood of wrong admin tokens from many IPs still ends: 100 in the window, then every IP waits (item 8)', async () => {
    for (let ip = 1; ip <= 10; ip += 1) {
      for (let i = 0; i < 10; i += 1) {
        expect((await firstOperatorFrom(t, `198.51.100.${ip}`, 'wrong')).statusCode).toBe(401);
      }
    }
    expect((await firstOperatorFrom(t, '203.0.113.77', 'wrong')).statusCode).toBe(429);
    t.clock.advance(15 * 60_000 + 1000);
    expect((await firstOperatorFrom(t, '203.0.113.77', ADMIN_TOKEN)).statusCode).toBe(303);
  });

  // Thirteen scrypt hashes: a minute and more on a loaded machine.
  it(
    'change-password attempts are limited per staff user: the 11th is a 429 page with Retry-After, the password unchanged (item 5)',
    { timeout: 180_000 },
    async () => {
      const { agent, email, password } = await signedInStaff(t, 'support');
      const guess = (current: string) =>
        agent.post('/console/account/password', { current, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      for (let i = 0; i < 10; i += 1) expect((await guess(`wrong guess ${i}`)).statusCode).toBe(422);
      const limited = await guess(password);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body).toContain('Muitas tentativas de trocar a senha');
      expect(await t.services.staffUsers.authenticate(email, password)).not.toBeNull();
    },
  );

  it('a link the operator handed over before a password change in the console is refused after it (item 6)', async () => {
    const { agent, user, password } = await signedInStaff(t, 'support');
    const link = await t.services.staffUsers.newPasswordLink(user.id, SERVICE_ACTOR);
    const token = new URL(link.url).searchParams.get('token') ?? '';
    expect((await t.services.staffUsers.link(token)).ok).toBe(true);
    const changed = await agent.post('/console/account/password', {
      current: password,
      password: NEW_PASSWORD,
      confirm: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(303);
    expect(await t.services.staffUsers.link(token)).toEqual({ ok: false, reason: 'used' });
    const stale = consoleAgent(t);
    expect((await stale.get(`/console/set-password?token=${token}`)).statusCode).toBe(410);
  });
});
