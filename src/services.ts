import { createBackOfficeLog, type BackOfficeLog } from './audit/back-office-log.js';
import { createKeyAuditJobs, type KeyAuditJobs } from './audit/key-audit-jobs.js';
import { createKeyAuditService, type KeyAuditService } from './audit/key-audit-service.js';
import { createKeyUse, type KeyUse } from './audit/key-use.js';
import { pino } from 'pino';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { createMemoryFleetNotices, type FleetNotices } from './fleet/fleet-notices.js';
import { createCatalogService, type CatalogService } from './helpdesk/catalog-service.js';
import { createMaintenanceSwitch, type MaintenanceSwitch } from './helpdesk/maintenance-switch.js';
import { sweepSystemKeyTimeEvents } from './helpdesk/system-key-time-events.js';
import { createSystemService, type SystemService } from './helpdesk/system-service.js';
import { createTicketService, type TicketService } from './helpdesk/ticket-service.js';
import { createDevMailbox, type DevMailbox } from './mail/dev-mailbox.js';
import { createLogMailTransport } from './mail/log-transport.js';
import {
  createMailSender,
  type MailSender,
  type MailSenderLog,
  type MailSenderOptions,
} from './mail/mail-sender.js';
import type { MailTransport } from './mail/mail-transport.js';
import { createSmtpMailTransport } from './mail/smtp-transport.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { bucketSalesReader } from './pos/sales/bucket-sales-reader.js';
import { sweepMerchantKeyTimeEvents } from './pos/keys/key-time-events.js';
import { createMerchantKeyService, type MerchantKeyService } from './pos/keys/merchant-key-service.js';
import { createMerchantUserService, type MerchantUserService } from './pos/users/merchant-user-service.js';
import { createPosDataService, type PosDataService } from './pos/places/pos-data-service.js';
import { createPosQueryService, type PosQueryService } from './pos/places/pos-query-service.js';
import { createPosLimits, type PosLimits } from './pos/api/pos-limits.js';
import { createReceiptIngestion, type ReceiptIngestion } from './pos/receipts/receipt-ingestion.js';
import type { SalesReader } from './pos/sales/sales-reader.js';
import { createSalesBucketService, type SalesBucketService } from './pos/sales/sales-bucket-service.js';
import { createSalesService, type SalesService } from './pos/sales/sales-service.js';
import { createLifecycle, type Lifecycle } from './lifecycle/lifecycle.js';
import { createIpBlock, type IpBlock } from './rate-limit/ip-block.js';
import { createMemoryRateLimitStore } from './rate-limit/memory-store.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { measuredStore } from './rate-limit/measured-store.js';
import { createDbSessionStore, type DbSessionStore } from './identity/session-store.js';
import { createHealthProbe, type HealthProbe } from './lifecycle/health-probe.js';
import { createRefusalLog, type RefusalLog } from './observability/refusal-log.js';
import { createTraffic, type Traffic } from './observability/traffic.js';
import { createReadiness, type Readiness } from './lifecycle/readiness.js';
import { createRetentionSweeper, type RetentionSweeper } from './retention/retention-sweeper.js';
import { createStaffUserService, type StaffUserService } from './staff/staff-user-service.js';

// The one service layer of the process: every domain service built once, over one database, clock and
// store, and handed to every face (the public APIs, the back office, the demo seeds, a CLI). No face
// builds a service of its own.

/**
 * The shortest time between two writes of one key's last use by a process, and the sweeps' interval
 * (docs/back-office.md, Audit trail and last use: "about once a minute").
 */
const KEY_USE_INTERVAL_MS = 60_000;

/** What the services are built from; tests pass their own clock and store. */
export interface ServiceDeps {
  /** The primary database. */
  db: Db;
  /** A read replica for the POS data routes (`DATABASE_READ_URL`); default: the primary. */
  readDb?: Db;
  /**
   * The primary again, for the last step of receipts uploads: on PostgreSQL a pool of its own whose
   * client-side limit is that step's (`UPLOAD_WRITE_TIMEOUT_MS`) rather than the API reads'; default `db`.
   */
  uploadDb?: Db;
  /** Where time is read; default: the system clock. */
  clock?: Clock;
  /** Where every limit is counted: Redis for a fleet (`REDIS_URL`); default: in this process. */
  rateLimits?: RateLimitStore;
  /**
   * How the fleet's processes tell each other to drop their copies of the catalog and the maintenance
   * switch: Redis pub/sub for a fleet (`REDIS_URL`); default: within this process.
   */
  notices?: FleetNotices;
  /** Where the sales figures are read: default the pre-aggregated buckets (the benchmark compares readers). */
  salesReader?: SalesReader;
  /**
   * The metrics to count into; default: new ones. The entry point creates them first, so that the
   * database it opens before the services reports into them (`OpenOptions.observer`).
   */
  metrics?: Metrics;
  /** Where the e-mail sender logs (and, without `SMTP_URL`, writes the messages); default: stdout. */
  log?: MailSenderLog;
  /** E-mail to merchants: tests give their own transport or shorter intervals. */
  mail?: { transport?: MailTransport; options?: Partial<MailSenderOptions> };
  config: Config;
}

/** The domain services of the process, and what they are built on, for the faces to reach. */
export interface Services {
  readonly config: Config;
  readonly clock: Clock;
  /** Where every limit is counted; the app that is built on these services closes it. */
  readonly rateLimits: RateLimitStore;
  /** The fleet's notices of changed copies; the app that is built on these services closes them. */
  readonly notices: FleetNotices;
  /** Partner tickets: opened by the ticket API, listed by the back office. */
  readonly tickets: TicketService;
  /** The help-desk catalog and the ticket options read from it. */
  readonly catalog: CatalogService;
  /** Partner systems and their keys. */
  readonly systems: SystemService;
  /** The ticket API's maintenance switch: one per process, so a flip through it is seen at once. */
  readonly maintenance: MaintenanceSwitch;
  /** Merchants' accounts, places and events. */
  readonly posData: PosDataService;
  /** The POS API's reads of a key's account, places and events: on the replica when there is one. */
  readonly posQueries: PosQueryService;
  /** Receipts from store devices: JSON batches and NDJSON streams. */
  readonly receipts: ReceiptIngestion;
  /** Merchants' API keys. */
  readonly merchantKeys: MerchantKeyService;
  /** The people of merchant accounts who sign in to the panel. */
  readonly merchantUsers: MerchantUserService;
  /** The operator's staff who sign in to the back-office console. */
  readonly staffUsers: StaffUserService;
  /** The sessions of a web face (`panel`, `console`): each face its own namespace. */
  sessionsOf(face: string): DbSessionStore;
  /** Every change made through the back office (admin API, CLI, console), newest first. */
  readonly backOfficeLog: BackOfficeLog;
  /** The POS API's quotas, ceilings, IP block and sales leases. */
  readonly limits: PosLimits;
  /** Sales figures by payment method and brand, for the POS API and the merchant panel's reports. */
  readonly sales: SalesService;
  /** The check and repair of the pre-aggregated sales buckets (`npm run db:check-buckets`). */
  readonly salesBuckets: SalesBucketService;
  /** The ticket API's IP block (wrong-key refusals per IP). */
  readonly ipBlock: IpBlock;
  /** Where the process is in its shutdown, and the work in progress that the stores wait for. */
  readonly lifecycle: Lifecycle;
  /** Whether the process takes traffic: not draining, database and shared store answering (GET /readyz). */
  readonly readiness: Readiness;
  /** The service's metrics: counted by both listeners and the services, shown by GET /metrics. */
  readonly metrics: Metrics;
  /** The last refusals of each system and account (docs/operations.md, Why did my call fail). */
  readonly refusals: RefusalLog;
  /** The e-mail outbox's sender: the server starts it, and stops it before the databases close. */
  readonly mailSender: MailSender;
  /**
   * Outside production, every delivered message kept whole (docs/operations.md, Reading e-mail
   * locally), for the console and the command line; null in production, where nothing keeps them.
   */
  readonly mailbox: DevMailbox | null;
  /** The key audit trail, read by the back office (written by the key services themselves). */
  readonly keyAudit: KeyAuditService;
  /** The last use of keys: marked by both public APIs, flushed by `keyAuditJobs`. */
  readonly keyUse: KeyUse;
  /** Key-use flush and time-based audit events; the entry point starts and stops them. */
  readonly keyAuditJobs: KeyAuditJobs;
  /**
   * Answered requests per minute, API and outcome, summed by the fleet in the database (the console's
   * dashboard): counted by both listeners; the entry point starts and stops its flush.
   */
  readonly traffic: Traffic;
  /** The database's and Redis's health with their latency, for the console's dashboard. */
  readonly health: HealthProbe;
  /**
   * Deletes the operational rows past their retention (expired sessions, old request counts, delivered
   * e-mail; docs/data.md, Retention); the entry point starts and stops it.
   */
  readonly retention: RetentionSweeper;
}

/** Builds the services once; the caller owns the databases (and closes them). */
export function createServices(deps: ServiceDeps): Services {
  const { db, config } = deps;
  const clock = deps.clock ?? systemClock;
  const metrics = deps.metrics ?? createMetrics();
  const rateLimits = measuredStore(deps.rateLimits ?? createMemoryRateLimitStore(), metrics);
  const log = deps.log ?? pino({ level: config.logLevel });
  const notices = deps.notices ?? createMemoryFleetNotices();
  const catalog = createCatalogService({ db, clock, notices });
  const posData = createPosDataService({ db, clock });
  const readDb = deps.readDb ?? db;
  const lifecycle = createLifecycle({ clock });
  const limits = createPosLimits({
    store: rateLimits,
    clock,
    // A sales query's lease outlives the longest query, so a live query is never overtaken.
    config: { salesLeaseMs: config.posSalesQueryTimeoutMs * 2, ipBlockThreshold: config.ipBlockThreshold },
  });
  const keyUse = createKeyUse({ db, clock, intervalMs: KEY_USE_INTERVAL_MS });
  const backOfficeLog = createBackOfficeLog({ db, clock });
  const merchantUsers = createMerchantUserService({ db, clock, panelUrl: `${config.publicBaseUrl}/panel` });
  const mailbox = config.env === 'production' ? null : createDevMailbox({ db, clock });
  const transport =
    deps.mail?.transport ??
    (config.smtpUrl === null
      ? createLogMailTransport(log)
      : createSmtpMailTransport({ url: config.smtpUrl, from: config.mailFrom }));
  return {
    config,
    clock,
    rateLimits,
    notices,
    tickets: createTicketService({ db, clock, catalog, counts: metrics }),
    catalog,
    systems: createSystemService({ db, clock, catalog }),
    maintenance: createMaintenanceSwitch({ db, clock, notices }),
    posData,
    posQueries: createPosQueryService({
      readDb,
      cursorSecret: config.cursorSecret,
      eventsQueryTimeoutMs: config.posEventsQueryTimeoutMs,
    }),
    receipts: createReceiptIngestion({
      db,
      ...(deps.uploadDb === undefined ? {} : { writeDb: deps.uploadDb }),
      writeTimeoutMs: config.uploadWriteTimeoutMs,
      clock,
      posData,
    }),
    merchantKeys: createMerchantKeyService({
      db,
      clock,
      rotationGraceSeconds: config.posRotationGraceSeconds,
    }),
    merchantUsers,
    staffUsers: createStaffUserService({
      db,
      clock,
      consoleUrl: `${config.adminBaseUrl}/console`,
      backOfficeLog,
    }),
    sessionsOf: (face) => createDbSessionStore({ db, clock, face }),
    backOfficeLog,
    limits,
    sales: createSalesService({
      readDb,
      limits,
      reader: deps.salesReader ?? bucketSalesReader,
      queryTimeoutMs: config.posSalesQueryTimeoutMs,
      timing: metrics,
    }),
    salesBuckets: createSalesBucketService({ db }),
    ipBlock: createIpBlock({ store: rateLimits, namespace: 'hd', threshold: config.ipBlockThreshold }),
    lifecycle,
    readiness: createReadiness({ db, rateLimits, lifecycle }),
    metrics,
    refusals: createRefusalLog({
      store: rateLimits,
      clock,
      onError: () => {
        metrics.refusalLogFailed();
      },
    }),
    mailSender: createMailSender({
      db,
      clock,
      transport: mailbox === null ? transport : mailbox.around(transport, log),
      log,
      ...(deps.mail?.options === undefined ? {} : { options: deps.mail.options }),
      // The panel's reset requests become links and e-mails here, off the requests that queued them.
      prepare: () => merchantUsers.sendRequestedResets(),
    }),
    mailbox,
    keyAudit: createKeyAuditService({ db }),
    keyUse,
    keyAuditJobs: createKeyAuditJobs({
      keyUse,
      sweeps: [(now) => sweepSystemKeyTimeEvents(db, now), (now) => sweepMerchantKeyTimeEvents(db, now)],
      clock,
      tickMs: KEY_USE_INTERVAL_MS / 4,
      sweepMs: KEY_USE_INTERVAL_MS,
    }),
    traffic: createTraffic({ db, clock, retentionMs: config.retention.trafficMs }),
    health: createHealthProbe({ db, rateLimits, lifecycle, config }),
    retention: createRetentionSweeper({ db, clock, retention: config.retention }),
  };
}
