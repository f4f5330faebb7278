import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './schema.js';

/** The database handle every repository function takes first. */
export type Db = Kysely<Database>;

// int8 (bigint) holds instants in milliseconds and ticket sequences: both fit a JS number exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Options for opening a database; `searchPath` isolates a PostgreSQL schema (used by the tests). */
export interface OpenOptions {
  searchPath?: string;
  poolSize?: number;
}

/** Opens the database named by the configuration: SQLite in WAL mode, or a PostgreSQL pool. */
export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      ...(options.searchPath === undefined ? {} : { options: `-c search_path=${options.searchPath}` }),
    });
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  if (target.path !== ':memory:') mkdirSync(dirname(target.path), { recursive: true });
  const sqlite = new SQLite(target.path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a ticket acknowledged with 201 survives a power cut, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
