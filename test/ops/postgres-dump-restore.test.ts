import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { seedPosDemo } from '../../src/pos/demo.js';
import { createServices } from '../../src/services.js';
import { testConfig } from '../helper.js';
import { createProcessDatabase, postgresTestUrl, type ProcessDatabase } from '../support/process-database.js';

// The PostgreSQL backup and restore that docs/data.md gives, run as written: `pg_dump -Fc` of a service's
// database, `pg_restore --clean --if-exists --no-owner` into an empty one, and the copy holds every row
// of every table and the whole migrations table.

const pgDump = spawnSync('pg_dump', ['--version'], { encoding: 'utf8' });
const pgDumpMissing = pgDump.error !== undefined || pgDump.status !== 0;
const skipReason =
  postgresTestUrl === undefined
    ? 'TEST_DATABASE_URL is not set'
    : pgDumpMissing
      ? 'pg_dump is not installed on this machine'
      : null;

const databases: ProcessDatabase[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(databases.splice(0).map((database) => database.drop()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Rows of every table of the service, by table (the migrator's own tables included). */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await sql<{ n: string }>`select count(*) as n from ${sql.table(table.name)}`.execute(db);
    counts[table.name] = Number(row.rows[0]?.n ?? 0);
  }
  return counts;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  expect(result.error).toBeUndefined();
  expect(result.status, `${command}: ${result.stderr}`).toBe(0);
}

describe.skipIf(skipReason !== null)(
  `PostgreSQL: pg_dump and pg_restore as docs/data.md gives them${skipReason === null ? '' : ` [skipped: ${skipReason}]`}`,
  () => {
    it('a dump of a service database restored into an empty database holds every row and the migrations', async () => {
      const source = await createProcessDatabase('postgres');
      const target = await createProcessDatabase('postgres');
      databases.push(source, target);
      const db = source.open();
      let before: Record<string, number>;
      try {
        await migrateToLatest(db);
        const services = createServices({ db, config: testConfig() });
        await seedHelpdeskDemo(services);
        await seedPosDemo(services, { receipts: 200 });
        before = await rowCounts(db);
      } finally {
        await db.destroy();
      }
      expect(before.pos_receipts).toBe(200);
      expect(before.kysely_migration).toBeGreaterThan(0);

      const dir = mkdtempSync(join(tmpdir(), 'gateway-dump-'));
      dirs.push(dir);
      const dump = join(dir, 'gateway.dump');
      run('pg_dump', ['-Fc', '-f', dump, source.url]);
      run('pg_restore', ['--clean', '--if-exists', '--no-owner', '-d', target.url, dump]);

      const copy = target.open();
      try {
        expect(await rowCounts(copy)).toEqual(before);
        // The restored database is one the service starts on: nothing left to migrate.
        expect(await migrateToLatest(copy)).toEqual([]);
      } finally {
        await copy.destroy();
      }
    }, 120_000);
  },
);
