import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Lifecycle } from './lifecycle.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';

// Whether the process can serve (docs/admin-rules.md: GET /readyz, "database and shared store reachable"),
// and whether it still wants to: a process that is shutting down says so at once, so that the balancer stops
// sending before anything is refused (docs/operations.md, Running a fleet: Shutdown).

/** Whether a dependency answered, and why not when it did not. */
export type Reach = { ok: true } | { ok: false; error: unknown };

/** The answers to one check. */
export interface ReadinessReport {
  /** The process is shutting down (draining or closing): not ready, whatever the dependencies say. */
  draining: boolean;
  database: Reach;
  sharedStore: Reach;
}

const reached = (check: Promise<unknown>): Promise<Reach> =>
  check.then(
    () => ({ ok: true }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );

/** The question readiness asks the database (the smallest statement); the health probe asks the same. */
export function askDatabase(db: Db): Promise<unknown> {
  return sql`select 1`.execute(db);
}

/** Whether the process is shutting down (draining or closing). */
export function isDraining(lifecycle: Pick<Lifecycle, 'phase'>): boolean {
  return lifecycle.phase() !== 'serving';
}

/** Asks the database and the shared store, both at once, and reads the shutdown phase. */
export function createReadiness(deps: {
  db: Db;
  rateLimits: Pick<RateLimitStore, 'ping'>;
  lifecycle: Pick<Lifecycle, 'phase'>;
}) {
  const { db, rateLimits, lifecycle } = deps;
  return {
    async check(): Promise<ReadinessReport> {
      const [database, sharedStore] = await Promise.all([
        reached(askDatabase(db)),
        reached(rateLimits.ping()),
      ]);
      // Read after the checks: a signal that came while they ran is not missed.
      return { draining: isDraining(lifecycle), database, sharedStore };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
