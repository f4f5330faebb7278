import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';

/** The ticket API's maintenance switch (DECISIONS, Ticket API). */
export interface Maintenance {
  enabled: boolean;
  /** Retry-After of the 503 while it is on. */
  retryAfterSeconds: number;
}

const KEY = 'helpdesk.maintenance';
const OFF: Maintenance = { enabled: false, retryAfterSeconds: 300 };

/** How long a process trusts its copy of the switch before reading it again. */
const CACHE_MS = 1000;

/**
 * Reads and sets the maintenance switch. Every call of the ticket API asks for it, so a copy is kept
 * for up to a second: a switch flipped by another process is seen within that second, one flipped
 * through this process at once.
 */
export function createMaintenanceSwitch(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  let cached: { value: Maintenance; readAt: number } | undefined;

  return {
    async get(): Promise<Maintenance> {
      const now = clock.now();
      if (cached !== undefined && now - cached.readAt < CACHE_MS && now >= cached.readAt) return cached.value;
      const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
      const value = row === undefined ? OFF : (JSON.parse(row.value) as Maintenance);
      cached = { value, readAt: now };
      return value;
    },
    async set(value: Maintenance): Promise<Maintenance> {
      const now = clock.now();
      await db
        .insertInto('settings')
        .values({ key: KEY, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
      cached = { value, readAt: now };
      return value;
    },
  };
}

export type MaintenanceSwitch = ReturnType<typeof createMaintenanceSwitch>;
