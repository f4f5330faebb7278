import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { CONSOLE_MESSAGES } from '../../src/console/console-messages.js';
import { STAFF_MESSAGES } from '../../src/console/messages/staff.js';
import type { StaffRole } from '../../src/staff/staff-user-input.js';
import { lockStaffUsers } from '../../src/staff/staff-user-repository.js';
import type { StaffUser } from '../../src/staff/staff-user-service.js';
import { describeEachDialect, useTestApp } from '../helper.js';
import { consoleAgent, signedInStaff, type ConsoleAgent } from './console-agent.js';

// The console's staff pages and action log (issue 14), the operator's only: support gets 403 on each page
// and on each forged post, and nothing changes; the new user form is checked by the admin API's schema
// and names the fields; a set-password link is shown once, on the answer to the post that made it; a
// disabled user's sessions end at once; nobody disables themself, and the console keeps an operator.
// Each change is in the back-office log once, written by the staff user service with the staff user.

/** The pages' texts in Portuguese, the language of an agent without the language cookie. */
const PT = STAFF_MESSAGES['pt-BR'];
const CONSOLE_PT = CONSOLE_MESSAGES['pt-BR'];
const PASSWORD = 'a passphrase for the console';

/** The token of the set-password link in a page (the link's URL, once). */
function linkIn(page: string): string {
  const url = /(https?:\/\/[^\s<"]+\/console\/set-password\?token=[A-Za-z0-9_-]+)/.exec(page)?.[1];
  if (url === undefined) throw new Error('no set-password link on the page');
  return new URL(url).searchParams.get('token') ?? '';
}

describeEachDialect('back-office console: staff users and the action log', (dialect) => {
  const t = useTestApp(dialect);

  /** A staff user with a password, and their signed-in agent. */
  async function staff(role: StaffRole, name: string): Promise<{ user: StaffUser; agent: ConsoleAgent }> {
    const email = `${name.toLowerCase()}@operator.example`;
    return signedInStaff(t, role, { name, email, password: PASSWORD });
  }

  /** What the pages may change: the users, their links, the log. */
  const stored = async () => ({
    users: await t.db.selectFrom('staff_users').selectAll().orderBy('id').execute(),
    links: await t.db.selectFrom('staff_user_links').selectAll().orderBy('token_hash').execute(),
    actions: await t.db.selectFrom('back_office_actions').selectAll().orderBy('seq').execute(),
  });

  /** The log's rows of one action, as (action, actor role, channel, name, target). */
  async function logged(action: string) {
    const { actions } = await t.services.backOfficeLog.list({ action });
    return actions.map((entry) => [
      entry.action,
      entry.actor.role,
      entry.actor.channel,
      entry.actor.displayName,
      entry.target,
    ]);
  }

  describe('the gate: the operator’s only', () => {
    it('support: 403 on every page and on every forged post with a valid token; nothing changes', async () => {
      const { user: olga } = await staff('operator', 'Olga');
      const { agent: support } = await staff('support', 'Sergio');
      const find = await support.get('/console/find');
      expect(find.body).not.toContain('href="/console/staff"');
      expect(find.body).not.toContain('href="/console/activity"');
      const before = await stored();
      for (const path of [
        '/console/staff',
        '/console/staff/new',
        `/console/staff/${olga.id}/link`,
        `/console/staff/${olga.id}/disable`,
        '/console/activity',
        `/console/activity?user=${olga.id}`,
      ]) {
        const page = await support.get(path);
        expect(page.statusCode, path).toBe(403);
        expect(page.body, path).not.toContain('olga@operator.example');
      }
      // A valid CSRF token, from a page support may open: the gate refuses the form all the same.
      const token = await support.csrfOf('/console/find');
      for (const [path, fields] of [
        ['/console/staff/new', { email: 'eve@operator.example', name: 'Eve', role: 'operator' }],
        [`/console/staff/${olga.id}/link`, {}],
        [`/console/staff/${olga.id}/disable`, {}],
      ] as const) {
        const forged = await support.postWithToken(path, fields, token);
        expect(forged.statusCode, path).toBe(403);
        expect(forged.body, path).not.toContain('/console/set-password?token=');
      }
      expect(await stored()).toEqual(before);
    });

    it('the operator’s navigation has the staff users and the action log', async () => {
      const { agent } = await staff('operator', 'Olga');
      const page = await agent.get('/console/staff');
      expect(page.statusCode).toBe(200);
      expect(page.body).toMatch(/href="\/console\/staff"\s+aria-current="page"/);
      expect(page.body).toContain('href="/console/activity"');
    });
  });

  describe('the list', () => {
    it('each user with their role and state; a link and disable for others, no disable for oneself', async () => {
      const { user: olga, agent } = await staff('operator', 'Olga');
      const { user: bia } = await t.services.staffUsers.create(
        { email: 'bia@operator.example', name: 'Bia', role: 'support' },
        SERVICE_ACTOR,
      );
      const { user: caio } = await staff('support', 'Caio');
      await t.services.staffUsers.disable(caio.id, SERVICE_ACTOR);
      const page = (await agent.get('/console/staff')).body;
      const row = (email: string) =>
        new RegExp(`<tr data-user="${email}">([\\s\\S]*?)</tr>`).exec(page)?.[1] ?? '';
      expect(row('olga@operator.example')).toContain(PT.staffStateActive);
      expect(row('olga@operator.example')).toContain(PT.staffYou);
      expect(row('olga@operator.example')).toContain(`/console/staff/${olga.id}/link`);
      expect(row('olga@operator.example')).not.toContain(`/console/staff/${olga.id}/disable`);
      expect(row('bia@operator.example')).toContain(PT.staffStateWaiting);
      expect(row('bia@operator.example')).toContain(`/console/staff/${bia.id}/disable`);
      expect(row('caio@operator.example')).toContain(PT.staffStateDisabled);
      expect(row('caio@operator.example')).not.toContain('/console/staff/');
      expect(page).toContain('href="/console/staff/new"');
    });
  });

  describe('a new staff user', () => {
    it('the form says what each role may do, from the gate table', async () => {
      const { agent } = await staff('operator', 'Olga');
      const page = (await agent.get('/console/staff/new')).body;
      expect(page).toContain('id="field-role-support"');
      expect(page).toMatch(/id="field-role-support"[\s\S]*?checked/);
      expect(page).toContain(PT.staffAbility_stopPreviousKey);
      expect(page).toContain(PT.staffAbility_staff);
      expect(page).toContain('pode tudo o que o papel suporte pode e também');
    });

    it('the link is shown once, on the answer to the post; the service records the change once', async () => {
      const { agent } = await staff('operator', 'Olga');
      const created = await agent.post(
        '/console/staff/new',
        { email: ' Bia@Operator.Example ', name: 'Bia', role: 'support' },
        '/console/staff/new',
      );
      expect(created.statusCode).toBe(200);
      expect(created.headers['cache-control']).toBe('no-store');
      const token = linkIn(created.body);
      expect(created.body).toContain('data-copy="new-key"');
      expect(created.body).toContain('72 horas');
      const link = await t.services.staffUsers.link(token);
      expect(link).toMatchObject({ ok: true, user: { email: 'bia@operator.example', role: 'support' } });
      // Never again: not on the list, not in the log.
      expect((await agent.get('/console/staff')).body).not.toContain(token);
      expect((await agent.get('/console/activity')).body).not.toContain(token);
      expect(JSON.stringify((await stored()).actions)).not.toContain(token);
      const bia = (await t.services.staffUsers.list()).find((u) => u.email === 'bia@operator.example');
      expect(await logged('createStaffUser')).toEqual([
        ['createStaffUser', 'staff', 'console', 'Olga', `staff/users/${bia?.id}`],
        // Olga herself, made by the service.
        ['createStaffUser', 'system', 'service', null, expect.any(String)],
      ]);
    });

    it('bad input: 422 naming each field beside it and in the summary; nothing stored', async () => {
      const { agent } = await staff('operator', 'Olga');
      const before = await stored();
      const bad = await agent.post(
        '/console/staff/new',
        { email: 'bia at operator', name: '   ', role: 'admin' },
        '/console/staff/new',
      );
      expect(bad.statusCode).toBe(422);
      for (const field of ['email', 'name', 'role']) {
        expect(bad.body).toContain(`id="error-${field}"`);
        expect(bad.body).toContain(`href="#field-${field}"`);
      }
      expect(bad.body).toContain('must be an e-mail address');
      expect(bad.body).toContain('must be operator or support');
      // What was typed stays in the form.
      expect(bad.body).toContain('value="bia at operator"');
      const long = await agent.post(
        '/console/staff/new',
        { email: 'bia@operator.example', name: 'B'.repeat(201) },
        '/console/staff/new',
      );
      expect(long.statusCode).toBe(422);
      expect(long.body).toMatch(/id="error-name">[^<]*200/);
      expect(long.body).toMatch(/id="error-role">[^<]*is required/);
      expect(long.body).toContain('B'.repeat(201)); // kept whole, never cut
      expect(await stored()).toEqual(before);
    });

    it('an address that is a staff user’s already, a disabled one’s too: 409 on the e-mail field', async () => {
      const { agent } = await staff('operator', 'Olga');
      const { user: caio } = await staff('support', 'Caio');
      await t.services.staffUsers.disable(caio.id, SERVICE_ACTOR);
      const before = await stored();
      const taken = await agent.post(
        '/console/staff/new',
        { email: 'CAIO@operator.example', name: 'Caio again', role: 'support' },
        '/console/staff/new',
      );
      expect(taken.statusCode).toBe(409);
      expect(taken.body).toContain(`id="error-email">${PT.staffEmailTaken}`);
      expect(await stored()).toEqual(before);
    });
  });

  describe('a fresh link', () => {
    it('a confirmation, then a new link shown once; the earlier link stops working', async () => {
      const { agent } = await staff('operator', 'Olga');
      const { user: bia, link: first } = await t.services.staffUsers.create(
        { email: 'bia@operator.example', name: 'Bia', role: 'support' },
        SERVICE_ACTOR,
      );
      const confirm = await agent.get(`/console/staff/${bia.id}/link`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain(`action="/console/staff/${bia.id}/link"`);
      expect(confirm.body).not.toContain('/console/set-password?token=');
      const issued = await agent.post(`/console/staff/${bia.id}/link`, {});
      expect(issued.statusCode).toBe(200);
      const token = linkIn(issued.body);
      expect(await t.services.staffUsers.link(linkIn(first.url))).toEqual({ ok: false, reason: 'used' });
      expect((await t.services.staffUsers.link(token)).ok).toBe(true);
      expect(await logged('issueStaffUserPasswordLink')).toEqual([
        ['issueStaffUserPasswordLink', 'staff', 'console', 'Olga', `staff/users/${bia.id}`],
      ]);
    });

    it('none for a disabled user (409), and 404 for one that does not exist', async () => {
      const { agent } = await staff('operator', 'Olga');
      const { user: caio } = await staff('support', 'Caio');
      await t.services.staffUsers.disable(caio.id, SERVICE_ACTOR);
      const before = await stored();
      expect((await agent.get(`/console/staff/${caio.id}/link`)).statusCode).toBe(409);
      const posted = await agent.post(`/console/staff/${caio.id}/link`, {}, '/console/staff');
      expect(posted.statusCode).toBe(409);
      expect(posted.body).not.toContain('/console/set-password?token=');
      expect((await agent.get('/console/staff/nobody/link')).statusCode).toBe(404);
      expect((await agent.post('/console/staff/nobody/disable', {}, '/console/staff')).statusCode).toBe(404);
      expect(await stored()).toEqual(before);
    });
  });

  describe('disable', () => {
    it('a confirmation, then the user’s console sessions end at once', async () => {
      const { agent } = await staff('operator', 'Olga');
      const { user: sergio, agent: support } = await staff('support', 'Sergio');
      expect((await support.get('/console/find')).statusCode).toBe(200);
      const confirm = await agent.get(`/console/staff/${sergio.id}/disable`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('sergio@operator.example');
      expect(confirm.body).toContain(`action="/console/staff/${sergio.id}/disable"`);
      const done = await agent.post(`/console/staff/${sergio.id}/disable`, {});
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/console/staff');
      expect((await agent.get('/console/staff')).body).toContain('Sergio foi desativado(a)');
      // Their next page: the sign-in page; their password no longer signs in.
      expect((await support.get('/console/find')).headers.location).toBe('/console/sign-in');
      expect((await consoleAgent(t).signIn('sergio@operator.example', PASSWORD)).statusCode).toBe(401);
      expect(await logged('disableStaffUser')).toEqual([
        ['disableStaffUser', 'staff', 'console', 'Olga', `staff/users/${sergio.id}`],
      ]);
    });

    it('not oneself: 422 saying why, on the confirmation and on the post; nothing changes', async () => {
      const { user: olga, agent } = await staff('operator', 'Olga');
      // Another operator exists: the refusal is the console's own rule, not the last-operator one.
      await staff('operator', 'Otto');
      const before = await stored();
      const page = await agent.get(`/console/staff/${olga.id}/disable`);
      expect(page.statusCode).toBe(422);
      expect(page.body).toContain(PT.staffNotYourself);
      expect(page.body).not.toContain(`action="/console/staff/${olga.id}/disable"`);
      const posted = await agent.post(`/console/staff/${olga.id}/disable`, {}, '/console/staff');
      expect(posted.statusCode).toBe(422);
      expect(posted.body).toContain(PT.staffNotYourself);
      expect(await stored()).toEqual(before);
      expect((await agent.get('/console/staff')).statusCode).toBe(200);
    });

    it('the last operator who can sign in is not disabled: two operators disabling each other at once leave one', async () => {
      const { user: olga, agent: olgaAgent } = await staff('operator', 'Olga');
      const { user: otto, agent: ottoAgent } = await staff('operator', 'Otto');
      const [olgaToken, ottoToken] = [
        await olgaAgent.csrfOf(`/console/staff/${otto.id}/disable`),
        await ottoAgent.csrfOf(`/console/staff/${olga.id}/disable`),
      ];
      let both: Promise<LightMyRequestResponse[]> | undefined;
      // Both posts are sent while another writer holds the staff table; then each counts the operators
      // in turn.
      await t.db.transaction().execute(async (trx) => {
        await lockStaffUsers(trx);
        both = Promise.all([
          olgaAgent.postWithToken(`/console/staff/${otto.id}/disable`, {}, olgaToken),
          ottoAgent.postWithToken(`/console/staff/${olga.id}/disable`, {}, ottoToken),
        ]);
        both.catch(() => undefined); // judged after the commit
        await new Promise((resolve) => setTimeout(resolve, 1000));
      });
      const answers = await both!;
      const operators = (await t.services.staffUsers.list()).filter((u) => u.role === 'operator' && u.active);
      expect(operators).toHaveLength(1);
      const outcomes = answers.map((answer) =>
        answer.statusCode === 303 ? String(answer.headers.location) : answer.statusCode,
      );
      // One went through. On PostgreSQL the other passed its gate while the table was held, and was
      // refused as the last operator. On SQLite, whose one connection the test's transaction held,
      // the queued queries may run the first change before the second's gate, which then finds its
      // session ended: the console keeps its operator either way.
      expect(outcomes).toContain('/console/staff');
      const other = outcomes.find((outcome) => outcome !== '/console/staff');
      if (dialect.name === 'postgres') expect(other).toBe(409);
      else expect([409, '/console/sign-in']).toContain(other);
      const refused = answers.find((answer) => answer.statusCode === 409);
      if (refused !== undefined) expect(refused.body).toContain('é o último operador que consegue entrar');
      expect(await logged('disableStaffUser')).toHaveLength(1);
    });
  });

  describe('the action log', () => {
    it('newest first, who (name or token), channel, action, target and short details; filters; pages', async () => {
      const { user: olga, agent } = await staff('operator', 'Olga');
      await agent.post(
        '/console/staff/new',
        { email: 'bia@operator.example', name: 'Bia', role: 'support' },
        '/console/staff/new',
      );
      // An admin API call, by token.
      await t.admin('PUT', '/admin/v1/helpdesk/companies/acme', { name: 'Acme Comércio Ltda' });
      const page = await agent.get('/console/activity');
      expect(page.statusCode).toBe(200);
      // The rows of the table's body (the head's row first).
      const rows = [...page.body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].slice(1).map((m) => m[1] ?? '');
      expect(rows[0]).toContain('putHelpDeskCompany');
      expect(rows[0]).toContain(CONSOLE_PT.who_operator);
      expect(rows[0]).toContain(CONSOLE_PT.channel_admin_api);
      expect(rows[0]).toContain('Acme Comércio Ltda');
      expect(rows[1]).toContain('createStaffUser');
      expect(rows[1]).toContain(`href="/console/activity?user=${olga.id}"`);
      expect(rows[1]).toContain(CONSOLE_PT.channel_console);
      expect(rows[1]).toContain('email: bia@operator.example');
      // By action, by user.
      const byAction = await agent.get('/console/activity?action=putHelpDeskCompany&user=');
      expect(byAction.body.match(/<tr>/g)).toHaveLength(2); // the head's row and one action
      const byUser = await agent.get(`/console/activity?user=${olga.id}`);
      expect(byUser.body).toContain('<code class="action">createStaffUser</code>');
      expect(byUser.body).not.toContain('<code class="action">putHelpDeskCompany</code>');
      expect((await agent.get('/console/activity?action=nothingLikeThis')).body).toContain(
        PT.actNoneFiltered,
      );
      // Pages of 50, by cursor, keeping the filter.
      for (let index = 0; index < 60; index += 1) {
        t.clock.advance(1000);
        await t.services.backOfficeLog.record(t.db, SERVICE_ACTOR, {
          action: 'testAction',
          target: `tests/${index}`,
        });
      }
      const first = (await agent.get('/console/activity?action=testAction')).body;
      expect(first).toContain('<code class="ellipsis" title="tests/59">tests/59</code>');
      expect(first).not.toContain('<code class="ellipsis" title="tests/9">tests/9</code>');
      const next = /href="(\/console\/activity\?action=testAction&amp;cursor=[0-9.]+)" rel="next"/.exec(
        first,
      )?.[1];
      expect(next).toBeDefined();
      const second = (await agent.get(next!.replaceAll('&amp;', '&'))).body;
      expect(second).toContain('<code class="ellipsis" title="tests/9">tests/9</code>');
      expect(second).toContain('<code class="ellipsis" title="tests/0">tests/0</code>');
      expect(second).not.toContain('<code class="ellipsis" title="tests/10">tests/10</code>');
      expect(second).not.toContain('rel="next"');
      expect(second).toContain(`href="/console/activity?action=testAction">${PT.actFirst}`);
    });

    it('a cursor that is not one: 422 saying so, nothing listed', async () => {
      const { agent } = await staff('operator', 'Olga');
      const page = await agent.get('/console/activity?cursor=yesterday');
      expect(page.statusCode).toBe(422);
      expect(page.body).toContain('must be the next_cursor of a previous page');
    });
  });
});
