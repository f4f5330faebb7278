import { sql } from 'kysely';
import type { Db } from '../db/database.js';

// The storage of the per-minute request counts (migration 0009-traffic): increments added to the stored
// counts in one statement per chunk, so that the processes of a fleet, each adding what it answered, sum
// up on the same rows; the rows of a period read back (the old rows go by the retention sweep,
// src/retention/).

/** One stored count: the requests of one minute, API and outcome. */
export interface TrafficCount {
  /** The start of the UTC minute (ms). */
  minute: number;
  api: string;
  outcome: string;
  count: number;
}

/**
 * Rows per statement: 4 parameters each stays well below SQLite's 32,766 and PostgreSQL's 65,535 bound
 * parameters, whatever a long outage left to write.
 */
const CHUNK = 1000;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Adds `increments` to the stored counts (`count = count + excluded.count`), creating the rows that do
 * not exist yet, all in one transaction: either every increment is added or none is, so that a failed
 * write can be tried again whole without counting anything twice. Each (minute, api, outcome) must appear
 * once in `increments` (PostgreSQL refuses to update one row twice in one statement).
 */
export async function addTrafficCounts(db: Db, increments: readonly TrafficCount[]): Promise<void> {
  if (increments.length === 0) return;
  // Every process writes its rows in the same order, so that two flushes of a fleet adding to the same
  // rows at once lock them in the same order: one waits for the other instead of a deadlock.
  const rows = [...increments].sort(
    (a, b) => a.minute - b.minute || compare(a.api, b.api) || compare(a.outcome, b.outcome),
  );
  await db.transaction().execute(async (trx) => {
    for (let start = 0; start < rows.length; start += CHUNK) {
      await trx
        .insertInto('traffic_minutes')
        .values(rows.slice(start, start + CHUNK))
        .onConflict((oc) =>
          oc
            .columns(['minute', 'api', 'outcome'])
            .doUpdateSet({ count: sql<number>`traffic_minutes.count + excluded.count` }),
        )
        .execute();
    }
  });
}

/** The stored counts of the minutes from `from` (included) to `to` (excluded). */
export async function readTrafficCounts(db: Db, from: number, to: number): Promise<TrafficCount[]> {
  return db
    .selectFrom('traffic_minutes')
    .select(['minute', 'api', 'outcome', 'count'])
    .where('minute', '>=', from)
    .where('minute', '<', to)
    .execute();
}
