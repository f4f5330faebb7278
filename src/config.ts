import { createHmac, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';

/** Which database the service stores in, decided from `DATABASE_URL`. */
export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** How the listeners treat connections and slow clients: the HTTP edge of both listeners. */
export interface HttpEdgeConfig {
  /** Time a client has to send a request's whole head (both listeners), from its first byte or from the connection. */
  readonly headersTimeoutMs: number;
  /** Time a client has to send a whole request, head and body, on the public listener (not the admin's). */
  readonly requestTimeoutMs: number;
  /** How long a connection may wait, idle, for its next request after an answer (both listeners). */
  readonly keepAliveTimeoutMs: number;
  /**
   * Silence that closes a connection while the client should be sending a body or reading an answer (both
   * listeners); the time the service spends working on an answer does not count.
   */
  readonly idleTimeoutMs: number;
  /** Connections one client address (IPv6: one /64) may hold open on the public listener; proxies exempt. */
  readonly maxConnectionsPerIp: number;
}

/** The service's whole configuration, parsed once at start and frozen (admin-api.md, Configuration). */
export interface Config {
  /** `production` turns off the conveniences meant for a developer's machine. */
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /** `{base_url}` of both public APIs, as partners and merchants reach it. */
  readonly publicBaseUrl: string;
  readonly database: DatabaseTarget;
  /** A PostgreSQL replica that the read-only data routes may read from; null: they read `database`. */
  readonly databaseRead: DatabaseTarget | null;
  /**
   * Longest wait for a database connection, and for any query without a longer limit of its own (the
   * POS query time limits are longer); past it the call fails with a 5xx instead of hanging.
   */
  readonly databaseTimeoutMs: number;
  /** Shared store for limits; null: in-process limits, one process only. */
  readonly redisUrl: string | null;
  /** Prepended to every key the service writes to Redis, so that several deployments can share one. */
  readonly redisKeyPrefix: string;
  /** A Redis command not answered within this fails; the call then goes on unmeasured (or gets 503). */
  readonly redisTimeoutMs: number;
  readonly adminHost: string;
  readonly adminPort: number;
  /**
   * The admin listener as the operator's staff reach it (`ADMIN_BASE_URL`), in the links to the
   * back-office console (`{adminBaseUrl}/console`); default `http://ADMIN_HOST:ADMIN_PORT`.
   */
  readonly adminBaseUrl: string;
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
  /**
   * After SIGTERM or SIGINT, how long /readyz answers 503 while requests are still served, so that the
   * load balancer stops sending before anything is refused (its check interval × unhealthy threshold).
   */
  readonly shutdownDrainMs: number;
  /**
   * After the drain, the longest wait for the requests in progress before the stores close; past it
   * the process logs what is left and exits 1.
   */
  readonly shutdownTimeoutMs: number;
  readonly http: HttpEdgeConfig;
  /** A receipts upload whose client sends nothing for this long is refused (408), nothing stored. */
  readonly uploadIdleTimeoutMs: number;
  /** A receipts upload whose body takes longer than this is refused (408), nothing stored. */
  readonly uploadTimeoutMs: number;
  /**
   * The longest an upload's last step (the one transaction writing its receipts) may take; past it the
   * transaction is rolled back and the upload refused (503), nothing stored.
   */
  readonly uploadWriteTimeoutMs: number;
  /** E-mail to merchants: the SMTP server's URL (may hold a password); null: messages are logged. */
  readonly smtpUrl: string | null;
  /** The From of e-mail to merchants. */
  readonly mailFrom: string;
  /** The merchant panel under /panel/ on the public listener (`PANEL=false` turns it off). */
  readonly panel: boolean;
  /** The back-office console under /console/ on the admin listener (`CONSOLE=false` turns it off). */
  readonly console: boolean;
  /** Signs the web faces' session cookies (32 characters at least; every process of a fleet the same). */
  readonly sessionSecret: string;
  readonly retention: RetentionConfig;
}

/**
 * How long the operational tables that grow with traffic keep their rows (docs/data.md, Retention); every
 * process sweeps them. The audit trails, tickets and receipts are never swept.
 */
export interface RetentionConfig {
  /** How long a web session's row outlives its expiry (ms); the session is refused from its expiry on. */
  readonly sessionGraceMs: number;
  /** How long the per-minute request counts are kept (ms); the dashboard reads the last hour. */
  readonly trafficMs: number;
  /** How long an e-mail of the outbox is kept once delivered (ms); undelivered ones are never swept. */
  readonly outboxMs: number;
}

/** One variable the service cannot start with, and what to do about it. */
export interface ConfigProblem {
  readonly variable: string;
  /** What is wrong, followed (for a variable that is not a secret) by the value received. */
  readonly message: string;
}

/**
 * Thrown when variables have values the service cannot start with. It names every one of them at once
 * (`problems`, in the order of the Configuration list), and never a secret's value: tokens and secrets
 * are not shown, URLs are shown without their password and query.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly ConfigProblem[];

  constructor(problems: ConfigProblem | readonly ConfigProblem[]) {
    const list: readonly ConfigProblem[] = 'variable' in problems ? [problems] : problems;
    super(list.map((problem) => `${problem.variable}: ${problem.message}`).join('; '));
    this.problems = Object.freeze([...list]);
  }
}

/** A variable whose value is a credential as a whole: never shown. */
const SECRET_NAME = /(?:TOKEN|SECRET|PASSWORD|PASSPHRASE|_KEY)$/;

/**
 * The value of `variable` as an error message may show it: nothing for a secret, a URL without its
 * password and query (`postgres://gateway:***@db/gateway`), anything else cut to 80 characters.
 */
export function shownValue(variable: string, value: string): string | null {
  if (SECRET_NAME.test(variable)) return null;
  if (variable.endsWith('_URL')) {
    return value
      .replace(/^([a-z][a-z0-9+.-]*:\/\/)([^@/?#]*)@/i, maskPassword)
      .replace(/[?#].*$/s, (rest) => (rest === '' ? '' : '?…'))
      .slice(0, 80);
  }
  return value.slice(0, 80);
}

/** A URL's scheme and user information with the password replaced by `***`. */
function maskPassword(_: string, scheme: string, userinfo: string): string {
  const colon = userinfo.indexOf(':');
  return `${scheme}${colon === -1 ? userinfo : `${userinfo.slice(0, colon)}:***`}@`;
}

/**
 * A free text (a driver's error message) with the password of every URL in it replaced by `***`, as
 * `shownValue` shows a URL; a URL ends at a space.
 */
export function withoutPasswords(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^@/?#\s]*)@/gi, maskPassword);
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
  DATABASE_READ_URL: nonEmpty.optional(),
  DATABASE_TIMEOUT_MS: integer(100, 600_000).default(5000),
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\x21-\x7e]{1,64}$/, 'must be 1 to 64 printable ASCII characters without spaces')
    .default('gw:'),
  REDIS_TIMEOUT_MS: integer(10, 60_000).default(500),
  ADMIN_HOST: nonEmpty.default('127.0.0.1'),
  ADMIN_PORT: port.default(8081),
  ADMIN_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
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
  SHUTDOWN_DRAIN_MS: integer(0, 600_000).default(10_000),
  SHUTDOWN_TIMEOUT_MS: integer(100, 600_000).default(20_000),
  HTTP_HEADERS_TIMEOUT_MS: integer(10, 600_000).default(10_000),
  HTTP_REQUEST_TIMEOUT_MS: integer(10, 3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(10, 600_000).default(5000),
  HTTP_IDLE_TIMEOUT_MS: integer(10, 3_600_000).default(60_000),
  MAX_CONNECTIONS_PER_IP: integer(1, 1_000_000).default(256),
  UPLOAD_IDLE_TIMEOUT_MS: integer(100, 3_600_000).default(30_000),
  UPLOAD_TIMEOUT_MS: integer(100, 86_400_000).default(900_000),
  UPLOAD_WRITE_TIMEOUT_MS: integer(100, 86_400_000).default(900_000),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address, or a name and <address>',
    )
    .default('Partner Gateway <no-reply@localhost>'),
  PANEL: z.enum(['true', 'false']).default('true'),
  CONSOLE: z.enum(['true', 'false']).default('true'),
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  RETENTION_SESSION_HOURS: integer(0, 8760).default(1),
  RETENTION_TRAFFIC_DAYS: integer(1, 3650).default(2),
  RETENTION_OUTBOX_DAYS: integer(1, 3650).default(30),
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function parseDatabaseUrl(value: string, variable = 'DATABASE_URL'): DatabaseTarget {
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

function parseReadReplicaUrl(primary: string, replica: string | undefined): DatabaseTarget | null {
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
      throw new ConfigError({
        variable: 'TRUST_PROXY',
        message: `"${entry.slice(0, 80)}" is not an IP address or CIDR block`,
      });
    }
  }
  return entries;
}

/** `message`, followed by the value received when it may be shown. */
function withValue(variable: string, message: string, received: string | undefined): string {
  const shown = received === undefined ? null : shownValue(variable, received);
  return shown === null ? message : `${message} (got "${shown}")`;
}

/** The variables in the order of the schema (the Configuration list), then any other. */
const VARIABLE_ORDER: readonly string[] = Object.keys(schema.shape);
const orderOf = (variable: string) => {
  const index = VARIABLE_ORDER.indexOf(variable);
  return index === -1 ? VARIABLE_ORDER.length : index;
};

/**
 * Parses the environment into a frozen Config. Throws one ConfigError naming every variable that is
 * wrong, so that the start stops with the whole list of what to fix, and no secret's value in it.
 */
export function loadConfig(env: NodeJS.ProcessEnv | Record<string, string | undefined>): Config {
  const present: Record<string, string | undefined> = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const problems: ConfigProblem[] = [];
  const failed = (variable: string) => problems.some((problem) => problem.variable === variable);
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? 'environment');
      if (failed(variable)) continue; // the first issue of each variable says enough
      problems.push({ variable, message: withValue(variable, issue.message, present[variable]) });
    }
  }
  /** Runs a check of `variables` whose own values are good; its ConfigError joins the list. */
  const check = <T>(variables: readonly string[], read: () => T): T | undefined => {
    if (variables.some(failed)) return undefined;
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  const field = <K extends keyof typeof schema.shape>(name: K) =>
    schema.shape[name].parse(present[name]) as z.output<(typeof schema.shape)[K]>;

  const databaseUrl = present.DATABASE_URL ?? 'file:./data/service.sqlite';
  // Frozen too: Object.freeze below is shallow, and the whole configuration is read-only.
  const database = check(['DATABASE_URL'], () => Object.freeze(parseDatabaseUrl(databaseUrl)));
  const databaseRead = check(['DATABASE_URL', 'DATABASE_READ_URL'], () =>
    parseReadReplicaUrl(databaseUrl, present.DATABASE_READ_URL),
  );
  const trustProxy = check(['TRUST_PROXY'], () => Object.freeze(parseTrustProxy(present.TRUST_PROXY)));
  const cursorSecret = check(
    ['NODE_ENV', 'REDIS_URL', 'CURSOR_SECRET'],
    () =>
      field('CURSOR_SECRET') ??
      randomSecret(field('NODE_ENV') === 'production', present.REDIS_URL !== undefined, 'CURSOR_SECRET'),
  );
  // The panel's session cookies: SESSION_SECRET, or else a key derived from the cursors' secret, which
  // production and every process of a fleet already share (and a process's own random one otherwise), so
  // that the panel never adds a variable a deployment must set before it starts.
  const sessionSecret = check(['SESSION_SECRET'], () => {
    if (cursorSecret === undefined) return undefined; // CURSOR_SECRET's own problem is listed
    return (
      field('SESSION_SECRET') ??
      createHmac('sha256', cursorSecret).update('partner-gateway panel session cookies').digest('base64url')
    );
  });
  // Node refuses a head timeout longer than the whole request's: the head is part of the request.
  check(['HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS'], () => {
    const request = field('HTTP_REQUEST_TIMEOUT_MS');
    if (field('HTTP_HEADERS_TIMEOUT_MS') > request) {
      throw new ConfigError({
        variable: 'HTTP_HEADERS_TIMEOUT_MS',
        message: `must not exceed HTTP_REQUEST_TIMEOUT_MS (${request})`,
      });
    }
  });
  check(['ADMIN_TOKEN', 'SUPPORT_TOKEN'], () => {
    if (present.ADMIN_TOKEN !== undefined && present.ADMIN_TOKEN === present.SUPPORT_TOKEN) {
      throw new ConfigError({ variable: 'SUPPORT_TOKEN', message: 'must differ from ADMIN_TOKEN' });
    }
  });

  if (
    problems.length > 0 ||
    !parsed.success ||
    database === undefined ||
    databaseRead === undefined ||
    trustProxy === undefined ||
    cursorSecret === undefined ||
    sessionSecret === undefined
  ) {
    throw new ConfigError(problems.sort((x, y) => orderOf(x.variable) - orderOf(y.variable)));
  }
  const e = parsed.data;
  const config: Config = {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    database,
    databaseRead,
    databaseTimeoutMs: e.DATABASE_TIMEOUT_MS,
    redisUrl: e.REDIS_URL ?? null,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    redisTimeoutMs: e.REDIS_TIMEOUT_MS,
    adminHost: e.ADMIN_HOST,
    adminPort: e.ADMIN_PORT,
    adminBaseUrl: (e.ADMIN_BASE_URL ?? localAdminUrl(e.ADMIN_HOST, e.ADMIN_PORT)).replace(/\/+$/, ''),
    adminToken: e.ADMIN_TOKEN ?? null,
    supportToken: e.SUPPORT_TOKEN ?? null,
    cursorSecret,
    trustProxy,
    logLevel: e.LOG_LEVEL,
    demo: e.DEMO === undefined ? 'auto' : e.DEMO === 'true' ? 'on' : 'off',
    posRotationGraceSeconds: e.POS_ROTATION_GRACE_SECONDS,
    posSalesQueryTimeoutMs: e.POS_SALES_QUERY_TIMEOUT_MS,
    posEventsQueryTimeoutMs: e.POS_EVENTS_QUERY_TIMEOUT_MS,
    ipBlockThreshold: e.IP_BLOCK_THRESHOLD,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    http: Object.freeze({
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      maxConnectionsPerIp: e.MAX_CONNECTIONS_PER_IP,
    }),
    uploadIdleTimeoutMs: e.UPLOAD_IDLE_TIMEOUT_MS,
    uploadTimeoutMs: e.UPLOAD_TIMEOUT_MS,
    uploadWriteTimeoutMs: e.UPLOAD_WRITE_TIMEOUT_MS,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    panel: e.PANEL === 'true',
    console: e.CONSOLE === 'true',
    sessionSecret,
    retention: Object.freeze({
      sessionGraceMs: e.RETENTION_SESSION_HOURS * HOUR_MS,
      trafficMs: e.RETENTION_TRAFFIC_DAYS * DAY_MS,
      outboxMs: e.RETENTION_OUTBOX_DAYS * DAY_MS,
    }),
  };
  return Object.freeze(config);
}

/**
 * The admin listener on this machine: its host, or the loopback address when it listens on every
 * address (`0.0.0.0`, `::`), which a link cannot name.
 */
function localAdminUrl(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

function randomSecret(production: boolean, fleet: boolean, variable: 'CURSOR_SECRET'): string {
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
