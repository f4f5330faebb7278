import type { DatabaseTarget } from './config.js';

// What stops a start that the operator can fix (a port in use, a database that does not exist or does
// not answer, Redis unreachable): one line saying what failed and what to do, and exit code 1, instead
// of a stack trace. Never a password: hosts, ports, database and user names only.

/** A start that cannot go on; the message is the one line to print. */
export class StartFailure extends Error {
  override name = 'StartFailure';
}

/** The error's code (Node's `EADDRINUSE`, PostgreSQL's SQLSTATE), also inside an AggregateError. */
function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = codeOf(inner);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A failed `listen` of one listener, named by the variables that set it. */
export function listenFailure(
  error: unknown,
  where: { host: string; port: number; hostVariable: string; portVariable: string },
): StartFailure | undefined {
  const { host, port, hostVariable, portVariable } = where;
  switch (codeOf(error)) {
    case 'EADDRINUSE':
      return new StartFailure(
        `${host}:${port} is already in use (${portVariable}). Stop the process that holds it (\`ss -ltnp 'sport = :${port}'\` names it) or set ${portVariable} to a free port.`,
      );
    case 'EACCES':
      return new StartFailure(
        `not allowed to listen on ${host}:${port} (${portVariable}): ports below 1024 need privileges. Set ${portVariable} to a port above 1023.`,
      );
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartFailure(
        `"${host}" is not an address of this machine (${hostVariable}). Set ${hostVariable} to one of its addresses, 0.0.0.0 for all or 127.0.0.1 for this machine only.`,
      );
    default:
      return undefined;
  }
}

/** Where a PostgreSQL URL points, without its password. */
function postgresPlace(url: string): { at: string; database: string; user: string } {
  try {
    const parsed = new URL(url);
    const host = parsed.hostname === '' ? 'localhost' : parsed.hostname;
    return {
      at: `${host}:${parsed.port === '' ? '5432' : parsed.port}`,
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username),
      user: decodeURIComponent(parsed.username),
    };
  } catch {
    return { at: 'the server of DATABASE_URL', database: '', user: '' };
  }
}

/** A failed first use of the database (the migrations), as the operator can fix it. */
export function databaseFailure(
  error: unknown,
  target: DatabaseTarget,
  variable: string,
  timeoutMs: number,
): StartFailure | undefined {
  const code = codeOf(error);
  if (target.kind === 'sqlite') {
    if (
      code === undefined ||
      !/^(SQLITE_CANTOPEN|SQLITE_READONLY|SQLITE_NOTADB|EACCES|EROFS|ENOTDIR)/.test(code)
    )
      return undefined;
    return new StartFailure(
      `the SQLite database ${target.path} cannot be opened (${variable}): ${messageOf(error)}. Check that its directory exists and is writable, or set ${variable} to another file.`,
    );
  }
  const { at, database, user } = postgresPlace(target.url);
  switch (code) {
    case '3D000':
      return new StartFailure(
        `PostgreSQL at ${at} has no database "${database}" (${variable}). Create it (\`createdb -h ${at.replace(/:(\d+)$/, ' -p $1')}${user === '' ? '' : ` -U ${user}`} ${database}\`) or set ${variable} to an existing database.`,
      );
    case 'ECONNREFUSED':
      return new StartFailure(
        `PostgreSQL at ${at} refuses connections (${variable}). Start PostgreSQL there, or fix the host and port in ${variable}.`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartFailure(
        `the PostgreSQL host of ${variable} (${at}) is not found. Fix the host in ${variable}.`,
      );
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return new StartFailure(
        `PostgreSQL at ${at} cannot be reached (${variable}). Check the host, the port and the network (a firewall) in between.`,
      );
    case '28P01':
    case '28000':
      return new StartFailure(
        `PostgreSQL at ${at} refuses the login${user === '' ? '' : ` of user "${user}"`} (${variable}): ${messageOf(error)}. Fix the user or password in ${variable}.`,
      );
    default:
      // pg's own connection time limit has no code.
      if (/timeout/i.test(messageOf(error)) && /connect/i.test(messageOf(error))) {
        return new StartFailure(
          `PostgreSQL at ${at} did not answer within DATABASE_TIMEOUT_MS (${timeoutMs} ms) (${variable}). Check that it runs and is reachable.`,
        );
      }
      return undefined;
  }
}

/** What to check when Redis does not answer at start (the process starts anyway, limits unmeasured). */
export function redisUnreachable(url: string): string {
  let at = 'the server of REDIS_URL';
  try {
    const parsed = new URL(url);
    at = `${parsed.hostname}:${parsed.port === '' ? '6379' : parsed.port}`;
  } catch {
    // the configuration checked the URL; keep the generic words
  }
  return `Redis at ${at} does not answer (REDIS_URL): started with limits unmeasured and /readyz at 503 until it does. Start Redis there or fix REDIS_URL; for a single process, leave REDIS_URL unset to count limits in the process.`;
}
