import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';

// The deletions of the retention sweep (docs/data.md, Retention), one bounded batch per statement: each
// deletes at most `limit` rows, picked by the index that orders them by age, so that no statement holds
// its locks (SQLite's one writer, PostgreSQL's row locks) for long. Several processes sweep the same
// tables: on PostgreSQL each batch skips the rows another sweeper is deleting (`for update skip locked`),
// and a row deleted twice is simply not there the second time; SQLite writes one statement at a time.
// Only these three operational tables are ever deleted from: the audit trails (key audit events,
// back-office actions), tickets and receipts are kept.

/** Deletes up to `limit` web sessions that expired before `before`; returns how many went. */
export async function deleteExpiredSessions(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('web_sessions')
    .where('id_hash', 'in', (eb) => {
      const oldest = eb
        .selectFrom('web_sessions')
        .select('id_hash')
        .where('expires_at', '<', before)
        .orderBy('expires_at')
        .limit(limit);
      return isPostgres(db) ? oldest.forUpdate().skipLocked() : oldest;
    })
    // Checked again on the row deleted: a session used meanwhile has a later expiry and stays.
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes up to `limit` per-minute request counts of the minutes before `before`; returns how many went. */
export async function deleteTrafficMinutes(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('traffic_minutes')
    .where((eb) => {
      const oldest = eb
        .selectFrom('traffic_minutes')
        .select(['minute', 'api', 'outcome'])
        .where('minute', '<', before)
        .orderBy('minute')
        .limit(limit);
      const batch = isPostgres(db) ? oldest.forUpdate().skipLocked() : oldest;
      return eb(eb.refTuple('minute', 'api', 'outcome'), 'in', batch.$asTuple('minute', 'api', 'outcome'));
    })
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` outbox messages delivered before `before`; returns how many went. A message not
 * delivered yet, or given up (kept with its error for the operator), is never deleted.
 */
export async function deleteDeliveredMail(db: Db, before: number, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('mail_outbox')
    .where('seq', 'in', (eb) => {
      const oldest = eb
        .selectFrom('mail_outbox')
        .select('seq')
        .where('sent_at', 'is not', null)
        .where('sent_at', '<', before)
        .orderBy('seq')
        .limit(limit);
      return isPostgres(db) ? oldest.forUpdate().skipLocked() : oldest;
    })
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
