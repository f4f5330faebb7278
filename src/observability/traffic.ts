import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { API_NAMES, type ApiName } from './request-facts.js';
import { addTrafficCounts, readTrafficCounts, type TrafficCount } from './traffic-repository.js';

// The service's own counts of answered requests, per minute, API and outcome, for the back-office
// console's dashboard (issue 14: "requests and refusals by API over the last hour, from the service's own
// counters"). The metrics cannot answer it: each process's counters start at zero and live in that
// process, while the page wants the fleet's last hour. So each process counts in memory (one array slot
// incremented per answered request: nothing awaited, nothing allocated) and adds what it counted to the
// shared table every 15 seconds and at shutdown (`count = count + excluded.count`): the fleet's processes
// sum up on the same rows. A flush that fails keeps its counts for the next one; rows older than their
// retention (RETENTION_TRAFFIC_DAYS, 2 days) are deleted by the retention sweep (src/retention/).

/** How an answered request ended: `answered` (status below 400), `refused` (4xx), `failed` (5xx). */
export type TrafficOutcome = 'answered' | 'refused' | 'failed';

/** The outcomes, in the order of the counts' slots. */
const TRAFFIC_OUTCOMES: readonly TrafficOutcome[] = ['answered', 'refused', 'failed'];

/** A minute, the table's unit (ms). */
export const MINUTE_MS = 60_000;

/** How often a process adds its counts to the table: the dashboard is at most this far behind. */
const TRAFFIC_FLUSH_MS = 15_000;

/** How long the table keeps a minute by default (48 hours, `RETENTION_TRAFFIC_DAYS`). */
export const TRAFFIC_RETENTION_MS = 48 * 3_600_000;

/** The minutes of `lastHour`. */
const HOUR_MINUTES = 60;

/** The outcome of an answer's status. */
export function outcomeOf(status: number): TrafficOutcome {
  return status < 400 ? 'answered' : status < 500 ? 'refused' : 'failed';
}

/** Requests by outcome. */
interface OutcomeCounts {
  answered: number;
  refused: number;
  failed: number;
}

/** The requests of one minute. */
interface TrafficPoint extends OutcomeCounts {
  /** The start of the UTC minute (ms). */
  minute: number;
}

/** One API's last hour. */
export interface ApiTraffic {
  api: ApiName;
  /** The hour's sums. */
  totals: OutcomeCounts;
  /** The hour's 60 minutes, oldest first, a minute without requests at zero. */
  minutes: TrafficPoint[];
}

/** The fleet's answered requests of the last hour, by API, as the table holds them. */
export interface TrafficHour {
  /** The start of the oldest minute (ms). */
  from: number;
  /** The end of the newest minute, the one in progress (ms, excluded). */
  to: number;
  /**
   * When this process's newest flush took its counts (ms); null before the first. Every process flushes
   * every 15 seconds, so the figures are that far behind at most.
   */
  flushedAt: number | null;
  /** Every API the service names, in the metrics' order, those without requests at zero. */
  apis: ApiTraffic[];
}

/** What one flush wrote. */
export interface TrafficFlush {
  /** Rows added to. */
  rows: number;
  /** Requests they counted. */
  requests: number;
}

/** The log lines the periodic flush writes (pino's signature). */
export interface TrafficLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

const OUTCOMES = TRAFFIC_OUTCOMES.length;
const SLOTS = API_NAMES.length * OUTCOMES;
const API_INDEX = new Map<string, number>(API_NAMES.map((api, index) => [api, index]));
const OTHER = API_NAMES.indexOf('other');
const OUTCOME_INDEX = new Map<string, number>(TRAFFIC_OUTCOMES.map((outcome, index) => [outcome, index]));

/** The slot of an API's outcome; a label the service does not know counts under `other`. */
const apiIndexOf = (api: string): number => API_INDEX.get(api) ?? OTHER;

/** Counts of one minute, one slot per API and outcome. */
type MinuteCounts = Float64Array;

/** The rows to add for the counted minutes, and the requests they count. */
function incrementsOf(minutes: ReadonlyMap<number, MinuteCounts>): {
  rows: TrafficCount[];
  requests: number;
} {
  const rows: TrafficCount[] = [];
  let requests = 0;
  for (const [minute, counts] of minutes) {
    for (let slot = 0; slot < SLOTS; slot += 1) {
      const count = counts[slot] ?? 0;
      if (count === 0) continue;
      const api = API_NAMES[Math.floor(slot / OUTCOMES)] ?? 'other';
      const outcome = TRAFFIC_OUTCOMES[slot % OUTCOMES] ?? 'answered';
      rows.push({ minute, api, outcome, count });
      requests += count;
    }
  }
  return { rows, requests };
}

const zero = (): OutcomeCounts => ({ answered: 0, refused: 0, failed: 0 });

/** Puts the counts of a failed flush back into `pending`, added to whatever was counted meanwhile. */
function keep(pending: Map<number, MinuteCounts>, taken: ReadonlyMap<number, MinuteCounts>): void {
  for (const [minute, counts] of taken) {
    const into = pending.get(minute);
    if (into === undefined) {
      pending.set(minute, counts);
      continue;
    }
    for (let slot = 0; slot < SLOTS; slot += 1) into[slot] = (into[slot] ?? 0) + (counts[slot] ?? 0);
  }
}

/** The fleet's requests of the 60 minutes up to `now`'s (included), as the table holds them. */
async function readLastHour(db: Db, now: number, flushedAt: number | null): Promise<TrafficHour> {
  const to = now - (now % MINUTE_MS) + MINUTE_MS;
  const from = to - HOUR_MINUTES * MINUTE_MS;
  const apis: ApiTraffic[] = API_NAMES.map((api) => ({
    api,
    totals: zero(),
    minutes: Array.from({ length: HOUR_MINUTES }, (_, index) => ({
      minute: from + index * MINUTE_MS,
      ...zero(),
    })),
  }));
  for (const row of await readTrafficCounts(db, from, to)) {
    const outcome = TRAFFIC_OUTCOMES[OUTCOME_INDEX.get(row.outcome) ?? -1];
    const point = apis[apiIndexOf(row.api)]?.minutes[Math.floor((row.minute - from) / MINUTE_MS)];
    // An outcome this version does not know (written by a newer process of the fleet) is left out.
    if (outcome === undefined || point === undefined) continue;
    point[outcome] += row.count;
  }
  for (const { totals, minutes } of apis) {
    for (const point of minutes) {
      for (const outcome of TRAFFIC_OUTCOMES) totals[outcome] += point[outcome];
    }
  }
  return { from, to, flushedAt, apis };
}

/**
 * The per-minute request counts of this process and their flush to the shared table; the reader of the
 * fleet's last hour. The entry point starts the periodic flush and stops it (writing what is left) before
 * the database closes; tests call `flush` on their manual clock instead.
 */
export function createTraffic(deps: {
  db: Db;
  clock: Clock;
  /** Default 15 s. */
  flushMs?: number;
  /** How long the table keeps a minute: counts older than it are not written. Default 48 h. */
  retentionMs?: number;
}) {
  const { db, clock } = deps;
  const flushMs = deps.flushMs ?? TRAFFIC_FLUSH_MS;
  const retentionMs = deps.retentionMs ?? TRAFFIC_RETENTION_MS;

  /** The minutes counted and not written yet. */
  let pending = new Map<number, MinuteCounts>();
  // The minute being counted, so that a request in the same minute as the last one finds its counts
  // without a map look-up.
  let currentMinute = Number.NaN;
  let current: MinuteCounts | undefined;
  let flushedAt: number | null = null;
  let running: Promise<unknown> = Promise.resolve();
  /** The requests of the flush being written: not in `pending` meanwhile, and not written yet either. */
  let writing = 0;
  let timer: NodeJS.Timeout | undefined;
  let busy: Promise<void> | undefined;
  let log: TrafficLog | undefined;
  let failing = false;

  function countsOf(minute: number): MinuteCounts {
    let counts = pending.get(minute);
    if (counts === undefined) {
      counts = new Float64Array(SLOTS);
      pending.set(minute, counts);
    }
    return counts;
  }

  async function flushNow(): Promise<TrafficFlush> {
    const at = clock.now();
    const taken = pending;
    pending = new Map();
    currentMinute = Number.NaN;
    current = undefined;
    // A minute past the retention would be swept at once: after a long outage it is not written at all.
    for (const minute of taken.keys()) if (minute < at - retentionMs) taken.delete(minute);
    const { rows, requests } = incrementsOf(taken);
    writing = requests;
    try {
      await addTrafficCounts(db, rows);
    } catch (error) {
      // The database is away: the counts stay, the next flush adds them. The transaction wrote all or
      // nothing, so nothing is counted twice.
      keep(pending, taken);
      throw error;
    } finally {
      writing = 0;
    }
    flushedAt = at;
    return { rows: rows.length, requests };
  }

  /** One round of the timer: the flush. */
  async function tick(): Promise<void> {
    try {
      await traffic.flush();
      if (failing) log?.info({}, 'request counts written again');
      failing = false;
    } catch (error) {
      // One line per outage, not one every 15 seconds.
      if (!failing) {
        log?.warn({ err: error }, 'request counts not written: kept in memory, each next flush tries again');
      }
      failing = true;
    }
  }

  const traffic = {
    /**
     * Counts one answered request of `api` by its status, in the minute of now: one array slot
     * incremented, nothing awaited. Called by the request observer for every answer of both listeners.
     */
    record(api: ApiName, status: number): void {
      const now = clock.now();
      const minute = now - (now % MINUTE_MS);
      if (minute !== currentMinute || current === undefined) {
        current = countsOf(minute);
        currentMinute = minute;
      }
      const slot = apiIndexOf(api) * OUTCOMES + (status < 400 ? 0 : status < 500 ? 1 : 2);
      current[slot] = (current[slot] ?? 0) + 1;
    },
    /**
     * Adds the counts of this process to the table and forgets them; when the write fails they are kept
     * for the next flush (and the error is thrown). Flushes never overlap: a second one waits for the first.
     */
    flush(): Promise<TrafficFlush> {
      const next = running.then(flushNow);
      running = next.catch(() => undefined);
      return next;
    },
    /** Requests counted by this process and not written yet. */
    unwritten(): number {
      return incrementsOf(pending).requests + writing;
    },
    /** The fleet's requests of the 60 minutes up to `now`'s (included), by API and outcome. */
    async lastHour(now: number = clock.now()): Promise<TrafficHour> {
      return readLastHour(db, now, flushedAt);
    },
    /** Starts the periodic flush (an unref'd timer: it never keeps a process alive). */
    start(logTo?: TrafficLog): void {
      if (timer !== undefined) return;
      log = logTo;
      timer = setInterval(() => {
        if (busy !== undefined) return; // a slow round (a slow database) is not stacked
        busy = tick().finally(() => {
          busy = undefined;
        });
      }, flushMs);
      timer.unref();
    },
    /**
     * Stops the periodic flush and writes what is left (at shutdown, before the database closes). Never
     * throws: counts that cannot be written then are lost with the process, and the log says how many.
     */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await busy;
      try {
        await traffic.flush();
      } catch (error) {
        log?.warn(
          { err: error, requests: traffic.unwritten() },
          'request counts not written at shutdown: the dashboard misses them',
        );
      }
    },
  };
  return traffic;
}

export type Traffic = ReturnType<typeof createTraffic>;
