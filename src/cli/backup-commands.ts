import { Command } from 'commander';
import type { DatabaseTarget } from '../config.js';
import { backupSqlite, restoreSqlite, type SqliteCopy, type SqliteCopyRefusal } from '../db/sqlite-backup.js';
import { CliError, EXIT } from './cli-error.js';
import { action } from './context.js';
import { readConfig } from './read-config.js';

// `backup` and `restore` of the embedded database of DATABASE_URL (docs/data.md, Backup and restore).
// PostgreSQL has its own tools, which the refusal names: the service does not copy a server's database.

/** The PostgreSQL commands the refusals name (docs/data.md says the same). */
const PG_DUMP = 'pg_dump -Fc -f gateway.dump "$DATABASE_URL"';
const PG_RESTORE = 'pg_restore --clean --if-exists --no-owner -d "$DATABASE_URL" gateway.dump';

/** The SQLite file of DATABASE_URL; PostgreSQL and `:memory:` are refused with what to do instead. */
function sqlitePath(database: DatabaseTarget, postgresAdvice: string): string {
  if (database.kind === 'postgres') {
    throw new CliError(`DATABASE_URL is PostgreSQL: ${postgresAdvice} (docs/data.md)`, EXIT.usage, {
      error: 'postgres',
    });
  }
  if (database.path === ':memory:') {
    throw new CliError(
      'DATABASE_URL is an in-memory database: there is nothing on disk to copy',
      EXIT.usage,
      {
        error: 'memory',
      },
    );
  }
  return database.path;
}

/** One line saying why, and what to do. */
function refusalMessage(refusal: SqliteCopyRefusal, command: 'backup' | 'restore'): string {
  switch (refusal.reason) {
    case 'missing':
      return command === 'backup'
        ? `no database at ${refusal.path} (DATABASE_URL)`
        : `no backup at ${refusal.path}`;
    case 'exists':
      return command === 'backup'
        ? `${refusal.path} exists: give --force to overwrite it`
        : `a database exists at ${refusal.path} (DATABASE_URL): stop the service, then give --force to replace it`;
    case 'no_directory':
      return `the directory ${refusal.path} does not exist`;
    case 'same_file':
      return `${refusal.path} is the database itself: name another file`;
    case 'not_sqlite':
      return `${refusal.path} is not a SQLite database`;
    case 'not_gateway':
      return `${refusal.path} is a SQLite database, but not one of this service (no migrations table)`;
    case 'corrupt':
      return `${refusal.path} failed SQLite's integrity check: ${refusal.detail}`;
    case 'in_use':
      return `${refusal.path} is open in a running process (the service?): stop every process on it, then restore`;
  }
}

/** Bytes in the unit an operator reads (1.2 MB). */
function size(bytes: number): string {
  if (bytes < 1024) return `${String(bytes)} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit] ?? 'TB'}`;
}

/** The copy as `--json` prints it. */
const jsonOf = (copy: SqliteCopy, from: string, ms: number) => ({
  from,
  file: copy.path,
  bytes: copy.bytes,
  pages: copy.pages,
  migration: copy.migration,
  integrity: 'ok',
  ms,
});

function backupCommand(): Command {
  return new Command('backup')
    .description(
      'Copies the SQLite database of DATABASE_URL to FILE while the service keeps serving (SQLite online backup), checks the copy (PRAGMA integrity_check), and prints where and how big. PostgreSQL: use pg_dump.',
    )
    .argument('<file>', 'the copy to write (a self-contained SQLite file)')
    .option('--force', 'overwrite FILE if it exists')
    .action(
      action(async ({ out, env }, file: string, options: { force?: boolean }) => {
        const config = readConfig(env);
        const source = sqlitePath(config.database, `back it up with ${PG_DUMP}`);
        const started = performance.now();
        const outcome = await backupSqlite(source, file, { force: options.force === true });
        if (!outcome.ok) {
          throw new CliError(refusalMessage(outcome, 'backup'), EXIT.failed, { error: outcome.reason });
        }
        const ms = Math.round(performance.now() - started);
        out.result(jsonOf(outcome, source, ms), () => {
          out.line(
            `Backed up ${source} to ${outcome.path}: ${size(outcome.bytes)} (${String(outcome.bytes)} bytes, ${String(outcome.pages)} pages), integrity ok, migrations up to ${outcome.migration ?? 'none'}, in ${(ms / 1000).toFixed(1)} s`,
          );
        });
      }),
    );
}

function restoreCommand(): Command {
  return new Command('restore')
    .description(
      'Puts the backup FILE in the place of the SQLite database of DATABASE_URL, after checking it (PRAGMA integrity_check). Refuses while a process has the database open: stop the service first. PostgreSQL: use pg_restore.',
    )
    .argument('<file>', 'a backup written by `backup`')
    .option('--force', 'replace the database of DATABASE_URL if one exists (the service stopped)')
    .action(
      action(async ({ out, env }, file: string, options: { force?: boolean }) => {
        const config = readConfig(env);
        const target = sqlitePath(config.database, `restore with ${PG_RESTORE}`);
        const started = performance.now();
        const outcome = await restoreSqlite(file, target, { force: options.force === true });
        if (!outcome.ok) {
          throw new CliError(refusalMessage(outcome, 'restore'), EXIT.failed, { error: outcome.reason });
        }
        const ms = Math.round(performance.now() - started);
        out.result(jsonOf(outcome, file, ms), () => {
          out.line(
            `Restored ${file} to ${outcome.path}: ${size(outcome.bytes)}, integrity ok, migrations up to ${outcome.migration ?? 'none'}. Start the service on it.`,
          );
        });
      }),
    );
}

/** The commands that copy the embedded database. */
export function backupCommands(): Command[] {
  return [backupCommand(), restoreCommand()];
}
