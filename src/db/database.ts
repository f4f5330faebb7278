import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type KyselyConfig } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import { nameStatements } from './prepared-query.js';
import type { Database } from './schema.js';
import { ReadRoutingSqliteDialect } from './sqlite-read-routing.js';
import { createSqliteWriterThread, type SqliteWriterThread } from './sqlite-writer-thread.js';
import { withStatementCache } from './statement-cache.js';
import type { DataVersion } from './unchanged-reads.js';

/** The database handle every repository function takes first. */
export type Db = Kysely<Database>;

// int8 (bigint) holds instants in milliseconds and ticket sequences: both fit a JS number exactly.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Told by the database layer what the metrics count (docs/operations.md, Metrics). */
export interface DatabaseObserver {
  /** A statement failed (any error the driver or the server reported). */
  queryFailed(): void;
  /** A PostgreSQL query waited this long for a free connection of a full pool. */
  poolWaited(seconds: number): void;
}

/** Options for opening a database; `searchPath` isolates a PostgreSQL schema (used by the tests). */
export interface OpenOptions {
  searchPath?: string;
  poolSize?: number;
  /** PostgreSQL: longest wait for a connection (default 5000 ms). */
  connectTimeoutMs?: number;
  /**
   * PostgreSQL: longest wait for any query's answer, measured by the client (default: none). It guards
   * against a server that stopped answering without closing the connection; the server's own
   * `statement_timeout` (set per query where the contract gives a time limit) should fire first.
   */
  queryTimeoutMs?: number;
  /**
   * PostgreSQL: told when a pooled connection fails (the server restarted, the network dropped). The
   * pool discards that connection and opens a new one on the next query; without a listener the failure
   * would be an unhandled 'error' event and stop the process.
   */
  onConnectionError?: (error: Error) => void;
  /** Told of every failed statement and, on PostgreSQL, of every wait for a connection (docs/operations.md, Metrics). */
  observer?: DatabaseObserver;
  /** PostgreSQL: settings every connection of the pool starts its session with (see `onSession`). */
  session?: SessionSettings;
}

/**
 * PostgreSQL settings by name (`statement_timeout` in ms, `max_parallel_workers_per_gather`), held by a
 * connection for its whole session. Whole numbers only: they are written into the startup packet.
 */
export type SessionSettings = Readonly<Record<string, number>>;

/** Kysely's log option that tells the observer of failed statements; none without an observer. */
function logFor(observer: DatabaseObserver | undefined): KyselyConfig['log'] {
  if (observer === undefined) return undefined;
  return (event) => {
    if (event.level === 'error') observer.queryFailed();
  };
}

/**
 * The pool as Kysely sees it: telling the observer how long a query waited for a connection whenever
 * every connection was busy when it asked, checking each new connection once before its first use
 * (`checkNew`; a connection that fails the check is discarded, and the query fails with its error), and
 * ending the pools opened beside it (`onSession`) with it.
 */
function kyselyPool(
  pool: pg.Pool,
  max: number,
  observer: DatabaseObserver | undefined,
  hooks: { checkNew?: (client: pg.PoolClient) => Promise<void>; endBeside: () => Promise<void> },
) {
  const checked = new WeakSet<pg.PoolClient>();
  const take = async () => {
    const full = pool.idleCount === 0 && pool.totalCount >= max;
    if (observer === undefined || !full) return pool.connect();
    const started = performance.now();
    const client = await pool.connect();
    observer.poolWaited((performance.now() - started) / 1000);
    return client;
  };
  return {
    async connect() {
      const client = await take();
      if (hooks.checkNew === undefined || checked.has(client)) return client;
      try {
        await hooks.checkNew(client);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      checked.add(client);
      return client;
    },
    end: async () => {
      await Promise.all([pool.end(), hooks.endBeside()]);
    },
  };
}

/**
 * Fails unless the session holds the settings it asked for when connecting. A connection pooler may
 * drop startup options it does not handle (PgBouncer's `ignore_startup_parameters`) or apply them to
 * other server connections than the client's: a time limit lost so would let a query run unbounded.
 */
async function checkSessionSettings(client: pg.PoolClient, settings: SessionSettings): Promise<void> {
  const names = Object.keys(settings);
  const { rows } = await client.query<{ name: string; setting: string }>(
    'select name, setting from pg_settings where name = any($1)',
    [names],
  );
  const held = new Map(rows.map((row) => [row.name, row.setting]));
  const lost = names.filter((name) => held.get(name) !== String(settings[name]));
  if (lost.length > 0)
    throw new Error(
      `the database session does not hold ${lost.map((name) => `${name} = ${settings[name]}`).join(', ')}, ` +
        'sent when connecting; a connection pooler between the service and PostgreSQL must pass startup ' +
        'options on (docs/operations.md, Connection poolers)',
    );
}

/** `-c name=value` for each setting a session starts with, as the `options` startup parameter takes them. */
function startupOptions(searchPath: string | undefined, settings: SessionSettings): string | undefined {
  const pairs = Object.entries(settings).map(([name, value]) => {
    if (!/^[a-z_]+$/.test(name) || !Number.isInteger(value))
      throw new Error(`not a session setting: ${name}`);
    return `-c ${name}=${value}`;
  });
  if (searchPath !== undefined) pairs.unshift(`-c search_path=${searchPath}`);
  return pairs.length === 0 ? undefined : pairs.join(' ');
}

/** A PostgreSQL database's pools that start their sessions with settings of their own (`onSession`). */
interface SessionPools {
  /** The settings the connections of this database's own pool start with. */
  settings: SessionSettings;
  /** The pool whose connections start with exactly these settings, opened on first use. */
  open(settings: SessionSettings): Db;
}

const sessionPools = new WeakMap<Db, SessionPools>();

/**
 * `db` as a pool whose every connection holds `settings` for its whole session (and `db`'s own), on the
 * same PostgreSQL database: a statement that needs them runs in one round trip, where settings local to
 * a transaction of its own would take three more (begin, set, commit). Such a pool is opened beside `db`
 * on first use, one per distinct set of settings, as large as `db`'s and closed with it; `db` itself when
 * its connections already hold them. Throws for a Db that `openDatabase` did not open on PostgreSQL (a
 * transaction sets what it needs with `set local`).
 */
export function onSession(db: Db, settings: SessionSettings): Db {
  const pools = sessionPools.get(db);
  if (pools === undefined) throw new Error('onSession: not a PostgreSQL pool opened by openDatabase');
  if (Object.entries(settings).every(([name, value]) => pools.settings[name] === value)) return db;
  return pools.open({ ...pools.settings, ...settings });
}

/** A PostgreSQL pool; `open` opens those beside it (`onSession`), given when it is one of them. */
function openPostgres(target: { url: string }, options: OpenOptions, open?: SessionPools['open']): Db {
  const max = options.poolSize ?? 10;
  const settings = options.session ?? {};
  const beside = new Map<string, Db>();
  const openBeside =
    open ??
    ((wanted: SessionSettings) => {
      const key = JSON.stringify(Object.entries(wanted).sort(([a], [b]) => a.localeCompare(b)));
      let pool = beside.get(key);
      if (pool === undefined) {
        pool = openPostgres(target, { ...options, session: wanted }, openBeside);
        beside.set(key, pool);
      }
      return pool;
    });
  const startup = startupOptions(options.searchPath, settings);
  const pool = new pg.Pool({
    connectionString: target.url,
    max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    // Lets the operating system notice a peer that vanished without closing the connection.
    keepAlive: true,
    ...(options.queryTimeoutMs === undefined ? {} : { query_timeout: options.queryTimeoutMs }),
    ...(startup === undefined ? {} : { options: startup }),
  });
  const onConnectionError = options.onConnectionError ?? (() => undefined);
  // An idle connection's failure reaches the pool; a busy one's reaches only its client, which the
  // pool leaves without a listener while it is checked out. Both get one: the query in progress fails
  // on its own (a 5xx for its call), the pool drops the broken connection, and the process goes on.
  pool.on('error', onConnectionError);
  pool.on('connect', (client) => {
    client.on('error', onConnectionError);
    // The hot queries' texts run as named prepared statements (src/db/prepared-query.ts).
    nameStatements(client);
  });
  const endBeside = async () => {
    await Promise.all([...beside.values()].map((besidePool) => besidePool.destroy()));
  };
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: kyselyPool(pool, max, options.observer, {
        endBeside,
        ...(Object.keys(settings).length === 0
          ? {}
          : { checkNew: (client) => checkSessionSettings(client, settings) }),
      }),
    }),
    log: logFor(options.observer),
  });
  sessionPools.set(db, { settings, open: openBeside });
  return db;
}

/**
 * Opens the database named by the configuration: SQLite in WAL mode (a file: one writer connection and
 * one reader connection beside it, see sqlite-read-routing.ts; `:memory:` has one connection only), or
 * a PostgreSQL pool.
 */
export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  if (target.kind === 'postgres') return openPostgres(target, options);
  const inMemory = target.path === ':memory:';
  if (!inMemory) mkdirSync(dirname(target.path), { recursive: true });
  const sqlite = new SQLite(target.path);
  sqlite.pragma('journal_mode = WAL');
  // FULL: a ticket acknowledged with 201 survives a power cut, not only a crash of the process.
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  const log = logFor(options.observer);
  if (inMemory)
    return new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
      log,
    });
  // Opened after the writer switched the file to WAL; it only reads, so it never takes the write lock.
  const reader = new SQLite(target.path);
  reader.pragma('query_only = ON');
  reader.pragma('busy_timeout = 5000');
  // A connection that only reads the file's data version (src/db/unchanged-reads.ts). Not the reader's:
  // while a read streams its rows there, that connection stays on the state it began in, and its
  // number does not move.
  const versions = new SQLite(target.path);
  versions.pragma('query_only = ON');
  const dataVersion = versions.prepare('pragma data_version').pluck();
  const writerThread = createSqliteWriterThread(target.path);
  const db = new Kysely<Database>({
    dialect: new ReadRoutingSqliteDialect(
      withStatementCache(sqlite),
      withStatementCache(reader),
      writerThread,
      [versions],
    ),
    log,
  });
  writerThreads.set(db, writerThread);
  dataVersions.set(db, () => {
    // No number when the connection cannot give one: the caller then reads, and meets the error itself.
    try {
      return dataVersion.get() as number;
    } catch {
      return undefined;
    }
  });
  return db;
}

/** The writer threads of the SQLite files opened (sqlite-writer-thread.ts); `:memory:` has none. */
const writerThreads = new WeakMap<Db, SqliteWriterThread>();

/**
 * The writer thread of a SQLite file's database, where batches commit off the event loop; undefined on
 * PostgreSQL and for `:memory:` (one connection only, which no thread can share).
 */
export function sqliteWriterThreadOf(db: Db): SqliteWriterThread | undefined {
  return writerThreads.get(db);
}

/** The state number of each SQLite file opened (src/db/unchanged-reads.ts). */
const dataVersions = new WeakMap<Db, DataVersion>();

/**
 * Reads the number that changes with every commit to a SQLite file's database (`pragma data_version`
 * on a connection that never writes); undefined on PostgreSQL and for `:memory:`, whose one connection
 * does not see its own commits change it.
 */
export function sqliteDataVersionOf(db: Db): DataVersion | undefined {
  return dataVersions.get(db);
}
