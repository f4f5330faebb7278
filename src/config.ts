import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';

/** Which database the service stores in, decided from `DATABASE_URL`. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** The service's whole configuration, parsed once at start and frozen (admin-api.md, Configuration). */
export interface Config {
  /** `production` turns off the conveniences meant for a developer's machine. */
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /** `{base_url}` of both public APIs, as partners and merchants reach it. */
  readonly publicBaseUrl: string;
  readonly database: DatabaseTarget;
  /** Shared store for limits; null: in-process limits, one process only. */
  readonly redisUrl: string | null;
  readonly adminHost: string;
  readonly adminPort: number;
  /** Bearer token of the operator's back office; null: no admin listener in production. */
  readonly adminToken: string | null;
  /** Bearer token of the operator's support staff (read and revoke only). */
  readonly supportToken: string | null;
  /** Secret that signs pagination cursors. */
  readonly cursorSecret: string;
  /** Addresses or CIDRs of proxies whose `X-Forwarded-For` is believed; empty: the socket's address. */
  readonly trustProxy: readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Demo data on a first start with an empty database: `auto` means embedded database only. */
  readonly demo: 'auto' | 'on' | 'off';
  readonly posRotationGraceSeconds: number;
  readonly posSalesQueryTimeoutMs: number;
  readonly posEventsQueryTimeoutMs: number;
  /** Wrong-key refusals from one IP within 60 seconds that block it. */
  readonly ipBlockThreshold: number;
}

/** Thrown when a variable has a value the service cannot start with; the message names the variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const port = integer(0, 65535);

const nonEmpty = z.string().min(1, 'must not be empty');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(8080),
  HOST: nonEmpty.default('0.0.0.0'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  DATABASE_URL: nonEmpty.default('file:./data/service.sqlite'),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  ADMIN_HOST: nonEmpty.default('127.0.0.1'),
  ADMIN_PORT: port.default(8081),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  SUPPORT_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO: z.enum(['true', 'false']).optional(),
  POS_ROTATION_GRACE_SECONDS: integer(0, 365 * 86400).default(86400),
  POS_SALES_QUERY_TIMEOUT_MS: integer(1, 600_000).default(15000),
  POS_EVENTS_QUERY_TIMEOUT_MS: integer(1, 600_000).default(3000),
  IP_BLOCK_THRESHOLD: integer(1, 1_000_000).default(20),
});

function parseDatabaseUrl(value: string): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(value)) return { kind: 'postgres', url: value };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError('DATABASE_URL: must be postgres://…, file:PATH or a plain path');
  }
  const path = value.startsWith('file:') ? value.slice('file:'.length) : value;
  if (path === '') throw new ConfigError('DATABASE_URL: file: needs a path');
  return { kind: 'sqlite', path };
}

function parseTrustProxy(value: string | undefined): string[] {
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
      throw new ConfigError(`TRUST_PROXY: "${entry}" is not an IP address or CIDR block`);
    }
  }
  return entries;
}

/**
 * Parses the environment into a frozen Config. Throws ConfigError naming the first variable that is
 * wrong, so the start stops with one clear message.
 */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const received = present[variable];
    const shown = received === undefined ? '' : ` (got "${received.slice(0, 80)}")`;
    throw new ConfigError(`${variable}: ${issue?.message ?? 'invalid'}${shown}`);
  }
  const e = parsed.data;
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    // Frozen too: Object.freeze below is shallow, and the whole configuration is read-only.
    database: Object.freeze(parseDatabaseUrl(e.DATABASE_URL)),
    redisUrl: e.REDIS_URL ?? null,
    adminHost: e.ADMIN_HOST,
    adminPort: e.ADMIN_PORT,
    adminToken: e.ADMIN_TOKEN ?? null,
    supportToken: e.SUPPORT_TOKEN ?? null,
    cursorSecret: e.CURSOR_SECRET ?? randomSecret(e.NODE_ENV),
    trustProxy: Object.freeze(parseTrustProxy(e.TRUST_PROXY)),
    logLevel: e.LOG_LEVEL,
    demo: e.DEMO === undefined ? 'auto' : e.DEMO === 'true' ? 'on' : 'off',
    posRotationGraceSeconds: e.POS_ROTATION_GRACE_SECONDS,
    posSalesQueryTimeoutMs: e.POS_SALES_QUERY_TIMEOUT_MS,
    posEventsQueryTimeoutMs: e.POS_EVENTS_QUERY_TIMEOUT_MS,
    ipBlockThreshold: e.IP_BLOCK_THRESHOLD,
  };
  if (config.adminToken !== null && config.adminToken === config.supportToken) {
    throw new ConfigError('SUPPORT_TOKEN: must differ from ADMIN_TOKEN');
  }
  return Object.freeze(config);
}

function randomSecret(env: Config['env']): string {
  // Cursors signed with a per-process secret stop working after a restart and differ between processes
  // of a fleet; production must set CURSOR_SECRET.
  if (env === 'production') throw new ConfigError('CURSOR_SECRET: must be set in production');
  return randomBytes(32).toString('base64url');
}
