import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { linkTokenHash } from '../../src/identity/one-time-link.js';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { runCli } from './cli-process.js';

// The `staff` commands and `audit actions`, run as child processes against a real server process on its
// own database (docs/back-office.md, Staff users): the set-password link printed for the operator to hand over, a
// fresh one ending the earlier, a disabled user, support refused; the back-office action log showing
// what came through the CLI.

const TOKEN = 'cli-staff-admin-token-0123456789';
const SUPPORT = 'cli-staff-support-token-0123456789';
const LINK = /^https:\/\/ops\.example\.test\/console\/set-password\?token=([A-Za-z0-9_-]{43})\n$/;

// Each command is a process of its own (a second or two on a busy machine).
vi.setConfig({ testTimeout: 180_000 });

describeEachProcessDatabase('partner-gateway staff and audit actions', (kind) => {
  let database: ProcessDatabase | undefined;
  let server: ServerProcess | undefined;
  const target = () => ({ ADMIN_URL: `http://127.0.0.1:${server!.adminPort}` });
  const cli = (...args: string[]) => runCli(args, { ADMIN_TOKEN: TOKEN, ...target() });
  /** What the stored link of a token says (its hash is all that is stored). */
  const storedLink = async (token: string) => {
    const db = database!.open();
    try {
      return await db
        .selectFrom('staff_user_links')
        .select(['purpose', 'used_at'])
        .where('token_hash', '=', linkTokenHash(token))
        .executeTakeFirst();
    } finally {
      await db.destroy();
    }
  };

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
    server = await startServer({
      DATABASE_URL: database.url,
      ADMIN_TOKEN: TOKEN,
      SUPPORT_TOKEN: SUPPORT,
      DEMO: 'false',
      ADMIN_BASE_URL: 'https://ops.example.test',
    });
    await server.waitUntilListening({ ms: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('staff create, list, link, disable; the same address again is 409; usage errors exit 2', async () => {
    const created = await cli(
      'staff',
      'create',
      '--email',
      'Olga@Ops.Example',
      '--name',
      'Olga',
      '--role',
      'operator',
    );
    expect(created.code, created.stderr).toBe(0);
    const first = LINK.exec(created.stdout)?.[1] ?? '';
    expect(first, created.stdout).not.toBe('');
    expect(created.stderr).toMatch(
      /^One-time link for olga@ops\.example \(operator, id [A-Za-z0-9]{24}\): .*until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\./,
    );
    expect(await storedLink(first)).toEqual({ purpose: 'invitation', used_at: null });

    const json = await cli(
      'staff',
      'create',
      '--email',
      'bia@ops.example',
      '--name',
      'Bia',
      '--role',
      'support',
      '--json',
    );
    expect(json.code, json.stderr).toBe(0);
    const bia = json.json<Record<string, unknown>>();
    expect(bia).toMatchObject({
      email: 'bia@ops.example',
      role: 'support',
      active: false,
      disabled_at: null,
    });
    expect(String(bia.set_password_url)).toMatch(
      /^https:\/\/ops\.example\.test\/console\/set-password\?token=/,
    );

    const twice = await cli(
      'staff',
      'create',
      '--email',
      'BIA@ops.example',
      '--name',
      'B',
      '--role',
      'support',
    );
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/409 Conflict: .*bia@ops\.example.*\(code conflict/);
    for (const args of [
      ['staff', 'create', '--email', 'x@ops.example', '--name', 'X'],
      ['staff', 'create', '--email', 'x@ops.example', '--name', 'X', '--role', 'admin'],
      ['staff', 'link'],
    ]) {
      expect((await cli(...args)).code, args.join(' ')).toBe(2);
    }
    const invalid = await cli(
      'staff',
      'create',
      '--email',
      'not-an-address',
      '--name',
      'X',
      '--role',
      'support',
    );
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('param body.email');

    const listed = await cli('staff', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^id +email +name +role +active +disabled_at +created_at\n/);
    expect(listed.stdout).toContain('olga@ops.example');
    expect(listed.stdout).not.toMatch(/token|scrypt/);
    const users = (await cli('staff', 'list', '--json')).json<{ id: string; email: string }[]>();
    expect(users.map((user) => user.email)).toEqual(['bia@ops.example', 'olga@ops.example']);
    const olga = users[1]!.id;

    const fresh = await cli('staff', 'link', olga);
    expect(fresh.code, fresh.stderr).toBe(0);
    const second = LINK.exec(fresh.stdout)?.[1] ?? '';
    expect(second).not.toBe(first);
    expect(await storedLink(first)).toEqual({ purpose: 'invitation', used_at: expect.any(Number) });
    expect(await storedLink(second)).toEqual({ purpose: 'invitation', used_at: null });

    const disabled = await cli('staff', 'disable', olga, '--json');
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(disabled.json()).toMatchObject({ id: olga, active: false, disabled_at: expect.any(String) });
    const again = await cli('staff', 'link', olga);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');
    const missing = await cli('staff', 'disable', 'nobody');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404 Not Found/);

    const support = await runCli(['staff', 'list'], { SUPPORT_TOKEN: SUPPORT, ...target() });
    expect(support.code).toBe(1);
    expect(support.stderr).toMatch(/403 Forbidden/);
  });

  it('audit actions: what came through the CLI, newest first, a page at a time; never a link', async () => {
    await cli('catalog', 'put', 'companies', 'acme', '--name', 'Acme');
    const page = await cli('audit', 'actions', '--limit', '2');
    expect(page.code, page.stderr).toBe(0);
    expect(page.stdout).toMatch(/^occurred_at +action +target +by +via +ip +details\n/);
    expect(page.stdout).toMatch(
      /putHelpDeskCompany +helpdesk\/companies\/acme +operator +cli +127\.0\.0\.1 /,
    );
    expect(page.stderr).toMatch(/^more: --cursor \d+\.\d+\n$/);
    const cursor = /--cursor (\S+)/.exec(page.stderr)?.[1] ?? '';
    const next = await cli('audit', 'actions', '--cursor', cursor, '--json');
    expect(next.code, next.stderr).toBe(0);
    const created = (await cli('audit', 'actions', '--action', 'createStaffUser', '--json')).json<{
      data: { target: string; actor: { channel: string }; details: Record<string, unknown> }[];
    }>();
    expect(created.data.map((action) => action.actor.channel)).toEqual(['cli', 'cli']);
    expect(JSON.stringify(created)).not.toContain('set-password');
    // The key audit trail is still `audit` itself.
    const keys = await cli('audit', '--kind', 'system', '--json');
    expect(keys.code, keys.stderr).toBe(0);
    expect(keys.json()).toEqual({ data: [], next_cursor: null });
    expect((await cli('audit', 'actions', '--limit', 'none')).code).toBe(2);
  });
});
