import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';

// The benchmarks' databases: each figure is measured on a database of its own, created for it and
// dropped after, so that one run's rows never weigh on another's.

/** A fresh, migrated database and its URL (as DATABASE_URL takes it). */
export interface FreshDatabase {
  readonly url: string;
  readonly db: Db;
  drop(): Promise<void>;
}

/**
 * A SQLite file in a temporary directory (`prefix` names it), or a PostgreSQL database of its own on the
 * server of `postgresUrl`, migrated to the latest schema.
 */
export async function openFreshDatabase(
  dialect: 'sqlite' | 'postgres',
  prefix: string,
  postgresUrl: string | undefined,
): Promise<FreshDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
    const path = join(dir, 'bench.sqlite');
    const db = openDatabase({ kind: 'sqlite', path });
    await migrateToLatest(db);
    return {
      url: `file:${path}`,
      db,
      drop: async () => {
        await db.destroy();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (postgresUrl === undefined) throw new Error('a PostgreSQL bench needs TEST_DATABASE_URL');
  const name = `bench_${randomBytes(6).toString('hex')}`;
  const server = openDatabase({ kind: 'postgres', url: postgresUrl }, { poolSize: 1 });
  await sql`create database ${sql.id(name)}`.execute(server);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const db = openDatabase({ kind: 'postgres', url: url.toString() });
  await migrateToLatest(db);
  return {
    url: url.toString(),
    db,
    drop: async () => {
      await db.destroy();
      await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
      await server.destroy();
    },
  };
}
