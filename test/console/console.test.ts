import { expect, it } from 'vitest';
import { ADMIN_TOKEN, describeEachDialect, testApp, useTestApp } from '../helper.js';
import { consoleAgent, signedInStaff } from './console-agent.js';

// The console's frame (issue 14): served on the admin listener only, the first operator from ADMIN_TOKEN
// at first start, sign-in with the panel's sessions, the role gate on pages and forged form posts, and
// every answer of the APIs beside it unchanged.

describeEachDialect('back-office console: first start, sign-in, the gate', (dialect) => {
  const t = useTestApp(dialect);

  async function staff(role: 'operator' | 'support') {
    return (await signedInStaff(t, role, { name: `The ${role}` })).agent;
  }

  it('is on the admin listener only: the public listener has no /console', async () => {
    expect((await t.call({ method: 'GET', url: '/console/sign-in' })).statusCode).toBe(404);
    const page = await consoleAgent(t).get('/console/sign-in');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('before any staff user, the sign-in page asks for ADMIN_TOKEN and creates the first operator once', async () => {
    const agent = consoleAgent(t);
    const first = await agent.get('/console/sign-in');
    expect(first.body).toContain('ADMIN_TOKEN');
    const fields = { email: 'Ana@Operator.example', name: 'Ana', password: 'a long enough passphrase' };
    const wrong = await agent.post(
      '/console/first-operator',
      { ...fields, token: 'not the token' },
      '/console/sign-in',
    );
    expect(wrong.statusCode).toBe(401);
    expect(await t.services.staffUsers.count()).toBe(0);
    const short = await agent.post(
      '/console/first-operator',
      { ...fields, password: 'short', token: ADMIN_TOKEN },
      '/console/sign-in',
    );
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('id="error-password"');
    const made = await agent.post(
      '/console/first-operator',
      { ...fields, token: ADMIN_TOKEN },
      '/console/sign-in',
    );
    expect(made.statusCode).toBe(303);
    const [user] = await t.services.staffUsers.list();
    expect(user).toMatchObject({ email: 'ana@operator.example', role: 'operator' });
    // Signed in at once: the start page sends the operator to the dashboard.
    expect((await agent.get('/console/start')).headers.location).toBe('/console/dashboard');
    expect((await agent.get('/console/dashboard')).statusCode).toBe(200);
    // Once there is an operator, the page is the sign-in page, and the post creates nobody.
    const other = consoleAgent(t);
    expect((await other.get('/console/sign-in')).body).not.toContain('ADMIN_TOKEN');
    const again = await other.postWithToken(
      '/console/first-operator',
      { ...fields, email: 'eve@example.com', token: ADMIN_TOKEN },
      await other.csrfOf('/console/sign-in'),
    );
    expect(again.statusCode).toBe(303);
    expect(await t.services.staffUsers.count()).toBe(1);
  });

  it('support starts on the search; operator pages answer 403 and are not in its navigation', async () => {
    const support = await staff('support');
    expect((await support.get('/console/start')).headers.location).toBe('/console/find');
    const find = await support.get('/console/find?q=a');
    expect(find.statusCode).toBe(200);
    expect(find.body).not.toContain('/console/dashboard"');
    const dashboard = await support.get('/console/dashboard');
    expect(dashboard.statusCode).toBe(403);
    expect(dashboard.body).toContain('support');
  });

  it('the dashboard shows the fleet’s counts of the last hour and the health of the database', async () => {
    const operator = await staff('operator');
    await t.call({ method: 'GET', url: '/v1/api-external-system/options' });
    await t.services.traffic.flush();
    const page = await operator.get('/console/dashboard');
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<tr data-api="helpdesk">[\s\S]*?data-refused="1"/);
    expect(page.body).toContain('data-health="database"');
  });

  it('a signed-out visitor is sent to the sign-in page; a wrong password is 401', async () => {
    await staff('operator');
    const agent = consoleAgent(t);
    expect((await agent.get('/console/dashboard')).headers.location).toBe('/console/sign-in');
    expect((await agent.signIn('operator@operator.example', 'wrong password here')).statusCode).toBe(401);
  });

  it('sign-ins, sign-outs and password changes are in the back-office action log with the staff user', async () => {
    const operator = await staff('operator');
    await operator.post('/console/sign-out', {}, '/console/find');
    const { actions } = await t.services.backOfficeLog.list({});
    const console = actions.filter((a) => a.action.startsWith('console.'));
    expect(console.map((a) => a.action)).toEqual(['console.signOut', 'console.signIn']);
    expect(console[0]?.actor).toMatchObject({
      role: 'staff',
      channel: 'console',
      displayName: 'The operator',
    });
    expect(console[0]?.target).toMatch(/^staff\/users\/[A-Za-z0-9]+$/);
  });

  it('CONSOLE=false: no console; its paths are the admin API’s, behind the token', async () => {
    const off = testApp({ db: t.db, config: { CONSOLE: 'false' } });
    try {
      const page = await off.app.admin.inject({ method: 'GET', url: '/console/sign-in' });
      expect(page.statusCode).toBe(401);
      expect(page.headers['content-type']).toContain('application/problem+json');
      expect((await off.adminRaw({ method: 'GET', url: '/console/sign-in' })).statusCode).toBe(404);
    } finally {
      await off.app.close();
    }
  });
});
