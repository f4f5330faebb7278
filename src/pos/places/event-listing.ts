import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { wireTime } from '../../lib/wire-time.js';
import { signCursor, type CursorScope, type EventPosition } from './cursor.js';
import { foldName } from './event-repository.js';

// The events of one place as GET /v1/api-public/events lists them (docs/pos-api.md, "Events response"
// and the events route's parameters and cursor rules; docs/pos-api.md, Settled details). Parameters arrive
// already checked (place reached by the key, `search` 1 to 100 characters without control or invisible
// characters, `limit` 1 to 100, cursor verified and bound to this place); this module reads the page.

/** One event of the response's `data` (docs/pos-api.md, Events response). */
export interface EventItem {
  id: string;
  name: string;
  /** UTC with `Z`, whole seconds; null when the event has no date. */
  starts_at: string | null;
  /** UTC with `Z`, whole seconds; null when the event has no valid end. */
  ends_at: string | null;
  active: boolean;
}

export interface EventListQuery {
  accountId: string;
  placeId: string;
  /** Part of the event name, as the client sent it (folded here); null: every event. */
  search: string | null;
  /** Page size, 1 to 100. */
  limit: number;
  /** The position of a verified cursor; null for the first page. */
  after: EventPosition | null;
}

/**
 * A page, or the refusal of a dangling cursor: its event was deleted meanwhile, so the route answers 422
 * `"cursor" is not valid.` ("valid while the last event of the previous page exists").
 */
export type EventListing =
  { ok: true; data: EventItem[]; nextPosition: EventPosition | null } | { ok: false; reason: 'dangling' };

/**
 * The LIKE pattern that finds `search` anywhere in a folded name: folded the way names are stored
 * (`foldName`: NFD, combining marks removed, lower-cased; docs/pos-api.md, Settled details: "folds case and
 * accents on both sides"), then `\`, `%` and `_` escaped, so that they are plain text, not wildcards. Used
 * with `ESCAPE '\'`, which SQLite and PostgreSQL read alike. Both sides are folded, so the case rules of LIKE
 * (ASCII-only in SQLite, none in PostgreSQL) never come into play.
 */
export function searchPattern(search: string): string {
  return `%${foldName(search).replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * True when the event a cursor points after still exists in the place (by id: an event replaced with
 * another registration instant keeps its cursors, which go on from the position they carry).
 */
export async function eventExists(
  db: Db,
  accountId: string,
  placeId: string,
  position: EventPosition,
): Promise<boolean> {
  const row = await db
    .selectFrom('pos_events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('place_id', '=', placeId)
    .where('id', '=', position.id)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Reads one page: most recently registered first, ties by id descending, in binary order of the id on
 * both databases (PostgreSQL is told `COLLATE "C"`, so the order does not depend on the database's
 * locale), strictly after `after`. Paging is by position, not offset, so the pages join without repeats or
 * gaps even when `limit` changes between them. One row more than the page is read to know whether a next
 * page exists: `nextPosition` is null on the last page.
 *
 * The cost does not grow with the depth: "after the position" is one row-value comparison,
 * `(registered_at, id) < (…, …)`, which both databases read as a range of the keyset index (migration
 * 0004: the same columns in the same order and collation), started at the cursor; spelled as
 * `registered_at < … or (registered_at = … and id < …)` SQLite scanned the place from its newest event to
 * the cursor. The index carries the folded name: SQLite tests a search on the index entry and reads the
 * row of a matching one only (reading the page's positions first in a subquery measured no faster there,
 * and slower for a common word).
 *
 * On PostgreSQL the place is named `collate "C"` too, as the keyset index's columns are: only this query
 * can use that index, so that a look-up of one event by its key (`account_id = … and place_id = … and
 * id = …`) always goes to the primary key. Were the index usable for the place alone, the planner, which
 * without fresh statistics on a growing place estimates one row either way, would pick it and read the
 * place's whole range for every look-up: the creation rate through the admin API fell with the place's
 * size (measured 148/s for the first 10,000 events, 102/s after 60,000; a look-up at 60,000 took 19 ms).
 */
export async function listEvents(db: Db, query: EventListQuery): Promise<EventListing> {
  const { accountId, placeId, limit, after } = query;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  if (after !== null && !(await eventExists(db, accountId, placeId, after))) {
    return { ok: false, reason: 'dangling' };
  }
  const rows = await eventPageQuery(db, query).execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextPosition =
    rows.length > limit && last !== undefined ? { registeredAt: last.registered_at, id: last.id } : null;
  return {
    ok: true,
    data: page.map((row) => ({
      id: row.id,
      name: row.name,
      starts_at: row.starts_at === null ? null : wireTime(row.starts_at),
      // "null when no valid end": an end before the start is not shown (the back office refuses one, but
      // the row may come from elsewhere).
      ends_at:
        row.ends_at === null || (row.starts_at !== null && row.ends_at < row.starts_at)
          ? null
          : wireTime(row.ends_at),
      active: row.active === 1,
    })),
    nextPosition,
  };
}

/** The query of one page (`listEvents`, which checks the cursor first), as built for the database. */
export function eventPageQuery(db: Db, query: EventListQuery) {
  const { accountId, placeId, search, limit, after } = query;
  const postgres = isPostgres(db);
  const binary = (column: 'account_id' | 'place_id' | 'id') =>
    postgres ? sql<string>`${sql.ref(column)} collate "C"` : sql<string>`${sql.ref(column)}`;
  const id = binary('id');
  let select = db
    .selectFrom('pos_events')
    .where(binary('account_id'), '=', accountId)
    .where(binary('place_id'), '=', placeId);
  if (search !== null) {
    select = select.where(sql<boolean>`${sql.ref('name_folded')} like ${searchPattern(search)} escape '\\'`);
  }
  if (after !== null) {
    select = select.where(
      sql<boolean>`(${sql.ref('registered_at')}, ${id}) < (${after.registeredAt}, ${after.id})`,
    );
  }
  return select
    .select(['id', 'name', 'starts_at', 'ends_at', 'active', 'registered_at'])
    .orderBy('registered_at', 'desc')
    .orderBy(id, 'desc')
    .limit(limit + 1);
}

/** The response's `next_cursor`: null on the last page, else a signed cursor bound to `scope`. */
export function nextCursor(
  secret: string,
  scope: CursorScope,
  nextPosition: EventPosition | null,
): string | null {
  return nextPosition === null ? null : signCursor(secret, scope, nextPosition);
}
