import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Db } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { firstStartBanner, laterStartLine } from './demo/banner.js';
import { demoPresent, type DemoCredentials } from './demo/credentials.js';
import { helpdeskIsEmpty, seedHelpdeskDemo } from './helpdesk/demo.js';
import { seedPanelDemoUser } from './panel/panel-demo.js';
import { DEMO_RECEIPTS, posIsEmpty, seedPosDemo } from './pos/demo.js';
import { createMemoryRateLimitStore } from './rate-limit/memory-store.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore } from './rate-limit/redis-store.js';
import { UPLOADS_WRITING_AT_ONCE } from './pos/receipts/receipt-ingestion.js';
import { connectRedisFleetNotices } from './fleet/redis-fleet-notices.js';
import { createServices, type Services } from './services.js';
import { createShutdown } from './lifecycle/shutdown.js';
import { createMetrics } from './observability/metrics.js';
import { createLogger } from './observability/logger.js';
import { httpsOnlyStartWarning } from './web/https-only.js';
import { StartFailure, databaseFailure, listenFailure, redisUnreachable } from './start-failure.js';

// The service, as src/server.ts starts it once the Node version is checked: reads the configuration,
// migrates, seeds the demo on a first start, listens on the public and admin ports, and on SIGTERM/SIGINT
// drains, closes and exits (src/lifecycle/shutdown.ts).

function readConfig(): Config {
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      // Every variable to fix at once, one a line; never a secret's value (ConfigError leaves them out).
      const lines = error.problems.map((problem) => `${problem.variable}: ${problem.message}`);
      process.stderr.write(
        lines.length === 1
          ? `Invalid configuration: ${lines.join('')}\n`
          : `Invalid configuration, ${lines.length} variables to fix:\n${lines.map((line) => `  ${line}\n`).join('')}`,
      );
      process.exit(1);
    }
    throw error;
  }
}

function demoWanted(config: Config): boolean {
  if (config.demo === 'off') return false;
  return config.demo === 'on' || config.database.kind === 'sqlite';
}

async function main(): Promise<void> {
  let config = readConfig();
  const generatedAdminToken = config.adminToken === null && config.env !== 'production';
  if (generatedAdminToken)
    config = Object.freeze({ ...config, adminToken: randomBytes(24).toString('base64url') });

  const log = createLogger(config);
  const httpsWarning = httpsOnlyStartWarning(config);
  if (httpsWarning !== null) log.warn(httpsWarning);
  // Created before the database, so that it reports its failures and pool waits into them.
  const metrics = createMetrics();
  const databaseOptions = {
    connectTimeoutMs: config.databaseTimeoutMs,
    // The POS routes set their own, shorter, server-side limits; this one catches a server that went
    // silent, a second after the longest of them.
    queryTimeoutMs:
      Math.max(config.databaseTimeoutMs, config.posSalesQueryTimeoutMs, config.posEventsQueryTimeoutMs) +
      1000,
    onConnectionError: (error: Error) => {
      log.warn({ err: error }, 'a database connection failed; the pool replaces it on the next query');
    },
    observer: metrics.database,
  };
  const db = await openAndMigrate(config, databaseOptions);
  const readDb =
    config.databaseRead === null ? undefined : openDatabase(config.databaseRead, databaseOptions);
  // The last step of a receipts upload is one transaction of many statements, bounded by its own limit
  // (UPLOAD_WRITE_TIMEOUT_MS, set on the server per statement): the limit above, meant for the API's
  // reads, would cut a year of receipts' merge of sales buckets. A pool of its own, one connection per
  // upload that may write at once, gives up on a silent server a second after that step's own limit.
  // SQLite writes through its one writer connection.
  const uploadDb =
    config.database.kind === 'postgres'
      ? openDatabase(config.database, {
          ...databaseOptions,
          poolSize: UPLOADS_WRITING_AT_ONCE,
          queryTimeoutMs: config.uploadWriteTimeoutMs + 1000,
        })
      : undefined;
  const rateLimits = await openRateLimitStore(config, log);
  if (config.smtpUrl === null)
    log.info('SMTP_URL is not set: e-mail to merchants is written to this log instead of sent');
  // With Redis, a change of the catalog or the maintenance switch is announced to every process at once.
  const notices =
    config.redisUrl === null
      ? undefined
      : await connectRedisFleetNotices({
          url: config.redisUrl,
          keyPrefix: config.redisKeyPrefix,
          commandTimeoutMs: config.redisTimeoutMs,
          log,
        });
  const services = createServices({ db, readDb, uploadDb, rateLimits, notices, metrics, config, log });
  const app = buildApp(config, { services, logger: log });

  const demo = demoWanted(config) ? await createDemo(config, db, services, log) : null;

  await listenOr(app.public, {
    host: config.host,
    port: config.port,
    hostVariable: 'HOST',
    portVariable: 'PORT',
  });
  // Key-use flush and the audit trail's time-based events (docs/back-office.md, Audit trail and last use).
  services.keyAuditJobs.start(log);
  // The per-minute request counts of the console's dashboard, added to the fleet's every 15 s.
  services.traffic.start(log);
  // Expired sessions, old request counts and delivered e-mail go after their retention (docs/data.md).
  services.retention.start(log);
  if (config.adminToken === null) {
    log.warn('ADMIN_TOKEN is not set: the admin listener is not started (production)');
  } else {
    await listenOr(app.admin, {
      host: config.adminHost,
      port: config.adminPort,
      hostVariable: 'ADMIN_HOST',
      portVariable: 'ADMIN_PORT',
    });
    if (generatedAdminToken) {
      log.warn(`ADMIN_TOKEN is not set; for this run the admin API accepts: Bearer ${config.adminToken}`);
    }
  }

  // Once both listeners are up, where things are and, on the start that created it, the demo's secrets.
  if (demo !== null) {
    process.stdout.write(
      demo.created === null
        ? `${laterStartLine(config, await demoPresent(db))}\n`
        : `${firstStartBanner(config, demo.created, generatedAdminToken ? config.adminToken : null)}\n`,
    );
  }

  // The outbox's sender runs beside the listeners (docs/back-office.md, E-mail to merchants).
  services.mailSender.start();

  const shutdown = createShutdown({
    lifecycle: services.lifecycle,
    listeners: {
      close: async () => {
        await Promise.all([app.public.close(), app.admin.close()]);
      },
      cut: () => {
        app.public.server.closeAllConnections();
        app.admin.server.closeAllConnections();
      },
    },
    // Only once no request is left: a query sent to a closed store would fail ("driver has already been
    // destroyed") and a limit would go unmeasured.
    closeStores: async () => {
      // The attempt in progress ends before the database closes; what is left waits in the outbox.
      await services.mailSender.stop();
      // The key uses still in memory are written before the database closes.
      await services.keyAuditJobs.stop();
      // The request counts still in memory too.
      await services.traffic.stop();
      await services.retention.stop();
      await rateLimits.close();
      await services.notices.close();
      await Promise.all([db.destroy(), readDb?.destroy(), uploadDb?.destroy()]);
    },
    drainMs: config.shutdownDrainMs,
    timeoutMs: config.shutdownTimeoutMs,
    log,
  });
  process.on('SIGTERM', () => {
    shutdown.signal('SIGTERM');
  });
  process.on('SIGINT', () => {
    shutdown.signal('SIGINT');
  });
  void shutdown.exitCode.then((code) => process.exit(code));
}

/**
 * Creates each half of the demo whose tables are empty (help desk; point of sale with its panel user);
 * answers the secrets of what it created, or null for `created` when the demo existed already.
 */
async function createDemo(
  config: Config,
  db: Db,
  services: Services,
  log: Logger,
): Promise<{ created: DemoCredentials | null }> {
  const ticketKey = (await helpdeskIsEmpty(db)) ? await seedHelpdeskDemo(services) : null;
  let posKey: string | null = null;
  let panel: DemoCredentials['panel'] = null;
  if (await posIsEmpty(db)) {
    log.info(`creating the point-of-sale demo (${DEMO_RECEIPTS} receipts)`);
    posKey = (await seedPosDemo(services)).key;
    // The demo merchant's panel user (issue 13): its password is printed this once, like the keys.
    if (config.panel) panel = await seedPanelDemoUser(services);
  }
  if (ticketKey === null && posKey === null) return { created: null };
  return { created: { ticketKey, posKey, panel } };
}

/** The database, migrated; a database the operator must fix first is one line (StartFailure). */
async function openAndMigrate(config: Config, options: Parameters<typeof openDatabase>[1]) {
  try {
    const db = openDatabase(config.database, options);
    await migrateToLatest(db);
    return db;
  } catch (error) {
    throw databaseFailure(error, config.database, 'DATABASE_URL', config.databaseTimeoutMs) ?? error;
  }
}

/** Redis when `REDIS_URL` is set (a fleet shares every limit); else the in-process store. */
async function openRateLimitStore(config: Config, log: Logger): Promise<RateLimitStore> {
  if (config.redisUrl === null) {
    log.info('REDIS_URL is not set: limits are counted in this process (run one process only)');
    return createMemoryRateLimitStore();
  }
  const store = await connectRedisRateLimitStore({
    url: config.redisUrl,
    keyPrefix: config.redisKeyPrefix,
    commandTimeoutMs: config.redisTimeoutMs,
    log,
  });
  // A Redis that does not answer at start is an outage like one that goes away later (docs/operations.md, When Redis
  // or PostgreSQL is down): the process starts, serves what it can unmeasured, /readyz answers 503 until
  // Redis answers; a process restarted during an outage must not crash-loop. One line says what to check.
  try {
    await store.ping();
  } catch {
    log.warn(redisUnreachable(config.redisUrl));
  }
  return store;
}

/** Listens, or explains in one line why it cannot (a port in use, an address not of this machine). */
async function listenOr(
  listener: { listen(options: { port: number; host: string }): Promise<unknown> },
  where: Parameters<typeof listenFailure>[1],
): Promise<void> {
  try {
    await listener.listen({ port: where.port, host: where.host });
  } catch (error) {
    throw listenFailure(error, where) ?? error;
  }
}

try {
  await main();
} catch (error) {
  // What the operator can fix is one line and exit code 1; anything else keeps its stack trace.
  if (!(error instanceof StartFailure)) throw error;
  process.stderr.write(`Cannot start: ${error.message}\n`);
  process.exit(1);
}
