import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PosEventTable } from '../../db/schema.js';
import { upsertRow } from '../../db/upsert.js';

/** An event registered in a place. Instants in ms. */
export interface PosEvent {
  accountId: string;
  placeId: string;
  id: string;
  name: string;
  /** Case- and accent-folded name, what the events search compares with. */
  nameFolded: string;
  startsAt: number | null;
  endsAt: number | null;
  active: boolean;
  registeredAt: number;
}

/** What the operator writes with PUT. */
export interface EventSettings {
  name: string;
  startsAt: number | null;
  endsAt: number | null;
  active: boolean;
  /** When the event was registered (ms): a new event's, and a replaced one's unless `keepRegisteredAt`. */
  registeredAt: number;
  /** True when the operator did not send `registered_at`: a replaced event keeps its own. */
  keepRegisteredAt?: boolean;
}

/**
 * Folds case and accents for the events search (docs/pos-api.md, Settled details): Unicode NFD, combining
 * marks removed, lower-cased. `São João` → `sao joao`.
 */
export function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function toEvent(row: Selectable<PosEventTable>): PosEvent {
  return {
    accountId: row.account_id,
    placeId: row.place_id,
    id: row.id,
    name: row.name,
    nameFolded: row.name_folded,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    active: row.active === 1,
    registeredAt: row.registered_at,
  };
}

export async function findEvent(
  db: Db,
  accountId: string,
  placeId: string,
  id: string,
): Promise<PosEvent | undefined> {
  const row = await db
    .selectFrom('pos_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('place_id', '=', placeId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : toEvent(row);
}

/** The events of a place, most recently registered first (ties by id, descending). */
export async function listEvents(db: Db, accountId: string, placeId: string): Promise<PosEvent[]> {
  const rows = await db
    .selectFrom('pos_events')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('place_id', '=', placeId)
    .orderBy('registered_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toEvent);
}

/** The (place, event) pairs of the account whose event id is one of `ids`. */
export async function eventPlacePairs(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<{ placeId: string; eventId: string }[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('pos_events')
    .select(['place_id', 'id'])
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => ({ placeId: row.place_id, eventId: row.id }));
}

/** Creates or replaces an event, in one atomic upsert. Returns true when it was created. */
export async function putEvent(
  db: Db,
  accountId: string,
  placeId: string,
  id: string,
  settings: EventSettings,
): Promise<boolean> {
  const values = {
    name: settings.name,
    name_folded: foldName(settings.name),
    starts_at: settings.startsAt,
    ends_at: settings.endsAt,
    active: settings.active ? 1 : 0,
  };
  const registered = { registered_at: settings.registeredAt };
  return upsertRow(
    db,
    'pos_events',
    ['account_id', 'place_id', 'id'],
    { account_id: accountId, place_id: placeId, id, ...values, ...registered },
    settings.keepRegisteredAt === true ? values : { ...values, ...registered },
  );
}

/** Deletes an event; receipts recorded with it keep its id. Returns false when there was none. */
export async function deleteEvent(db: Db, accountId: string, placeId: string, id: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('pos_events')
    .where('account_id', '=', accountId)
    .where('place_id', '=', placeId)
    .where('id', '=', id)
    .executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}
