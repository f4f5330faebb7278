// What one process of a fleet tells the others at once: that it changed something every process keeps a
// copy of (docs/operations.md, Running a fleet). A notice carries no data, only which copy to drop; every process
// reads the change itself from the database. Notices are a speed-up, never needed for correctness: a
// copy expires by itself within a second, so a notice lost (Redis down) only makes a change slower to
// reach the other processes.

/** The copies a process keeps: the help-desk catalog and the ticket API's maintenance switch. */
const FLEET_NOTICES = ['helpdesk.catalog', 'helpdesk.maintenance'] as const;

/** A copy to drop. */
export type FleetNotice = (typeof FLEET_NOTICES)[number];

/** Notices between the processes of a fleet: Redis pub/sub, or within one process. */
export interface FleetNotices {
  /** Tells every process, this one included; never throws (a notice lost is a copy kept for a second). */
  publish(notice: FleetNotice): Promise<void>;
  /** Calls `listener` for every notice published by any process. */
  subscribe(listener: (notice: FleetNotice) => void): void;
  /** Stops listening and publishing. */
  close(): Promise<void>;
}

/** Whether a message received is one of the notices (anything else on the channel is ignored). */
export function isFleetNotice(message: string): message is FleetNotice {
  return (FLEET_NOTICES as readonly string[]).includes(message);
}

/**
 * Notices within one process (no `REDIS_URL`: one process only). Two apps built over the same instance
 * behave as two processes told through Redis, which is how the suites on SQLite simulate a fleet.
 */
export function createMemoryFleetNotices(): FleetNotices {
  const listeners = new Set<(notice: FleetNotice) => void>();
  return {
    publish(notice) {
      for (const listener of listeners) listener(notice);
      return Promise.resolve();
    },
    subscribe(listener) {
      listeners.add(listener);
    },
    close() {
      listeners.clear();
      return Promise.resolve();
    },
  };
}
