import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { ConfigError, withValue } from './config-error.js';

// The variables whose value needs more than the schema: URLs that pick a database, lists of addresses,
// secrets that may be generated, addresses derived from others.

/** Which database the service stores in, decided from `DATABASE_URL`. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** `DATABASE_URL` (or `variable`): a PostgreSQL URL, `file:PATH` or a plain path (SQLite). */
export function parseDatabaseUrl(value: string, variable = 'DATABASE_URL'): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError({
      variable,
      message: withValue(variable, 'must be postgres://…, file:PATH or a plain path', value),
    });
  }
  const path = value.startsWith('file:') ? value.slice('file:'.length) : value;
  if (path === '') throw new ConfigError({ variable, message: 'file: needs a path' });
  return { kind: 'sqlite', path };
}

/** `DATABASE_READ_URL`: a PostgreSQL replica, only beside a PostgreSQL primary; null when unset. */
export function parseReadReplicaUrl(primary: string, replica: string | undefined): DatabaseTarget | null {
  if (replica === undefined) return null;
  const target = Object.freeze(parseDatabaseUrl(replica, 'DATABASE_READ_URL'));
  if (target.kind !== 'postgres' || !/^postgres(ql)?:\/\//.test(primary)) {
    throw new ConfigError({
      variable: 'DATABASE_READ_URL',
      message: 'a read replica needs PostgreSQL in both DATABASE_URL and DATABASE_READ_URL',
    });
  }
  return target;
}

/** `TRUST_PROXY`: a comma-separated list of IP addresses and CIDR blocks. */
export function parseTrustProxy(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 6 ? 128 : 32;
    const badBits = bits !== undefined && (!/^\d+$/.test(bits) || Number(bits) > maxBits);
    if (family === 0 || badBits || extra !== undefined) {
      throw new ConfigError({
        variable: 'TRUST_PROXY',
        message: `"${entry.slice(0, 80)}" is not an IP address or CIDR block`,
      });
    }
  }
  return entries;
}

/**
 * The admin listener on this machine: its host, or the loopback address when it listens on every
 * address (`0.0.0.0`, `::`), which a link cannot name.
 */
export function localAdminUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

/** A per-process secret where one may stand in for an unset variable; never in production or a fleet. */
export function randomSecret(production: boolean, fleet: boolean, variable: 'CURSOR_SECRET'): string {
  // Cursors (and the panel's session cookies, whose key derives from it) signed with a per-process secret
  // stop working after a restart and differ between processes of a fleet; production, and every process
  // of a fleet, must set the secret.
  if (production) throw new ConfigError({ variable, message: 'must be set in production' });
  if (fleet) {
    throw new ConfigError({
      variable,
      message: 'must be set when REDIS_URL is (every process of a fleet signs with the same secret)',
    });
  }
  return randomBytes(32).toString('base64url');
}
