import type { Db } from '../../db/database.js';
import { withQueryTimeout } from '../../db/query-timeout.js';
import { keyPlaces, reachablePlace, type KeyReach } from '../keys/place-reach.js';
import { findAccount } from './account-repository.js';
import { verifyCursor } from './cursor.js';
import { listEvents, nextCursor, type EventItem } from './event-listing.js';
import { listPlaces, type PosPlace } from './place-repository.js';

// What the point-of-sale data API reads for a merchant key besides the sales figures: its account's
// name, the places it reaches and their events (docs/pos-api.md, ping, places and events). Read on the
// API's database (the replica when there is one); refusals are values for the route table to map.

/** One page of a place's events, as the events route asks for it. */
export interface EventsRequest {
  reach: KeyReach;
  placeId: string;
  /** Part of the event name; null: every event. */
  search: string | null;
  /** Page size, 1 to 100. */
  limit: number;
  /** The cursor as the client sent it; null for the first page. */
  cursor: string | null;
}

/** A page of events, or why there is none. */
export type EventsOutcome =
  | { ok: true; data: EventItem[]; nextCursor: string | null }
  /** The place is not the account's or not reached by the key. */
  | { ok: false; reason: 'unknown_place' }
  /**
   * The cursor belongs to another query (`foreign`), was not issued by this API (`invalid`), or points
   * after an event deleted meanwhile (`dangling`).
   */
  | { ok: false; reason: 'bad_cursor'; cursor: 'foreign' | 'invalid' | 'dangling' }
  /** The listing did not finish within its time limit. */
  | { ok: false; reason: 'timed_out' };

/** The POS API's reads of accounts, places and events. */
export function createPosQueryService(deps: {
  readDb: Db;
  /** Signs and verifies the events cursor. */
  cursorSecret: string;
  eventsQueryTimeoutMs: number;
}) {
  const { readDb, cursorSecret, eventsQueryTimeoutMs } = deps;
  return {
    /** The account's name; empty when the account is gone. */
    async accountName(accountId: string): Promise<string> {
      return (await findAccount(readDb, accountId))?.name ?? '';
    },

    /** Whether the key reaches the place (a place removed from the key is the same as a wrong id). */
    async reaches(reach: KeyReach, placeId: string): Promise<boolean> {
      return (await reachablePlace(readDb, reach, placeId)) !== undefined;
    },

    /** The places of the account the key reaches. */
    async reachedPlaces(reach: KeyReach): Promise<PosPlace[]> {
      const ids = keyPlaces(reach);
      const places = await listPlaces(readDb, reach.account_id);
      return places.filter((place) => ids === null || ids.includes(place.id));
    },

    /**
     * One page of a place's events: the place is checked first, then the cursor, then the listing runs
     * within its time limit.
     */
    async events(request: EventsRequest): Promise<EventsOutcome> {
      if (!(await reachablePlace(readDb, request.reach, request.placeId)))
        return { ok: false, reason: 'unknown_place' };
      const scope = { accountId: request.reach.account_id, placeId: request.placeId };
      let after = null;
      if (request.cursor !== null) {
        const checked = verifyCursor(cursorSecret, request.cursor, scope);
        if (!checked.ok) return { ok: false, reason: 'bad_cursor', cursor: checked.reason };
        after = checked.position;
      }
      const page = await withQueryTimeout(readDb, eventsQueryTimeoutMs, (db) =>
        listEvents(db, { ...scope, search: request.search, limit: request.limit, after }),
      );
      if (page === undefined) return { ok: false, reason: 'timed_out' };
      if (!page.ok) return { ok: false, reason: 'bad_cursor', cursor: 'dangling' };
      return { ok: true, data: page.data, nextCursor: nextCursor(cursorSecret, scope, page.nextPosition) };
    },
  };
}

export type PosQueryService = ReturnType<typeof createPosQueryService>;
