// Whether a failed statement failed because the database itself is out of reach (stopped, restarting,
// the connection lost or silent, the file unwritable), rather than because it refused the statement: a
// caller that can say so (a receipts upload) answers that nothing was stored and to send it again later.

/** PostgreSQL SQLSTATEs of a server out of reach: connection exceptions, and shutdowns or start-ups. */
const POSTGRES_STATES = /^(08|57P0[1-3]$)/;

/** Socket errors of the operating system on the way to the server. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * The driver's own errors (pg, pg-pool) when the connection ended or the server stopped answering
 * (`Query read timeout`: the client-side limit that catches a silent server).
 */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^Query read timeout$/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error/,
  /^Client was closed/,
];

/** SQLite: the file locked by another process past the busy timeout, or it cannot be read or written. */
const SQLITE_CODES = /^SQLITE_(BUSY|IOERR|FULL|CANTOPEN)/;

/** Whether `error` says the database is out of reach rather than that it refused a statement. */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (POSTGRES_STATES.test(code) || SOCKET_CODES.has(code) || SQLITE_CODES.test(code)) return true;
  }
  if (DRIVER_MESSAGES.some((message) => message.test(error.message))) return true;
  return error.cause !== undefined && isDatabaseUnavailable(error.cause);
}
