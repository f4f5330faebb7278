import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import type { Clock } from '../src/clock.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, type Db } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { FleetNotices } from '../src/fleet/fleet-notices.js';
import { createMemoryRateLimitStore } from '../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../src/rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore } from '../src/rate-limit/redis-store.js';
import type { Metrics } from '../src/observability/metrics.js';
import { createServices, type Services } from '../src/services.js';
import { holdToDocuments } from './openapi-conformance.js';
import { createProcessDatabase } from './support/process-database.js';

// The harness of the HTTP suites: a fresh app per test on every dialect, a manual clock, and helpers
// that talk to the admin API the way the operator would.

/** A clock the test moves by hand. Starts at a fixed instant so that headers are predictable. */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 10, 20, 12, 0, 0)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
export const SUPPORT_TOKEN = 'test-support-token-0123456789';

/** A database the suites run on, with the rate-limit store that goes with it. */
export interface Dialect {
  name: 'sqlite' | 'postgres';
  /**
   * Opens an empty, migrated database of its own; `drop` removes it. On PostgreSQL, `connection` says
   * where it is, for a test that opens it another way (through a proxy, say).
   */
  open(): Promise<{ db: Db; drop(): Promise<void>; connection?: { url: string; searchPath: string } }>;
  /** A rate-limit store of the test's own: in-process, or Redis under a key prefix of the test's own. */
  openStore(): Promise<RateLimitStore>;
}

const postgresUrl = process.env.TEST_DATABASE_URL;
export const redisUrl = process.env.TEST_REDIS_URL;

/**
 * A Redis store whose keys no other test shares (a random prefix). Its keys expire by themselves once
 * their windows and leases are over.
 */
export function openTestRedisStore(
  options: { url?: string; commandTimeoutMs?: number } = {},
): Promise<RateLimitStore> {
  const url = options.url ?? redisUrl;
  if (url === undefined) throw new Error('TEST_REDIS_URL is not set');
  return connectRedisRateLimitStore({
    url,
    keyPrefix: `test:${randomBytes(6).toString('hex')}:`,
    commandTimeoutMs: options.commandTimeoutMs ?? 2000,
  });
}

const memoryStore = () => Promise.resolve(createMemoryRateLimitStore());

const sqlite: Dialect = {
  name: 'sqlite',
  openStore: memoryStore,
  async open() {
    const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(db);
    return { db, drop: () => db.destroy() };
  },
};

/**
 * SQLite on a file, as the service runs by default: ticket inserts go through the writer thread and key
 * look-ups through the file's data version (src/db/sqlite-writer-thread.ts, src/db/unchanged-reads.ts),
 * neither of which `:memory:` has.
 */
const sqliteFile: Dialect = {
  name: 'sqlite',
  openStore: memoryStore,
  async open() {
    const file = await createProcessDatabase('sqlite');
    const db = file.open();
    await migrateToLatest(db);
    const drop = async () => {
      await db.destroy();
      await file.drop();
    };
    return { db, drop };
  },
};

/**
 * One PostgreSQL database per test file (created on first use, dropped when the file ends), one schema per
 * test inside it. Test files run in parallel workers; giving each its own database keeps one worker's
 * schema drops out of another's catalog look-ups (the migrator introspects every schema of its database).
 */
let fileDatabase: Promise<{ name: string; url: string; admin: Db }> | undefined;

function postgresFileDatabase(): Promise<{ name: string; url: string; admin: Db }> {
  fileDatabase ??= (async () => {
    if (postgresUrl === undefined) throw new Error('TEST_DATABASE_URL is not set');
    const name = `test_file_${randomBytes(6).toString('hex')}`;
    const server = openDatabase({ kind: 'postgres', url: postgresUrl }, { poolSize: 1 });
    await sql`create database ${sql.id(name)}`.execute(server);
    await server.destroy();
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const admin = openDatabase({ kind: 'postgres', url: url.toString() }, { poolSize: 1 });
    return { name, url: url.toString(), admin };
  })();
  return fileDatabase;
}

/** Drops the file's PostgreSQL database (after its PostgreSQL suite). */
async function closePostgresFileDatabase(): Promise<void> {
  if (fileDatabase === undefined || postgresUrl === undefined) return;
  const { name, admin } = await fileDatabase;
  fileDatabase = undefined;
  await admin.destroy();
  const server = openDatabase({ kind: 'postgres', url: postgresUrl }, { poolSize: 1 });
  await sql`drop database if exists ${sql.id(name)} with (force)`.execute(server);
  await server.destroy();
}

/** PostgreSQL runs with the Redis store when TEST_REDIS_URL is set (CI sets both): a fleet's setting. */
const postgres: Dialect = {
  name: 'postgres',
  openStore: () => (redisUrl === undefined ? memoryStore() : openTestRedisStore()),
  async open() {
    const { url, admin } = await postgresFileDatabase();
    const schema = `test_${randomBytes(6).toString('hex')}`;
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    const db = openDatabase({ kind: 'postgres', url }, { searchPath: schema, poolSize: 5 });
    const drop = async () => {
      await db.destroy();
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
    };
    try {
      await migrateToLatest(db);
    } catch (error) {
      await drop();
      throw error;
    }
    return { db, drop, connection: { url, searchPath: schema } };
  },
};

/** SQLite always; PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export const dialects: Dialect[] = [sqlite, postgres];

/** Declares the suite of one dialect; without TEST_DATABASE_URL the PostgreSQL one is skipped, saying so. */
function describeOn(dialect: Dialect, name: string, body: (dialect: Dialect) => void): void {
  const skipped = dialect.name === 'postgres' && postgresUrl === undefined;
  const store = dialect.name === 'postgres' && redisUrl !== undefined ? ' + redis' : '';
  const title = `${name} [${dialect.name}${store}${skipped ? ': skipped, TEST_DATABASE_URL is not set' : ''}]`;
  describe.skipIf(skipped)(title, () => {
    if (dialect.name === 'postgres') afterAll(closePostgresFileDatabase);
    body(dialect);
  });
}

/** Declares a suite once per dialect. */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const dialect of dialects) describeOn(dialect, name, body);
}

/** Declares a suite on a SQLite file, for the paths `:memory:` does not take (see `sqliteFile`). */
export function describeOnSqliteFile(name: string, body: (dialect: Dialect) => void): void {
  describe(`${name} [sqlite file]`, () => {
    body(sqliteFile);
  });
}

/** Declares a suite about PostgreSQL itself (its faults, say). */
export function describePostgres(name: string, body: (dialect: Dialect) => void): void {
  describeOn(postgres, name, body);
}

/** The configuration of a test app: explicit values, overridable per suite. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    PUBLIC_BASE_URL: 'https://api.example.test',
    DATABASE_URL: 'file::memory:',
    ADMIN_TOKEN,
    SUPPORT_TOKEN,
    CURSOR_SECRET: 'test-cursor-secret-0123456789',
    IP_BLOCK_THRESHOLD: '20',
    LOG_LEVEL: 'silent',
    ...overrides,
  });
}

/** What the fixtures need: the operator's admin calls, to an app in the test or to a server process. */
export interface AdminClient {
  /** A request to the admin listener with the operator's token; throws unless it answers 2xx. */
  admin(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
  ): Promise<{ statusCode: number; body: string }>;
}

/** A running test app with its database, clock and admin helpers. */
export interface TestApp {
  app: App;
  /** The services the app is built on (the same clock, store and database). */
  services: Services;
  db: Db;
  clock: ManualClock;
  rateLimits: RateLimitStore;
  /** A request to the public listener. */
  call(options: InjectOptions): Promise<LightMyRequestResponse>;
  /** A request to the admin listener with the operator's token; throws unless it answers 2xx. */
  admin(method: InjectOptions['method'], url: string, body?: unknown): Promise<LightMyRequestResponse>;
  /** Like `admin`, but returns any status. */
  adminRaw(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** What a test app is built from; `testApp` fills in the rest. */
export interface TestAppParts {
  /** A logger to read what the app logs; default: none. */
  logger?: FastifyBaseLogger;
  db: Db;
  readDb?: Db;
  clock?: ManualClock;
  rateLimits?: RateLimitStore;
  /** The metrics to count into (a database opened with their observer reports there); default: new. */
  metrics?: Metrics;
  /** The fleet's notices (two apps sharing them act as two processes told through Redis); default: own. */
  notices?: FleetNotices;
  config?: Record<string, string>;
}

/** A request to the admin listener with the given bearer token, or with no Authorization header. */
export function adminAs(
  t: Pick<TestApp, 'app'>,
  token: string | undefined,
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.admin.inject({
    method,
    url,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
}

/** Builds the app over the given parts, with the request helpers every suite uses. */
export function testApp(parts: TestAppParts): TestApp {
  const clock = parts.clock ?? new ManualClock();
  const rateLimits = parts.rateLimits ?? createMemoryRateLimitStore();
  const config = testConfig(parts.config);
  const services = createServices({
    db: parts.db,
    ...(parts.readDb === undefined ? {} : { readDb: parts.readDb }),
    clock,
    rateLimits,
    ...(parts.metrics === undefined ? {} : { metrics: parts.metrics }),
    ...(parts.notices === undefined ? {} : { notices: parts.notices }),
    config,
  });
  const app = buildApp(config, { services, logger: parts.logger ?? false });
  // Every answer a suite receives is held to the OpenAPI documents of the route tables.
  holdToDocuments(app.public, 'public');
  holdToDocuments(app.admin, 'admin');
  return {
    app,
    services,
    db: parts.db,
    clock,
    rateLimits,
    call: (request: InjectOptions) => app.public.inject(request),
    adminRaw: (request: InjectOptions) =>
      app.admin.inject({
        ...request,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...request.headers },
      }),
    async admin(method: InjectOptions['method'], url: string, body?: unknown) {
      const response = await adminAs({ app }, ADMIN_TOKEN, method, url, body);
      if (response.statusCode >= 300) {
        throw new Error(`admin ${String(method)} ${url} answered ${response.statusCode}: ${response.body}`);
      }
      return response;
    },
  };
}

/** Opens a fresh, migrated database of the dialect before each test and drops it after: `.db`. */
export function useDialectDb(dialect: Dialect): { readonly db: Db } {
  let opened: { db: Db; drop(): Promise<void> } | undefined;
  beforeEach(async () => {
    opened = undefined;
    opened = await dialect.open();
  });
  afterEach(async () => {
    await opened?.drop();
  });
  return {
    get db(): Db {
      if (opened === undefined) throw new Error('the database is open only inside a test');
      return opened.db;
    },
  };
}

/** Builds a fresh app on the dialect (and its store) before each test and closes it after. */
export function useTestApp(dialect: Dialect, options: { config?: Record<string, string> } = {}): TestApp {
  const current = {} as TestApp;
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    drop = undefined;
    for (const key of Object.keys(current)) Reflect.deleteProperty(current, key);
    const opened = await dialect.open();
    drop = () => opened.drop();
    const rateLimits = await dialect.openStore();
    Object.assign(current, testApp({ db: opened.db, rateLimits, ...options }));
  });
  afterEach(async () => {
    if (drop === undefined) return; // the database did not open: nothing to close
    if ('app' in current) await current.app.close(); // absent when the store did not open
    await drop();
  });
  return current;
}
