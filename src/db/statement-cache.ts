import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

// better-sqlite3 compiles a statement on every `prepare`, and Kysely's SQLite driver prepares each query
// anew: a profile of the ticket POST spent about a tenth of its busy time compiling the same few SQL
// texts. This hands Kysely the database with `prepare` answered from a cache keyed by the SQL text
// (parameters are bound per run, so one statement serves every call of its text).

/** How many distinct SQL texts stay compiled; the least recently used one goes first past it. */
const CACHE_SIZE = 256;

/** The better-sqlite3 database as Kysely's SQLite dialect takes it, its statements compiled once. */
export function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare(sql: string) {
      const cached = statements.get(sql);
      // A statement still being iterated (a streamed query) cannot run again until it ends: that
      // caller gets a statement of its own.
      if (cached !== undefined && !cached.busy) {
        // Map keeps insertion order: moving the hit to the end makes the first entry the least recent.
        statements.delete(sql);
        statements.set(sql, cached);
        return cached;
      }
      const statement = database.prepare(sql);
      if (cached === undefined) {
        statements.set(sql, statement);
        if (statements.size > CACHE_SIZE) {
          const oldest = statements.keys().next().value;
          if (oldest !== undefined) statements.delete(oldest);
        }
      }
      return statement;
    },
  };
}
