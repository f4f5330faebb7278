import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { describe } from 'vitest';
import { openDatabase, type Db } from '../../src/db/database.js';

// Databases for server processes: a process migrates its own database from DATABASE_URL, so these are
// whole databases (a SQLite file, a PostgreSQL database), not the schemas test/helper.ts hands to apps.

/** The database a server process is started on. */
export interface ProcessDatabase {
  kind: 'sqlite' | 'postgres';
  /** `DATABASE_URL` of the process. */
  url: string;
  /** A handle of the test's own, to read what the process stored; the caller destroys it. */
  open(): Db;
  /** Removes the database (the processes on it must have ended). */
  drop(): Promise<void>;
}

/** The PostgreSQL server of the tests, when there is one (CI sets it). */
export const postgresTestUrl = process.env.TEST_DATABASE_URL;

/** An empty database: a SQLite file in a temporary directory, or a fresh PostgreSQL database. */
export async function createProcessDatabase(kind: ProcessDatabase['kind']): Promise<ProcessDatabase> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-process-'));
    const path = join(dir, 'service.sqlite');
    return {
      kind,
      url: `file:${path}`,
      open: () => openDatabase({ kind: 'sqlite', path }),
      drop: () => {
        rmSync(dir, { recursive: true, force: true });
        return Promise.resolve();
      },
    };
  }
  if (postgresTestUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
  const name = `test_process_${randomBytes(6).toString('hex')}`;
  const onServer = async (statement: RawBuilder<unknown>) => {
    const server = openDatabase({ kind: 'postgres', url: postgresTestUrl }, { poolSize: 1 });
    try {
      await statement.execute(server);
    } finally {
      await server.destroy();
    }
  };
  await onServer(sql`create database ${sql.id(name)}`);
  const url = new URL(postgresTestUrl);
  url.pathname = `/${name}`;
  return {
    kind,
    url: url.toString(),
    open: () => openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 2 }),
    // `with (force)`: a killed process's connections may not have been noticed by the server yet.
    drop: () => onServer(sql`drop database if exists ${sql.id(name)} with (force)`),
  };
}

/**
 * Declares a suite for SQLite and for PostgreSQL; without TEST_DATABASE_URL the PostgreSQL copy is
 * skipped and its title says so (as `describeEachDialect` in test/helper.ts).
 */
export function describeEachProcessDatabase(
  name: string,
  body: (kind: ProcessDatabase['kind']) => void,
): void {
  for (const kind of ['sqlite', 'postgres'] as const) {
    const skipped = kind === 'postgres' && postgresTestUrl === undefined;
    const title = `${name} [${kind}${skipped ? ': skipped, TEST_DATABASE_URL is not set' : ''}]`;
    describe.skipIf(skipped)(title, () => {
      body(kind);
    });
  }
}
