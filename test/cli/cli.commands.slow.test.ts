import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { freePort, http, startServer, type ServerProcess } from '../support/server-process.js';
import { runCli } from './cli-process.js';

// Every command of the command line, run as a child process against a real server process started on
// its own database (issue 12, A CLI): exit 0 done, 1 refused or failed, 2 usage; --json for scripts.

const TOKEN = 'cli-test-admin-token-0123456789';
const ESC = '\u001b[';

// Each command is a process of its own (a second or two on a busy machine): a test runs a dozen or more.
vi.setConfig({ testTimeout: 180_000 });

describeEachProcessDatabase('partner-gateway command line', (kind) => {
  let database: ProcessDatabase | undefined;
  let server: ServerProcess | undefined;
  let dir: string;
  let keys: {
    help_desk: { key: string };
    pos: { key: string; panel: { email: string; password: string } | null };
  };
  const local = () => ({ DATABASE_URL: database!.url });
  const admin = () => ({ ADMIN_TOKEN: TOKEN, ADMIN_URL: `http://127.0.0.1:${server!.adminPort}` });
  const cli = (...args: string[]) => runCli(args, admin());

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-cli-'));
    database = await createProcessDatabase(kind);
    const migrated = await runCli(['migrate'], local(), { timeoutMs: 300_000 });
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toMatch(/^Applied: /);
    const demo = await runCli(['demo', '--receipts', '300', '--json'], local());
    expect(demo.code, demo.stderr).toBe(0);
    keys = demo.json();
    server = await startServer({ DATABASE_URL: database.url, ADMIN_TOKEN: TOKEN, DEMO: 'false' });
    await server.waitUntilListening();
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrate and demo: up to date; the demo only on empty tables (exit 1 after)', async () => {
    const again = await runCli(['migrate'], local());
    expect([again.code, again.stdout]).toEqual([0, 'Database is up to date.\n']);
    expect(keys.help_desk.key).toMatch(/^gtes_/);
    expect(keys.pos.key).toMatch(/^gtpk_/);
    // The demo merchant's panel user, its password shown this once beside the keys.
    expect(keys.pos.panel).toEqual({
      email: 'demo@example.com',
      password: expect.stringMatching(/^\S{16}$/),
    });
    const demo = await runCli(['demo'], local());
    expect(demo.code).toBe(1);
    expect(demo.stderr).toContain('already holds');
  });

  it('catalog: list, put, delete; a field the collection does not take is the API refusal, exit 1', async () => {
    const listed = await cli('catalog', 'list', 'categories', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json<{ id: number }[]>().map((entry) => entry.id)).toContain(10);
    const put = await cli(
      'catalog',
      'put',
      'categories',
      '77',
      '--name',
      'Teste',
      '--type-id',
      '1',
      '--json',
    );
    expect(put.code, put.stderr).toBe(0);
    expect(put.json()).toMatchObject({ id: 77, name: 'Teste', type_id: 1, default_priority_id: null });
    const wrong = await cli('catalog', 'put', 'companies', 'zeta', '--name', 'Zeta', '--level', '2');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('422 Unprocessable Entity: body: unknown field(s) level');
    expect(wrong.stderr).toContain('code validation_failed, param body');
    const deleted = await cli('catalog', 'delete', 'categories', '77');
    expect([deleted.code, deleted.stdout]).toEqual([0, 'Deleted category 77.\n']);
    const gone = await cli('catalog', 'delete', 'categories', '77', '--json');
    expect(gone.code).toBe(1);
    expect(gone.json()).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('systems: create, refuse to create twice, rotate, stop-previous, deactivate, show', async () => {
    const created = await cli(
      'systems',
      'create',
      'erp-one',
      '--name',
      'ERP One',
      '--default-category',
      '10',
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/identifier: +erp-one/);
    const twice = await cli('systems', 'create', 'erp-one', '--name', 'ERP One', '--default-category', '10');
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('exists already');
    const first = await cli('systems', 'rotate', 'erp-one');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^gtes_[A-Za-z0-9_-]{43}\n$/);
    const second = await cli('systems', 'rotate', 'erp-one', '--json');
    expect(second.json<{ previous_valid_until: string | null }>().previous_valid_until).not.toBeNull();
    const stopped = await cli('systems', 'stop-previous', 'erp-one', '--json');
    expect(stopped.json()).toMatchObject({ stopped: true });
    const off = await cli('systems', 'deactivate', 'erp-one', '--json');
    expect(off.json()).toMatchObject({
      identifier: 'erp-one',
      active: false,
      default_category_id: 10,
      has_key: true,
    });
    const shown = await cli('systems', 'show', 'erp-one', '--json');
    expect(shown.json()).toMatchObject({ active: false });
    const missing = await cli('systems', 'show', 'nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/404 Not Found: .*\(code not_found, request [0-9a-f-]{36}\)/);
  });

  it('maintenance on and off: the ticket API answers 503 in between', async () => {
    const on = await cli('maintenance', 'on', '--retry-after', '60', '--json');
    expect(on.json()).toEqual({ enabled: true, retry_after_seconds: 60 });
    const ticket = await http(server!.port, 'GET', '/v1/api-external-system/help-desk-ticket-options', {
      headers: { authorization: `Bearer ${keys.help_desk.key}` },
    });
    expect([ticket.status, ticket.headers['retry-after']]).toEqual([503, '60']);
    const off = await cli('maintenance', 'off');
    expect([off.code, off.stdout]).toEqual([0, 'Maintenance is off.\n']);
    expect((await cli('maintenance', 'status', '--json')).json()).toMatchObject({ enabled: false });
  });

  it('tickets list: by system, and by date while paging the newest-first list', async () => {
    for (const id of ['t-1', 't-2', 't-3']) {
      const opened = await http(server!.port, 'POST', '/v1/api-external-system/help-desk-ticket', {
        headers: { authorization: `Bearer ${keys.help_desk.key}` },
        body: { external_id: id, company: 'acme', description: `Ticket ${id}` },
      });
      expect(opened.status).toBe(201);
    }
    const all = await cli('tickets', 'list', '--system', 'demo', '--json');
    expect(all.json<{ external_id: string }[]>().map((ticket) => ticket.external_id)).toEqual([
      't-3',
      't-2',
      't-1',
    ]);
    const two = await cli('tickets', 'list', '--limit', '2', '--json');
    expect(two.json<unknown[]>()).toHaveLength(2);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await cli('tickets', 'list', '--since', tomorrow, '--json')).json()).toEqual([]);
    expect((await cli('tickets', 'list', '--until', '2020-01-01', '--json')).json()).toEqual([]);
    const today = await cli('tickets', 'list', '--since', new Date(Date.now() - 86_400_000).toISOString());
    expect(today.stdout).toMatch(/^ticket +created_at +system/);
    expect(today.stdout.split('\n').filter((line) => line.includes('demo'))).toHaveLength(3);
    const otherSystem = await cli('tickets', 'list', '--system', 'erp-one', '--json');
    expect(otherSystem.json()).toEqual([]);
  });

  it('accounts, places, events: put, list, show, delete', async () => {
    expect((await cli('accounts', 'put', 'acme', '--name', 'Acme Bares')).code).toBe(0);
    expect((await cli('accounts', 'show', 'acme', '--json')).json()).toMatchObject({
      id: 'acme',
      currency: 'BRL',
    });
    expect(
      (await cli('accounts', 'list', '--json'))
        .json<{ id: string }[]>()
        .map((a) => a.id)
        .sort(),
    ).toEqual(['acme', 'demo']);
    const place = await cli(
      'places',
      'put',
      'acme',
      'P1',
      '--timezone',
      'America/Sao_Paulo',
      '--name',
      'Centro',
    );
    expect(place.code, place.stderr).toBe(0);
    const badZone = await cli('places', 'put', 'acme', 'P2', '--timezone', 'Mars/Olympus');
    expect(badZone.code).toBe(1);
    expect(badZone.stderr).toContain('param body.timezone');
    expect((await cli('places', 'list', 'acme', '--json')).json()).toMatchObject([
      { id: 'P1', name: 'Centro' },
    ]);
    const event = await cli(
      'events',
      'put',
      'acme',
      'P1',
      'E1',
      '--name',
      'São João',
      '--starts-at',
      '2026-06-24T18:00:00-03:00',
      '--json',
    );
    expect(event.json()).toMatchObject({ id: 'E1', starts_at: '2026-06-24T21:00:00Z' });
    expect((await cli('events', 'list', 'acme', 'P1', '--json')).json()).toMatchObject([{ id: 'E1' }]);
    expect((await cli('events', 'delete', 'acme', 'P1', 'E1')).code).toBe(0);
    expect((await cli('events', 'list', 'acme', 'P1', '--json')).json()).toEqual([]);
  });

  it('keys: create, list, edit, rotate (with and without --invalidate-current), pause, reactivate, revoke', async () => {
    await cli('accounts', 'put', 'keyacct', '--name', 'Keys');
    await cli('places', 'put', 'keyacct', 'K1', '--timezone', 'America/Recife');
    const created = await cli(
      'keys',
      'create',
      'keyacct',
      '--name',
      'ERP',
      '--permissions',
      'event.view',
      '--places',
      'K1',
      '--json',
    );
    expect(created.code, created.stderr).toBe(0);
    const { id, key } = created.json<{ id: string; key: string }>();
    expect(key).toMatch(/^gtpk_/);
    const ping = (text: string) =>
      http(server!.port, 'GET', '/v1/api-public/ping', { headers: { authorization: `Bearer ${text}` } });
    expect((await ping(key)).status).toBe(200);
    const listed = await cli('keys', 'list', 'keyacct', '--json');
    expect(listed.json()).toMatchObject([{ id, name: 'ERP', places: ['K1'], state: 'active' }]);
    expect(listed.stdout).not.toContain(key);
    expect(
      (await cli('keys', 'list', '--json')).json<{ account: string }[]>().map((k) => k.account),
    ).toContain('demo');
    const edited = await cli('keys', 'edit', 'keyacct', id, '--places', 'all', '--name', 'ERP 2', '--json');
    expect(edited.json()).toMatchObject({ name: 'ERP 2', places: 'all' });
    const rotated = (await cli('keys', 'rotate', 'keyacct', id, '--json')).json<{
      key: string;
      previous_valid_until: string;
    }>();
    expect(rotated.previous_valid_until).not.toBeNull();
    expect((await ping(key)).status).toBe(200); // the old text in its grace
    const invalidated = (await cli('keys', 'rotate', 'keyacct', id, '--invalidate-current', '--json')).json<{
      key: string;
    }>();
    expect((await ping(rotated.key)).status).toBe(401);
    expect((await ping(invalidated.key)).status).toBe(200);
    expect((await cli('keys', 'pause', 'keyacct', id, '--json')).json()).toMatchObject({ state: 'paused' });
    expect((await ping(invalidated.key)).status).toBe(401);
    expect((await cli('keys', 'reactivate', 'keyacct', id, '--json')).json()).toMatchObject({
      state: 'active',
    });
    expect((await cli('keys', 'revoke', 'keyacct', id, '--json')).json()).toMatchObject({ state: 'revoked' });
    const again = await cli('keys', 'reactivate', 'keyacct', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/409 Conflict: .*\(code conflict, request [0-9a-f-]{36}\)/);
    const nothing = await cli('keys', 'edit', 'keyacct', id);
    expect(nothing.code).toBe(2);

    // The trail of those actions, newest first, each through the CLI (docs/back-office.md, Audit trail and last use).
    const trail = await cli('audit', '--account', 'keyacct', '--key', id, '--json');
    expect(trail.code, trail.stderr).toBe(0);
    const events = trail.json<{ data: { event: string; actor: { role: string; channel: string } }[] }>();
    expect(events.data.map((event) => event.event)).toEqual([
      'revoked',
      'reactivated',
      'paused',
      'rotated',
      'rotated',
      'edited',
      'issued',
    ]);
    expect(events.data.every((event) => event.actor.role === 'operator')).toBe(true);
    expect(events.data.every((event) => event.actor.channel === 'cli')).toBe(true);
    expect(trail.stdout).not.toContain(key);
    const firstPage = await cli('audit', '--account', 'keyacct', '--limit', '2');
    expect(firstPage.code).toBe(0);
    expect(firstPage.stdout).toMatch(/revoked .* operator +cli/);
    const cursor = /more: --cursor (\S+)/.exec(firstPage.stderr)?.[1];
    expect(cursor).toBeDefined();
    const next = (
      await cli('audit', '--account', 'keyacct', '--limit', '2', '--cursor', cursor ?? '', '--json')
    ).json<{ data: { event: string }[] }>();
    expect(next.data.map((event) => event.event)).toEqual(['paused', 'rotated']);
    expect((await cli('audit', '--key', id)).code).toBe(2); // --key needs --account
    expect((await cli('audit', '--account', 'nope')).code).toBe(1); // 404

    // Why did my call fail: the revoked key's refused call, with the request id its caller saw.
    const refused = await ping(invalidated.key);
    expect(refused.status).toBe(401);
    const requestId = refused.headers['x-request-id'];
    let refusals: { request_id: string; status: number; code: string | null }[] = [];
    for (let tries = 0; tries < 50 && refusals.length === 0; tries += 1) {
      // The refusal log is written after the answer, off the request's path.
      refusals = (await cli('refusals', '--account', 'keyacct', '--json')).json<{
        data: typeof refusals;
      }>().data;
    }
    expect(refusals[0]).toMatchObject({ request_id: requestId, status: 401, code: 'invalid_token' });
    const text = (await cli('refusals', '--account', 'keyacct', '--limit', '1')).stdout;
    expect(text).toContain(String(requestId));
    // Below the table, where the code is explained (docs/operations.md, Why did my call fail).
    expect(text).toMatch(
      /What the codes mean:\n {2}invalid_token {2}http\S+\/docs\/problems#problem-invalid_token\n/,
    );
    expect((await cli('refusals')).code).toBe(2); // one of --system or --account
  });

  it('users: invite a person to the merchant panel, list them; the same address again once accepted is 409', async () => {
    await cli('accounts', 'put', 'useracct', '--name', 'Users');
    const invited = await cli(
      'users',
      'invite',
      'useracct',
      '--email',
      'Ana@Users.example',
      '--name',
      'Ana',
      '--json',
    );
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.json()).toMatchObject({ account: 'useracct', email: 'ana@users.example', active: false });
    const listed = await cli('users', 'list', 'useracct');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('ana@users.example');
    const missing = await cli('users', 'invite', 'useracct', '--name', 'Ana');
    expect(missing.code).toBe(2);
    const unknown = await cli('users', 'invite', 'nobody', '--email', 'x@users.example', '--name', 'X');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/404/);
  });

  it('import receipts: NDJSON and CSV in chunks, a summary with the counts; the same file again is unchanged', async () => {
    await cli('accounts', 'put', 'imp', '--name', 'Import');
    await cli('places', 'put', 'imp', 'P1', '--timezone', 'America/Sao_Paulo');
    const receipt = (i: number) => ({
      id: `N${i}`,
      place: 'P1',
      occurred_at: '2026-11-20T21:30:00-03:00',
      payment_method: 'tef_credit',
      brand: 'VISA',
      amount: `${i}.50`,
      kind: 'sale',
    });
    const ndjson = join(dir, 'receipts.ndjson');
    writeFileSync(
      ndjson,
      Array.from({ length: 25 }, (_, i) => JSON.stringify(receipt(i + 1))).join('\n\n') + '\n',
    );
    const first = await cli('import', 'receipts', ndjson, '--account', 'imp', '--chunk-size', '10');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      /^Imported 25 receipts into "imp" in 3 chunks: inserted 25, updated 0, unchanged 0 \(/,
    );
    expect(first.stderr).toContain('receipts: 10/25 (40%)'); // plain progress lines off a terminal
    const again = await cli('import', 'receipts', ndjson, '--account', 'imp', '--json', '--quiet');
    expect(again.json()).toMatchObject({ receipts: 25, chunks: 1, inserted: 0, updated: 0, unchanged: 25 });
    expect(again.stderr).toBe('');

    const csv = join(dir, 'receipts.csv');
    writeFileSync(
      csv,
      'id,occurred_at,payment_method,brand,amount,kind,status,event,demo\n' +
        'C1,2026-11-20T21:30:00-03:00,pix,,10.00,sale,,,\n' +
        'C2,2026-11-20T22:00:00Z,cash,"Visa, crédito",2.50,,cancelled,,false\n' +
        'N1,2026-11-20T21:30:00-03:00,tef_credit,VISA,99.00,sale,paid,,\n',
    );
    const imported = await cli('import', 'receipts', csv, '--account', 'imp', '--place', 'P1', '--json');
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json()).toMatchObject({ receipts: 3, inserted: 2, updated: 1, unchanged: 0 });
    const db = database!.open();
    try {
      const stored = await db
        .selectFrom('pos_receipts')
        .select(['id', 'brand', 'kind', 'status'])
        .where('account_id', '=', 'imp')
        .where('id', 'in', ['C1', 'C2'])
        .orderBy('id')
        .execute();
      expect(stored).toMatchObject([
        { id: 'C1', brand: null, kind: 'sale', status: 'paid' },
        { id: 'C2', brand: 'Visa, crédito', kind: null, status: 'cancelled' },
      ]);
    } finally {
      await db.destroy();
    }
  });

  it('import receipts: every bad row by its line in the file, and nothing sent', async () => {
    const csv = join(dir, 'bad.csv');
    writeFileSync(
      csv,
      'id,place,occurred_at,payment_method,amount,kind\n' +
        'B1,P1,2026-11-20T21:30:00Z,pix,1.00,sale\n' +
        'B2,P1,yesterday,pix,1.00,sale\n' +
        '\n' +
        'B3,P1,2026-11-20T21:30:00Z,pix,12,sale,extra\n' +
        '"B4\nX",P1,2026-11-20T21:30:00Z,pix,1.00,sale\n' +
        'B5,P2,2026-11-20T21:30:00Z,pix,1.00,sale\n',
    );
    const run = await cli('import', 'receipts', csv, '--account', 'imp', '--place', 'P1');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${csv}, line 3: occurred_at: must be an ISO 8601 instant`);
    expect(run.stderr).toContain(`${csv}, line 5: has another number of cells than the header row`);
    expect(run.stderr).toContain(`${csv}, line 6: id: must be 1 to 64 letters or digits`);
    expect(run.stderr).toContain(`${csv}, line 8: place: is "P2", not the --place "P1"`);
    expect(run.stderr).toContain('4 bad rows');
    expect(run.stderr).toContain('nothing was sent');
    const json = await cli('import', 'receipts', csv, '--account', 'imp', '--place', 'P1', '--json');
    expect(json.json<{ bad_rows: { line: number }[] }>().bad_rows.map((row) => row.line)).toEqual([
      3, 5, 6, 8,
    ]);
    const db = database!.open();
    try {
      const b1 = await db.selectFrom('pos_receipts').select('id').where('id', '=', 'B1').executeTakeFirst();
      expect(b1).toBeUndefined();
    } finally {
      await db.destroy();
    }
    const checked = await cli(
      'import',
      'receipts',
      csv.replace('bad.csv', 'receipts.csv'),
      '--account',
      'imp',
      '--place',
      'P1',
      '--check',
    );
    expect([checked.code, checked.stdout]).toEqual([
      0,
      `${join(dir, 'receipts.csv')}: 3 receipts, all good (nothing sent: --check).\n`,
    ]);
  });

  it('import receipts: a refused chunk names its lines, the refused line and what was committed before it', async () => {
    const rows = Array.from({ length: 7 }, (_, i) =>
      JSON.stringify({
        id: `X${i + 1}`,
        place: i === 5 ? 'NOPE' : 'P1',
        occurred_at: '2026-11-20T21:30:00Z',
        payment_method: 'pix',
        amount: '1.00',
        kind: 'sale',
      }),
    );
    const file = join(dir, 'refused.ndjson');
    writeFileSync(file, `${rows.join('\n')}\n`);
    const run = await cli('import', 'receipts', file, '--account', 'imp', '--chunk-size', '3', '--json');
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({
      error: 'chunk_refused',
      chunk: 2,
      first_line: 4,
      last_line: 6,
      line: 6,
      status: 422,
      problem: { code: 'validation_failed', param: 'line[3].place' },
      committed: { chunks: 1, receipts: 3, first_line: 1, last_line: 3, inserted: 3 },
    });
    expect(run.stderr).toContain(`chunk 2 (lines 4–6 of ${file}) was refused: 422 Unprocessable Entity`);
    expect(run.stderr).toContain(`The refused receipt is on line 6 of ${file}.`);
    expect(run.stderr).toContain('Committed before it: chunk 1–1, 3 receipts (lines 1–3): inserted 3');
    const db = database!.open();
    try {
      const stored = await db
        .selectFrom('pos_receipts')
        .select('id')
        .where('id', 'like', 'X%')
        .orderBy('id')
        .execute();
      expect(stored.map((row) => row.id)).toEqual(['X1', 'X2', 'X3']);
    } finally {
      await db.destroy();
    }
  });

  it('usage errors exit 2; a refusal exits 1 with the problem; no colour off a terminal', async () => {
    const unknown = await cli('systems', 'bogus');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'bogus'");
    expect((await cli('systems', 'create', 'x', '--name', 'X')).code).toBe(2); // --default-category missing
    expect((await cli('tickets', 'list', '--limit', 'ten')).code).toBe(2);
    const noToken = await runCli(['systems', 'list'], { ADMIN_URL: `http://127.0.0.1:${server!.adminPort}` });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain('ADMIN_TOKEN is not set');
    const wrongToken = await runCli(['systems', 'list'], {
      ...admin(),
      ADMIN_TOKEN: 'wrong-token-0123456789',
    });
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('401');
    for (const run of [unknown, noToken, wrongToken]) expect(run.stderr).not.toContain(ESC);
  });
});

it('every admin call carries X-Admin-Client: cli and the token; an unreachable API exits 1', async () => {
  const seen: IncomingHttpHeaders[] = [];
  const fake = createServer((request, response) => {
    seen.push(request.headers);
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const port = (fake.address() as { port: number }).port;
  try {
    const run = await runCli(['--admin-url', `http://127.0.0.1:${port}`, 'systems', 'list', '--json'], {
      ADMIN_TOKEN: TOKEN,
    });
    expect([run.code, run.json()]).toEqual([0, []]);
    expect(seen[0]).toMatchObject({ 'x-admin-client': 'cli', authorization: `Bearer ${TOKEN}` });
  } finally {
    fake.close();
  }
  const closed = await freePort();
  const down = await runCli(['systems', 'list'], { ADMIN_TOKEN: TOKEN, ADMIN_PORT: String(closed) });
  expect(down.code).toBe(1);
  expect(down.stderr).toContain(`cannot reach the admin API at http://127.0.0.1:${closed}`);
});
