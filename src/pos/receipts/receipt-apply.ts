import { CompiledQuery } from 'kysely';
import type { Db } from '../../db/database.js';
import { isDatabaseUnavailable } from '../../db/database-unavailable.js';
import { isPostgres } from '../../db/dialect.js';
import { withTransactionTimeLimit } from '../../db/query-timeout.js';
import { eventPlacePairs } from '../places/event-repository.js';
import { existingPlaceIds } from '../places/place-repository.js';
import { lockReceiptWrites, type ReceiptCounts } from './receipt-repository.js';
import { applyStagingOnPostgres } from './receipt-apply-postgres.js';
import { applyAttachedStaging } from './receipt-apply-sqlite.js';
import { STAGING_CACHE_KIB, type ReceiptStaging } from './receipt-staging.js';

// The last step of an upload (docs/admin-rules.md, Point of sale: POST receipts): the staged receipts written
// to the service's database in one transaction, so that an upload is stored whole or not at all. It is
// the only step that holds a connection (on SQLite, the one writer) for the upload, so it does nothing
// else: the receipts were parsed, checked and de-duplicated while the body arrived. Its transaction runs
// under a time limit of its own (UPLOAD_WRITE_TIMEOUT_MS), never under one meant for a single API read.

export type { ReceiptCounts };

/**
 * What the apply step answers: the counts; the staged receipt whose place or event went away; or why it
 * could not finish (its time limit passed, or the database went out of reach), nothing of it stored.
 */
export type ApplyOutcome =
  | { ok: true; counts: ReceiptCounts }
  | { ok: false; missing: 'place' | 'event'; position: number; placeId: string; eventId: string | null }
  | { ok: false; unfinished: 'time_limit' | 'database_unavailable' };

type MissingReference = Extract<ApplyOutcome, { missing: unknown }>;

/** Ids per look-up of places or events. */
const LOOKUP_PAGE = 1_000;

/**
 * The places and events were checked while the upload was staged, outside this transaction: one may
 * have been deleted since (an event can be). Checked again here, so that what is committed holds.
 */
async function missingReference(
  trx: Db,
  accountId: string,
  staging: ReceiptStaging,
): Promise<MissingReference | undefined> {
  const { places, events } = staging.references();
  const knownPlaces = new Set<string>();
  for (let start = 0; start < places.length; start += LOOKUP_PAGE) {
    for (const id of await existingPlaceIds(trx, accountId, places.slice(start, start + LOOKUP_PAGE))) {
      knownPlaces.add(id);
    }
  }
  for (const placeId of places) {
    if (!knownPlaces.has(placeId)) {
      const position = staging.firstPosition(placeId) ?? 0;
      return { ok: false, missing: 'place', position, placeId, eventId: null };
    }
  }
  const knownEvents = new Set<string>();
  const eventIds = [...new Set(events.map((event) => event.eventId))];
  for (let start = 0; start < eventIds.length; start += LOOKUP_PAGE) {
    const pairs = await eventPlacePairs(trx, accountId, eventIds.slice(start, start + LOOKUP_PAGE));
    for (const pair of pairs) knownEvents.add(`${pair.placeId}/${pair.eventId}`);
  }
  for (const { placeId, eventId } of events) {
    if (!knownEvents.has(`${placeId}/${eventId}`)) {
      const position = staging.firstPosition(placeId, eventId) ?? 0;
      return { ok: false, missing: 'event', position, placeId, eventId };
    }
  }
  return undefined;
}

/**
 * SQLite: the writer connection's page cache while it writes an upload, in KiB (the driver's default is
 * 16,000). A year's receipts land all over the period and event indexes, whose pages the transaction
 * otherwise reads back and writes out again many times: 32 MiB took a million-receipt upload from about
 * 26 s to 23 s, and the server's peak memory stayed under 300 MB (BENCHMARKS.md, NDJSON ingestion);
 * twice that gained another second for 20 MB more. The cache is given back once the upload ends.
 */
const UPLOAD_CACHE_KIB = 32_768;

/**
 * SQLite: the page cache of the connection's temporary tables while it writes an upload, in KiB (the
 * driver's default is 16,000). The last step sums the upload's sales buckets in temporary tables, written
 * and read in key order, which need no more: with the default, their pages held up to 16 MB more at the
 * server's peak over a million-receipt upload (253–312 MiB, against 237–260 MiB with 2 MiB, four runs
 * each), for the same time (15.5–16.4 s, against 15.6–16.2 s). Given back once the upload ends.
 */
const UPLOAD_TEMP_CACHE_KIB = 2 * 1024;

/** Runs one statement of the connection's own (attach, pragmas); its rows. */
async function raw<R>(connection: Db, text: string, parameters: unknown[] = []): Promise<R[]> {
  return (await connection.executeQuery<R>(CompiledQuery.raw(text, parameters))).rows;
}

/**
 * Runs `work` on one connection of `db` with the upload's staging file attached as `upload` on SQLite
 * (an attachment cannot begin inside a transaction), its sums per smallest slot written first, and the
 * page caches of the upload (a larger one for the service's tables, a smaller one for the temporary
 * tables), all undone afterwards; on PostgreSQL, on `db`.
 */
async function withStagingAttached<T>(
  db: Db,
  staging: ReceiptStaging,
  work: (db: Db) => Promise<T>,
): Promise<T> {
  if (isPostgres(db)) return work(db);
  await staging.writeHourSums();
  return db.connection().execute(async (connection) => {
    await raw(connection, 'attach database ? as upload', [staging.path]);
    const cacheOf = async (schema: 'main' | 'temp') =>
      (await raw<{ cache_size: number }>(connection, `pragma ${schema}.cache_size`))[0]?.cache_size;
    const before = { main: await cacheOf('main'), temp: await cacheOf('temp') };
    await raw(connection, `pragma main.cache_size = -${UPLOAD_CACHE_KIB}`);
    await raw(connection, `pragma temp.cache_size = -${UPLOAD_TEMP_CACHE_KIB}`);
    // Attached, the file would take the connection's default cache (16 MB) for reads made in order.
    await raw(connection, `pragma upload.cache_size = -${STAGING_CACHE_KIB}`);
    try {
      return await work(connection);
    } finally {
      await raw(connection, 'detach database upload');
      for (const schema of ['main', 'temp'] as const) {
        const size = before[schema];
        if (size !== undefined) await raw(connection, `pragma ${schema}.cache_size = ${size}`);
      }
      await raw(connection, 'pragma shrink_memory');
    }
  });
}

/**
 * Writes the staged upload of `accountId` in one transaction of `db` that may take at most `limitMs`:
 * each staged receipt's first version in the upload is compared with the stored receipt (inserted,
 * updated or unchanged; the repeats within the upload were counted while staging) and its last version
 * written when anything changed. Between pages the event loop gets a turn, so that other requests' reads
 * (on SQLite, on the reader) are answered meanwhile, and the time limit is checked.
 */
export async function applyStagedReceipts(
  db: Db,
  accountId: string,
  staging: ReceiptStaging,
  now: number,
  limitMs: number,
): Promise<ApplyOutcome> {
  const repeats = staging.repeats();
  let outcome: ApplyOutcome | undefined;
  try {
    outcome = await withStagingAttached(db, staging, (connection) =>
      withTransactionTimeLimit(connection, limitMs, async (trx, limit) => {
        // Taken before the stored states are read, so that they are still the states the write replaces
        // (the sales buckets subtract them).
        await lockReceiptWrites(trx, accountId);
        const missing = await missingReference(trx, accountId, staging);
        if (missing !== undefined) return missing;
        const counts = isPostgres(trx)
          ? await applyStagingOnPostgres(trx, accountId, staging, now, limit)
          : await applyAttachedStaging(trx, accountId, now, limit);
        counts.updated += repeats.updated;
        counts.unchanged += repeats.unchanged;
        return { ok: true as const, counts };
      }),
    );
  } catch (error) {
    // The transaction was rolled back (or, the connection lost during its commit, its outcome is not
    // known): the caller says why and that resending is safe, receipts being upserted by id.
    if (isDatabaseUnavailable(error)) return { ok: false, unfinished: 'database_unavailable' };
    throw error;
  }
  return outcome ?? { ok: false, unfinished: 'time_limit' };
}
