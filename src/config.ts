import { createHmac } from 'node:crypto';
import type { z } from 'zod';
import { ConfigError, withValue, type ConfigProblem } from './config/config-error.js';
import { environmentSchema as schema } from './config/environment-schema.js';
import {
  localAdminUrl,
  parseDatabaseUrl,
  parseReadReplicaUrl,
  parseTrustProxy,
  randomSecret,
  type DatabaseTarget,
} from './config/variables.js';

export { ConfigError } from './config/config-error.js';
export type { DatabaseTarget } from './config/variables.js';

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

/**
 * The service's whole configuration, parsed once at start and frozen (docs/admin-rules.md, Configuration).
 */
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

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

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
  return configOf(parsed.data, { database, databaseRead, trustProxy, cursorSecret, sessionSecret });
}

/** The values that need more than the schema, each checked on its own in `loadConfig`. */
type DerivedValues = Pick<
  Config,
  'database' | 'databaseRead' | 'trustProxy' | 'cursorSecret' | 'sessionSecret'
>;

/** The frozen Config from the parsed variables and the derived values. */
function configOf(e: z.output<typeof schema>, derived: DerivedValues): Config {
  const { database, databaseRead, trustProxy, cursorSecret, sessionSecret } = derived;
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
