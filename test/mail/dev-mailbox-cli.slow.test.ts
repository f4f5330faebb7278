import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { runCli as runProcess } from '../cli/cli-process.js';
import { testApp, type TestApp } from '../helper.js';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';

// A developer's machine without SMTP_URL (docs/getting-started.md, Reading e-mail locally): the service
// invites a merchant user, its sender delivers to the log (which cuts the link), and the invitation is
// finished with the link read from the development mailbox by the command line (`mail list`, `mail show`,
// a process of its own on the service's database), through the panel's real set-password page. The
// commands' refusals: an unknown id (exit 1), production (exit 2), a database never migrated (exit 1).

// Each command is a process of its own, and the first one may build dist/ (bin/partner-gateway.js): on a
// busy machine a run takes well over the default minute.
vi.setConfig({ testTimeout: 900_000 });
const runCli = (args: readonly string[], env: Record<string, string>) =>
  runProcess(args, env, { timeoutMs: 300_000 });

const PASSWORD = 'uma frase longa para o painel';
const CURSOR_SECRET = 'cli-mailbox-cursor-secret-0123456789';

interface Listed {
  id: string;
  delivered_at: string;
  to: string;
  kind: string;
  subject: string;
  transport: string;
}

/** A browser's cookie jar over inject on the public listener. */
function browser(t: TestApp) {
  const jar = new Map<string, string>();
  const send = async (method: 'GET' | 'POST', url: string, form?: Record<string, string>) => {
    const response = await t.call({
      method,
      url,
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === undefined ? {} : { payload: new URLSearchParams(form).toString() }),
    });
    for (const cookie of response.cookies as { name: string; value: string }[])
      jar.set(cookie.name, cookie.value);
    return response;
  };
  const csrf = (page: LightMyRequestResponse) => /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { send, csrf };
}

describeEachProcessDatabase('development mailbox from the command line', (kind) => {
  let database: ProcessDatabase | undefined;
  let db: Db | undefined;
  let t: TestApp | undefined;
  const local = () => ({ DATABASE_URL: database!.url });

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
    db = database.open();
    await migrateToLatest(db);
    t = testApp({ db, config: { PUBLIC_BASE_URL: 'http://panel.test' } });
  }, 120_000);

  afterAll(async () => {
    await t?.app.close();
    await db?.destroy();
    await database?.drop();
  });

  it('invite → mail list → mail show → the set-password page → signed in to the panel', async () => {
    const app = t!;
    const empty = await runCli(['mail', 'list'], local());
    expect([empty.code, empty.stdout]).toEqual([0, '(none)\n']);

    await app.admin('PUT', '/admin/v1/pos/accounts/acme', { name: 'Acme Bares' });
    await app.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'ana@acme.example', name: 'Ana' });
    await app.admin('POST', '/admin/v1/pos/accounts/acme/users', { email: 'bia@acme.example', name: 'Bia' });
    expect((await app.services.mailSender.sendDue()).sent).toBe(2);

    const listed = await runCli(['mail', 'list', '--to', 'ANA@acme.example', '--json'], local());
    expect(listed.code, listed.stderr).toBe(0);
    const [entry, ...more] = listed.json<Listed[]>();
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ to: 'ana@acme.example', kind: 'panel_invitation', transport: 'log' });
    expect(entry!.delivered_at).toBe(new Date(app.clock.now()).toISOString());

    // The table for a person: both, newest first, and where to read one.
    const table = await runCli(['mail', 'list'], local());
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id\s+delivered_at\s+to\s+kind\s+subject$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[2])).toEqual([
      'bia@acme.example',
      'ana@acme.example',
    ]);
    expect(table.stderr).toContain('partner-gateway mail show <id>');

    const shown = await runCli(['mail', 'show', entry!.id, '--json'], local());
    expect(shown.code, shown.stderr).toBe(0);
    const message = shown.json<Listed & { text: string; html: string; links: string[] }>();
    const [link, ...others] = message.links;
    expect(others).toEqual([]);
    expect(link).toMatch(/^http:\/\/panel\.test\/panel\/set-password\?token=[A-Za-z0-9_-]{43}$/);
    expect(message.text).toContain(link);
    expect(message.html).toContain(`href="${link!}"`);
    const human = await runCli(['mail', 'show', entry!.id], local());
    expect(human.stdout).toMatch(new RegExp(`^id:\\s+${entry!.id}$`, 'm'));
    expect(human.stdout).toContain(`\n${link!}\n`);

    // The panel's real page, as a browser follows the link.
    const b = browser(app);
    const { pathname, search } = new URL(link!);
    const form = await b.send('GET', pathname + search);
    expect(form.statusCode).toBe(200);
    const set = await b.send('POST', '/panel/set-password', {
      _csrf: b.csrf(form),
      token: new URL(link!).searchParams.get('token')!,
      password: PASSWORD,
      confirm: PASSWORD,
    });
    expect(set.statusCode, set.body).toBe(303);
    const signInPage = await b.send('GET', '/panel/sign-in');
    const signedIn = await b.send('POST', '/panel/sign-in', {
      _csrf: b.csrf(signInPage),
      email: 'ana@acme.example',
      password: PASSWORD,
    });
    expect(signedIn.statusCode, signedIn.body).toBe(303);
    expect(signedIn.headers.location).not.toMatch(/sign-in/);
    // Used: the link is worth nothing now.
    expect((await browser(app).send('GET', pathname + search)).statusCode).toBe(410);
  });

  it('refusals: an unknown id (exit 1), production (exit 2, one line), a database never migrated (exit 1)', async () => {
    const unknown = await runCli(['mail', 'show', 'nope'], local());
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      'error: no message nope in the development mailbox (it keeps the newest 200; see mail list)\n',
    );
    const unknownJson = await runCli(['mail', 'show', 'nope', '--json'], local());
    expect([unknownJson.code, unknownJson.json()]).toEqual([1, { error: 'not_found', id: 'nope' }]);

    for (const args of [
      ['mail', 'list'],
      ['mail', 'show', 'nope'],
    ]) {
      const production = await runCli(args, { ...local(), NODE_ENV: 'production', CURSOR_SECRET });
      expect(production.code).toBe(2);
      expect(production.stdout).toBe('');
      expect(production.stderr).toBe(
        'error: NODE_ENV is production: the development mailbox is off there (e-mail goes to SMTP_URL and no message is kept)\n',
      );
    }

    const fresh = await createProcessDatabase(kind);
    try {
      const bare = await runCli(['mail', 'list'], { DATABASE_URL: fresh.url });
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain('no development mailbox yet: run `partner-gateway migrate`');
    } finally {
      await fresh.drop();
    }
  });
});
