import { sql } from 'kysely';
import type { Db } from './db/database.js';
import type { RateLimitStore } from './rate-limit/rate-limit-store.js';

// Whether the process can serve (admin-api.md: GET /readyz, "database and shared store reachable").

/** Whether a dependency answered, and why not when it did not. */
export type Reach = { ok: true } | { ok: false; error: unknown };

/** The database's and the shared store's answers to one check. */
export interface ReadinessReport {
  database: Reach;
  sharedStore: Reach;
}

const reached = (check: Promise<unknown>): Promise<Reach> =>
  check.then(
    () => ({ ok: true }) as const,
    (error: unknown) => ({ ok: false, error }) as const,
  );

/** Asks the database and the shared store, both at once. */
export function createReadiness(deps: { db: Db; rateLimits: Pick<RateLimitStore, 'ping'> }) {
  const { db, rateLimits } = deps;
  return {
    async check(): Promise<ReadinessReport> {
      const [database, sharedStore] = await Promise.all([
        reached(sql`select 1`.execute(db)),
        reached(rateLimits.ping()),
      ]);
      return { database, sharedStore };
    },
  };
}

export type Readiness = ReturnType<typeof createReadiness>;
