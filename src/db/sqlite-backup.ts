import { closeSync, existsSync, fsyncSync, linkSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import SQLite from 'better-sqlite3';

// Backup and restore of the embedded database (docs/data.md, Backup and restore). The backup uses
// SQLite's online backup API while the service keeps serving: the copy is one read transaction of the
// source, a consistent snapshot of every commit before it, taken beside the service's writer (WAL mode
// lets both go on). It is written to a hidden file beside the destination, checked, made a self-contained
// file (journal mode DELETE: no -wal beside it), flushed to disk and only then given its name, so that a
// failed or interrupted backup never leaves a half file under the name the operator gave. A restore puts
// such a copy in the place of the database, only while no process has the database open.

/** Why a backup or restore did not happen. */
export type SqliteCopyRefusal =
  /** The database to copy (or the backup to restore) is not there. */
  | { reason: 'missing'; path: string }
  /** The destination exists and `force` was not given. */
  | { reason: 'exists'; path: string }
  /** The destination's directory does not exist. */
  | { reason: 'no_directory'; path: string }
  /** Source and destination are the same file. */
  | { reason: 'same_file'; path: string }
  /** The file is not a SQLite database. */
  | { reason: 'not_sqlite'; path: string }
  /** The file is a SQLite database but not one of this service (no migrations table). */
  | { reason: 'not_gateway'; path: string }
  /** SQLite's integrity check found problems in the file. */
  | { reason: 'corrupt'; path: string; detail: string }
  /** A process (the service) has the database open: it must be stopped before a restore. */
  | { reason: 'in_use'; path: string };

/** A copy made: where, how big, and what its integrity check said. */
export interface SqliteCopy {
  /** The file written (absolute). */
  path: string;
  bytes: number;
  pages: number;
  /** The newest migration the copy holds (`0009-traffic`); null when it holds none. */
  migration: string | null;
}

/** A backup's or a restore's outcome. */
export type SqliteCopyOutcome = ({ ok: true } & SqliteCopy) | ({ ok: false } & SqliteCopyRefusal);

/** SQLite's answer to a file that is not a database. */
const isNotADatabase = (error: unknown) =>
  error instanceof SQLite.SqliteError && (error.code === 'SQLITE_NOTADB' || error.code === 'SQLITE_CORRUPT');

/** Where a copy is written before it gets its name: a hidden file in the same directory (one rename). */
function partialPathOf(destination: string): string {
  return join(dirname(destination), `.${basename(destination)}.partial-${String(process.pid)}`);
}

/** Removes a database file's WAL and shared-memory files, which belong to the file they sat beside. */
function removeSidecars(path: string): void {
  rmSync(`${path}-wal`, { force: true });
  rmSync(`${path}-shm`, { force: true });
}

/** Writes the file's data to the disk before it is renamed into place. */
function flushToDisk(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Checks a copy and makes it a self-contained file: journal mode DELETE, `PRAGMA integrity_check`, the
 * migrations table read. Answers a refusal, or the copy's facts.
 */
function checkCopy(path: string): SqliteCopyOutcome {
  const copy = new SQLite(path, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const problems = (copy.pragma('integrity_check') as { integrity_check: string }[]).map(
      (row) => row.integrity_check,
    );
    if (problems.join() !== 'ok') {
      return { ok: false, reason: 'corrupt', path, detail: problems.slice(0, 3).join('; ') };
    }
    const table = copy
      .prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (table === undefined) return { ok: false, reason: 'not_gateway', path };
    const newest = copy.prepare('select max(name) as name from kysely_migration').get() as {
      name: string | null;
    };
    const pages = (copy.pragma('page_count', { simple: true }) as number | bigint | undefined) ?? 0;
    return { ok: true, path, bytes: 0, pages: Number(pages), migration: newest.name };
  } catch (error) {
    if (isNotADatabase(error)) return { ok: false, reason: 'not_sqlite', path };
    throw error;
  } finally {
    copy.close();
  }
}

/**
 * Copies the SQLite database at `source` to `destination` with the online backup API, while other
 * processes keep reading and writing it. Refuses to overwrite an existing destination unless `force`.
 */
export async function backupSqlite(
  source: string,
  destination: string,
  options: { force?: boolean } = {},
): Promise<SqliteCopyOutcome> {
  const from = resolve(source);
  const to = resolve(destination);
  if (!existsSync(from)) return { ok: false, reason: 'missing', path: from };
  if (from === to) return { ok: false, reason: 'same_file', path: to };
  if (!existsSync(dirname(to))) return { ok: false, reason: 'no_directory', path: dirname(to) };
  if (existsSync(to) && options.force !== true) return { ok: false, reason: 'exists', path: to };

  const partial = partialPathOf(to);
  rmSync(partial, { force: true });
  const database = new SQLite(from, { fileMustExist: true });
  try {
    // Reads only; a busy writer makes it wait (5 s a try), never fail at once.
    database.pragma('query_only = ON');
    database.pragma('busy_timeout = 5000');
    try {
      database.prepare('select count(*) from sqlite_master').get();
    } catch (error) {
      if (isNotADatabase(error)) return { ok: false, reason: 'not_sqlite', path: from };
      throw error;
    }
    // Every page in one step: one read transaction, so the copy is one consistent snapshot. (Steps of a
    // few pages would start over whenever the service commits between two of them.)
    await database.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    database.close();
  }
  try {
    const checked = checkCopy(partial);
    if (!checked.ok) return { ...checked, path: checked.path === partial ? to : checked.path };
    flushToDisk(partial);
    if (options.force === true) {
      removeSidecars(to);
      renameSync(partial, to);
    } else {
      // A link fails if the name was taken meanwhile: never overwrites without --force.
      try {
        linkSync(partial, to);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST')
          return { ok: false, reason: 'exists', path: to };
        throw error;
      }
    }
    return { ...checked, path: to, bytes: statSync(to).size };
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * True when no connection of any process has the SQLite database at `path` open: an exclusive lock can
 * be taken at once. In WAL mode every open connection (the service's writer and reader) holds a shared
 * lock on the file for as long as it is open. The check's own connection, the last one, leaves the file
 * whole: its WAL written back into it.
 */
function notInUse(path: string): boolean {
  const database = new SQLite(path, { fileMustExist: true, timeout: 0 });
  try {
    database.pragma('locking_mode = EXCLUSIVE');
    database.exec('begin exclusive');
    database.exec('commit');
    database.pragma('wal_checkpoint(TRUNCATE)');
    return true;
  } catch (error) {
    if (error instanceof SQLite.SqliteError && error.code.startsWith('SQLITE_BUSY')) return false;
    throw error;
  } finally {
    database.close();
  }
}

/**
 * Puts the backup at `backup` in the place of the database at `target`: checked first (a SQLite database
 * of this service, whole), copied beside the target, then renamed over it. Refuses while a process has
 * the target open, and to replace an existing database unless `force`.
 */
export async function restoreSqlite(
  backup: string,
  target: string,
  options: { force?: boolean } = {},
): Promise<SqliteCopyOutcome> {
  const from = resolve(backup);
  const to = resolve(target);
  if (!existsSync(from)) return { ok: false, reason: 'missing', path: from };
  if (from === to) return { ok: false, reason: 'same_file', path: to };
  if (!existsSync(dirname(to))) return { ok: false, reason: 'no_directory', path: dirname(to) };
  const replacing = existsSync(to);
  if (replacing && options.force !== true) return { ok: false, reason: 'exists', path: to };
  try {
    if (replacing && !notInUse(to)) return { ok: false, reason: 'in_use', path: to };
  } catch (error) {
    // What is in the target's place is not a database: a restore with --force replaces it all the same.
    if (!isNotADatabase(error)) throw error;
  }
  // The backup itself is copied with the same API (it may be a WAL file a service still has open).
  const copied = await backupSqlite(from, partialPathOf(`${to}.restore`), { force: true });
  // What is refused then is the backup: it is named.
  if (!copied.ok) return { ...copied, path: from };
  try {
    // Checked again: a service may have been started on the target since.
    if (existsSync(to) && !notInUse(to)) return { ok: false, reason: 'in_use', path: to };
    removeSidecars(to);
    renameSync(copied.path, to);
  } finally {
    rmSync(copied.path, { force: true });
  }
  return { ...copied, path: to };
}
