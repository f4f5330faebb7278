import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { findAccount, listAccounts, putAccount, type PosAccount } from './account-repository.js';
import { deleteEvent, findEvent, listEvents, putEvent, type PosEvent } from './event-repository.js';
import { findPlace, listPlaces, putPlace, type PosPlace } from './place-repository.js';
import type { AccountInput, EventInput, PlaceInput } from './pos-data-input.js';
import { notFound } from '../../errors/refusals.js';
import type { PosDataOutcome, PosDataRefusal } from './pos-data-refusal.js';

// A merchant's accounts, places and events (docs/admin-rules.md, Point of sale), for the back office, a CLI
// or a web panel. A change naming an account, place or event that does not exist is refused as a value
// (`PosDataRefusal`), before anything is written; a read of one throws its 404.

/** The point-of-sale data service. */
export function createPosDataService(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  /** An account; 404 when there is none. */
  async function account(id: string): Promise<PosAccount> {
    const found = await findAccount(db, id);
    if (found === undefined) throw notFound(`account "${id}"`);
    return found;
  }

  /** A place of an account; 404 when there is no such account or place. */
  async function place(accountId: string, id: string): Promise<PosPlace> {
    await account(accountId);
    const found = await findPlace(db, accountId, id);
    if (found === undefined) throw notFound(`place "${id}" in account "${accountId}"`);
    return found;
  }

  /** The refusal of a change naming a place (or its account) that does not exist; null when both do. */
  async function missingPlace(accountId: string, placeId: string): Promise<PosDataRefusal | null> {
    if ((await findAccount(db, accountId)) === undefined)
      return { ok: false, reason: 'unknown_account', accountId };
    if ((await findPlace(db, accountId, placeId)) === undefined)
      return { ok: false, reason: 'unknown_place', accountId, placeId };
    return null;
  }

  return {
    account,
    listAccounts: () => listAccounts(db),

    /** Creates or replaces an account; returns it and whether it was created. */
    async putAccount(id: string, input: AccountInput): Promise<{ created: boolean; account: PosAccount }> {
      const created = await putAccount(db, id, input, clock.now());
      return { created, account: await account(id) };
    },

    place,

    async listPlaces(accountId: string): Promise<PosPlace[]> {
      await account(accountId);
      return listPlaces(db, accountId);
    },

    /** Creates or replaces a place of an existing account; returns it and whether it was created. */
    async putPlace(
      accountId: string,
      id: string,
      input: PlaceInput,
    ): Promise<PosDataOutcome<{ created: boolean; place: PosPlace }>> {
      if ((await findAccount(db, accountId)) === undefined)
        return { ok: false, reason: 'unknown_account', accountId };
      const created = await putPlace(db, accountId, id, input, clock.now());
      return { ok: true, created, place: await place(accountId, id) };
    },

    async listEvents(accountId: string, placeId: string): Promise<PosEvent[]> {
      await place(accountId, placeId);
      return listEvents(db, accountId, placeId);
    },

    /** Creates or replaces an event of an existing place; returns it and whether it was created. */
    async putEvent(
      accountId: string,
      placeId: string,
      id: string,
      input: EventInput,
    ): Promise<PosDataOutcome<{ created: boolean; event: PosEvent }>> {
      const missing = await missingPlace(accountId, placeId);
      if (missing !== null) return missing;
      // Without `registered_at` a new event is registered now and a replaced one keeps its instant.
      const created = await putEvent(db, accountId, placeId, id, {
        name: input.name,
        startsAt: input.starts_at,
        endsAt: input.ends_at,
        active: input.active,
        registeredAt: input.registered_at ?? clock.now(),
        keepRegisteredAt: input.registered_at === undefined,
      });
      const event = await findEvent(db, accountId, placeId, id);
      if (event === undefined) throw notFound(`event "${id}" in place "${placeId}"`);
      return { ok: true, created, event };
    },

    /** Deletes an event; receipts recorded with it keep its id (they still count without `event`). */
    async deleteEvent(accountId: string, placeId: string, id: string): Promise<PosDataOutcome<object>> {
      const missing = await missingPlace(accountId, placeId);
      if (missing !== null) return missing;
      if (!(await deleteEvent(db, accountId, placeId, id)))
        return { ok: false, reason: 'unknown_event', accountId, placeId, id };
      return { ok: true };
    },
  };
}

export type PosDataService = ReturnType<typeof createPosDataService>;
