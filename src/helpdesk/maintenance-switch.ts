import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { FleetNotices } from '../fleet/fleet-notices.js';

/** The ticket API's maintenance switch (docs/ticket-api.md, Settled details). */
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
 * for up to a second: a switch flipped through this process is seen at once, and, with Redis, through
 * any process of the fleet (its notice drops every copy); without the notice within that second.
 */
export function createMaintenanceSwitch(deps: {
  db: Db;
  clock: Clock;
  /** How the fleet's processes tell each other of a flip (docs/operations.md, Running a fleet); default: none. */
  notices?: Pick<FleetNotices, 'publish' | 'subscribe'>;
}) {
  const { db, clock, notices } = deps;
  let cached: { value: Maintenance; readAt: number } | undefined;
  /** Bumped by every notice: a read begun before a flip is not kept. */
  let generation = 0;
  notices?.subscribe((notice) => {
    if (notice !== 'helpdesk.maintenance') return;
    generation += 1;
    cached = undefined;
  });

  return {
    async get(): Promise<Maintenance> {
      const now = clock.now();
      if (cached !== undefined && now - cached.readAt < CACHE_MS && now >= cached.readAt) return cached.value;
      const startedGeneration = generation;
      const row = await db.selectFrom('settings').select('value').where('key', '=', KEY).executeTakeFirst();
      const value = row === undefined ? OFF : (JSON.parse(row.value) as Maintenance);
      if (generation === startedGeneration) cached = { value, readAt: now };
      return value;
    },
    async set(value: Maintenance): Promise<Maintenance> {
      const now = clock.now();
      await db
        .insertInto('settings')
        .values({ key: KEY, value: JSON.stringify(value), updated_at: now })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(value), updated_at: now }))
        .execute();
      generation += 1;
      cached = { value, readAt: now };
      await notices?.publish('helpdesk.maintenance');
      return value;
    },
  };
}

export type MaintenanceSwitch = ReturnType<typeof createMaintenanceSwitch>;
