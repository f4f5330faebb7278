import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, expect, it } from 'vitest';
import { runCli } from '../cli/cli-process.js';
import {
  FLEET_ADMIN_TOKEN,
  FLEET_SYSTEM,
  fleetEnv,
  postTicket,
  setUpTicketSystem,
} from '../fleet/fleet-fixtures.js';
import { createProcessDatabase, type ProcessDatabase } from '../support/process-database.js';
import { adminCall, startServer, type ServerProcess } from '../support/server-process.js';

// Backup and restore of the embedded database (docs/data.md, Backup and restore), as the operator on
// call does it: `partner-gateway backup FILE` while the service serves and writes tickets, then
// `partner-gateway restore FILE` into a fresh DATABASE_URL and a service started on it, which holds every
// ticket acknowledged before the backup began; a restore over the database of a running service is
// refused.

const CLIENTS = 6;

const databases: ProcessDatabase[] = [];
const servers: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop()));
  await Promise.all(databases.splice(0).map((database) => database.drop()));
});

async function sqliteDatabase(): Promise<{ url: string; path: string; dir: string }> {
  const database = await createProcessDatabase('sqlite');
  databases.push(database);
  const path = database.url.slice('file:'.length);
  return { url: database.url, path, dir: join(path, '..') };
}

/** Every ticket the service's admin API lists, by external_id → ticket id. */
async function listedTickets(server: ServerProcess): Promise<Map<string, string>> {
  const listed = new Map<string, string>();
  let cursor: string | null = null;
  do {
    const query = `system=${FLEET_SYSTEM}&limit=200${cursor === null ? '' : `&cursor=${cursor}`}`;
    const page = await adminCall(
      server.adminPort,
      FLEET_ADMIN_TOKEN,
      'GET',
      `/admin/v1/helpdesk/tickets?${query}`,
    );
    expect(page.status, page.text).toBe(200);
    const body = page.json as { data: { id: string; external_id: string }[]; next_cursor: string | null };
    for (const ticket of body.data) listed.set(ticket.external_id, ticket.id);
    cursor = body.next_cursor;
  } while (cursor !== null);
  return listed;
}

it('backup while the service writes tickets; restored into a fresh path, a service on it holds every ticket acknowledged before the backup began', async () => {
  const original = await sqliteDatabase();
  const server = await startServer(fleetEnv(original.url));
  servers.push(server);
  await server.waitUntilListening();
  const key = await setUpTicketSystem(server, { rateLimitPerMinute: 1_000_000 });

  // Clients open tickets without pause, through the backup and after it.
  const acknowledged = new Map<string, string>();
  const problems: string[] = [];
  let writing = true;
  const clients = Array.from({ length: CLIENTS }, async (_, c) => {
    for (let i = 0; writing; i += 1) {
      const externalId = `c${String(c)}-${String(i)}`;
      const response = await postTicket(server.port, key, externalId);
      if (response.status === 201) acknowledged.set(externalId, (response.json as { id: string }).id);
      else problems.push(`${externalId}: ${String(response.status)} ${response.text}`);
    }
  });
  while (acknowledged.size < 100) await new Promise((resolve) => setTimeout(resolve, 20));

  const backupFile = join(original.dir, 'backup.sqlite');
  const beforeBackup = new Map(acknowledged);
  const backup = await runCli(['backup', backupFile], { DATABASE_URL: original.url });
  const duringBackup = acknowledged.size - beforeBackup.size;
  writing = false;
  await Promise.all(clients);
  expect(backup.code, backup.stderr).toBe(0);
  expect(problems).toEqual([]);
  // Where and how big, in one line.
  expect(backup.stdout).toMatch(
    new RegExp(
      `^Backed up ${original.path} to ${backupFile}: [\\d.]+ [kMG]?B \\(\\d+ bytes, \\d+ pages\\), integrity ok`,
    ),
  );
  expect(duringBackup, 'tickets acknowledged while the backup ran').toBeGreaterThan(0);

  // The database of a running service is not restored over.
  const refused = await runCli(['restore', backupFile, '--force'], { DATABASE_URL: original.url });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/is open in a running process .*: stop every process on it, then restore/);
  expect((await listedTickets(server)).size).toBe(acknowledged.size);

  const fresh = await sqliteDatabase();
  const restored = await runCli(['restore', backupFile], { DATABASE_URL: fresh.url });
  expect(restored.code, restored.stderr).toBe(0);
  expect(restored.stdout).toMatch(/integrity ok, migrations up to 0\d{3}-/);

  const second = await startServer(fleetEnv(fresh.url));
  servers.push(second);
  await second.waitUntilListening();
  const listed = await listedTickets(second);
  const missing = [...beforeBackup].filter(([externalId, id]) => listed.get(externalId) !== id);
  expect(
    missing,
    `${String(missing.length)} of ${String(beforeBackup.size)} acknowledged tickets missing`,
  ).toEqual([]);
  // Nothing the backup did not see: every ticket listed was acknowledged, the same ticket.
  for (const [externalId, id] of listed) expect(acknowledged.get(externalId)).toBe(id);
  await second.stop();

  // A consistent database: SQLite's integrity check, and the migrations table whole.
  const check = new SQLite(fresh.path, { readonly: true });
  try {
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    const migrations = check.prepare('select name from kysely_migration order by name').all() as {
      name: string;
    }[];
    const originalDb = new SQLite(original.path, { readonly: true });
    try {
      expect(migrations).toEqual(originalDb.prepare('select name from kysely_migration order by name').all());
    } finally {
      originalDb.close();
    }
  } finally {
    check.close();
  }
}, 240_000);

it('backup and restore refuse in one line: no such database, destination exists (unless --force), not SQLite, PostgreSQL', async () => {
  const { url, path, dir } = await sqliteDatabase();
  const migrated = await runCli(['migrate'], { DATABASE_URL: url });
  expect(migrated.code, migrated.stderr).toBe(0);
  const run = (args: string[], databaseUrl = url) => runCli(args, { DATABASE_URL: databaseUrl });
  const oneLine = (text: string) => text.trim().split('\n').length === 1;

  const missing = await run(['backup', join(dir, 'b.sqlite')], `file:${join(dir, 'none.sqlite')}`);
  expect([missing.code, missing.stderr]).toEqual([
    1,
    `error: no database at ${join(dir, 'none.sqlite')} (DATABASE_URL)\n`,
  ]);
  expect(existsSync(join(dir, 'b.sqlite'))).toBe(false);

  const first = await run(['backup', join(dir, 'b.sqlite')]);
  expect(first.code, first.stderr).toBe(0);
  const again = await run(['backup', join(dir, 'b.sqlite')]);
  expect([again.code, again.stderr]).toEqual([
    1,
    `error: ${join(dir, 'b.sqlite')} exists: give --force to overwrite it\n`,
  ]);
  const forced = await run(['--json', 'backup', join(dir, 'b.sqlite'), '--force']);
  expect(forced.code, forced.stderr).toBe(0);
  expect(forced.json()).toMatchObject({ from: path, file: join(dir, 'b.sqlite'), integrity: 'ok' });

  writeFileSync(
    join(dir, 'notes.txt'),
    'not a database, but long enough to have a header of sorts.\n'.repeat(20),
  );
  const notSqlite = await run(['backup', join(dir, 'c.sqlite')], `file:${join(dir, 'notes.txt')}`);
  expect([notSqlite.code, notSqlite.stderr]).toEqual([
    1,
    `error: ${join(dir, 'notes.txt')} is not a SQLite database\n`,
  ]);
  expect(existsSync(join(dir, 'c.sqlite'))).toBe(false);
  const restoreText = await run(['restore', join(dir, 'notes.txt')], `file:${join(dir, 'r.sqlite')}`);
  expect([restoreText.code, oneLine(restoreText.stderr)]).toEqual([1, true]);
  expect(restoreText.stderr).toMatch(/is not a SQLite database/);
  expect(existsSync(join(dir, 'r.sqlite'))).toBe(false);

  const over = await run(['restore', join(dir, 'b.sqlite')]);
  expect([over.code, oneLine(over.stderr)]).toEqual([1, true]);
  expect(over.stderr).toMatch(/a database exists at .*: stop the service, then give --force to replace it/);

  for (const command of ['backup', 'restore']) {
    const postgres = await run([command, join(dir, 'b.sqlite')], 'postgres://gateway@db.internal/gateway');
    expect(postgres.code).toBe(2);
    expect(oneLine(postgres.stderr)).toBe(true);
    expect(postgres.stderr).toMatch(command === 'backup' ? /pg_dump -Fc/ : /pg_restore /);
  }
}, 240_000);
