import type { Clock } from '../clock.js';
import type { RetentionConfig } from '../config.js';
import type { Db } from '../db/database.js';
import { deleteDeliveredMail, deleteExpiredSessions, deleteTrafficMinutes } from './retention-repository.js';

// The retention of the operational tables that grow with traffic (docs/data.md, Retention): expired web
// sessions (past their expiry plus a grace), the per-minute request counts, and delivered outbox e-mail,
// each kept as long as its RETENTION_* variable says. Every process of a fleet sweeps, about once an hour
// at a time of its own (the first run at a random point of the first hour, then every 45 to 75 minutes),
// so that a fleet's sweeps seldom meet; when they do, they share the work (see retention-repository.ts).
// A run deletes in batches, at most `maxBatches` per table: a backlog (a first deployment, a long
// outage) goes over several runs a minute apart, never in one long statement. The server starts the
// sweeper and stops it at shutdown before the database closes; tests call `sweep` on a manual clock.

/** Rows one statement deletes at most. */
const RETENTION_BATCH_SIZE = 500;

/** Batches one run deletes per table at most (10,000 rows). */
const RETENTION_MAX_BATCHES = 20;

/** The mean time between two runs of one process. */
const RETENTION_INTERVAL_MS = 3_600_000;

/** The wait before the next run when a run left rows to delete (its batches ran out). */
const RETENTION_BACKLOG_DELAY_MS = 60_000;

/** The rows one run deleted, by table. */
export interface RetentionSweep {
  /** Web sessions (`web_sessions`) past their expiry and the grace. */
  sessions: number;
  /** Per-minute request counts (`traffic_minutes`) older than their retention. */
  traffic: number;
  /** Outbox e-mail (`mail_outbox`) delivered before its retention. */
  outbox: number;
  /** True when a table had more to delete than the run's batches: the next run comes sooner. */
  more: boolean;
}

/** The log lines the sweeper writes (pino's signature). */
export interface RetentionLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/** The sweeper of one process; nothing runs until `start`. */
export function createRetentionSweeper(deps: {
  db: Db;
  clock: Clock;
  retention: RetentionConfig;
  /** Default 500. */
  batchSize?: number;
  /** Default 20. */
  maxBatches?: number;
  /** Default 1 h. */
  intervalMs?: number;
  /** Default 1 min. */
  backlogDelayMs?: number;
  /** Where the jitter comes from; default Math.random. */
  random?: () => number;
}) {
  const { db, clock, retention } = deps;
  const batchSize = deps.batchSize ?? RETENTION_BATCH_SIZE;
  const maxBatches = deps.maxBatches ?? RETENTION_MAX_BATCHES;
  const intervalMs = deps.intervalMs ?? RETENTION_INTERVAL_MS;
  const backlogDelayMs = deps.backlogDelayMs ?? RETENTION_BACKLOG_DELAY_MS;
  const random = deps.random ?? Math.random;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;
  let log: RetentionLog | undefined;

  /** Deletes in batches until a batch comes back short or the run's batches are spent. */
  async function inBatches(
    remove: (before: number, limit: number) => Promise<number>,
    before: number,
  ): Promise<{ deleted: number; more: boolean }> {
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      if (stopped) return { deleted, more: false };
      const count = await remove(before, batchSize);
      deleted += count;
      if (count < batchSize) return { deleted, more: false };
    }
    return { deleted, more: true };
  }

  async function sweep(): Promise<RetentionSweep> {
    const now = clock.now();
    const sessions = await inBatches(
      (before, limit) => deleteExpiredSessions(db, before, limit),
      now - retention.sessionGraceMs,
    );
    const traffic = await inBatches(
      (before, limit) => deleteTrafficMinutes(db, before, limit),
      now - retention.trafficMs,
    );
    const outbox = await inBatches(
      (before, limit) => deleteDeliveredMail(db, before, limit),
      now - retention.outboxMs,
    );
    return {
      sessions: sessions.deleted,
      traffic: traffic.deleted,
      outbox: outbox.deleted,
      more: sessions.more || traffic.more || outbox.more,
    };
  }

  function schedule(ms: number): void {
    if (stopped) return;
    timer = setTimeout(run, ms);
    // The sweeper never keeps a process alive on its own: the listeners do.
    timer.unref();
  }

  function run(): void {
    running = sweep().then(
      (result) => {
        if (result.sessions + result.traffic + result.outbox > 0) {
          log?.info({ retention: result }, 'retention sweep deleted the rows past their retention');
        }
        // Between 0.75 and 1.25 intervals: processes started together drift apart.
        schedule(result.more ? backlogDelayMs : intervalMs * (0.75 + random() / 2));
      },
      (error: unknown) => {
        log?.warn({ err: error }, 'retention sweep failed; the next run tries again');
        schedule(intervalMs);
      },
    );
  }

  return {
    /** One run now: deletes, in bounded batches, what is past its retention at the clock's now. */
    sweep,
    /** Starts the periodic runs, the first at a random point of the first interval. */
    start(logTo?: RetentionLog): void {
      if (timer !== undefined || stopped) return;
      log = logTo;
      schedule(random() * intervalMs);
    },
    /** Stops the runs; a run in progress ends after its current batch (at shutdown, before the database closes). */
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running?.catch(() => undefined);
    },
  };
}

export type RetentionSweeper = ReturnType<typeof createRetentionSweeper>;
