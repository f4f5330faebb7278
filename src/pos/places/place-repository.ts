import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.js';
import type { PosPlaceTable } from '../../db/schema.js';
import { prepareQuery } from '../../db/prepared-query.js';
import { upsertRow } from '../../db/upsert.js';

/** A place (point of sale) of an account. */
export interface PosPlace {
  accountId: string;
  id: string;
  name: string | null;
  /** IANA zone name. */
  timezone: string;
  /** null when the place's state is not known. */
  active: boolean | null;
  createdAt: number;
  updatedAt: number;
}

/** What the operator writes with PUT. */
export interface PlaceSettings {
  name: string | null;
  timezone: string;
  active: boolean | null;
}

function toPlace(row: Selectable<PosPlaceTable>): PosPlace {
  return {
    accountId: row.account_id,
    id: row.id,
    name: row.name,
    timezone: row.timezone,
    active: row.active === null ? null : row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The look-up of a place by its key, on every POS API call that names one: compiled once (src/db/prepared-query.ts). */
const placeById = prepareQuery('pos_place_by_id', (db: Db, v: { accountId: string; id: string }) =>
  db.selectFrom('pos_places').selectAll().where('account_id', '=', v.accountId).where('id', '=', v.id),
);

export async function findPlace(db: Db, accountId: string, id: string): Promise<PosPlace | undefined> {
  const [row] = await placeById.rows(db, { accountId, id });
  return row === undefined ? undefined : toPlace(row);
}

/** The look-up of every sales call's place: compiled once (src/db/prepared-query.ts). */
const placeCurrency = prepareQuery('pos_place_currency', (db: Db, v: { accountId: string; id: string }) =>
  db
    .selectFrom('pos_places')
    .innerJoin('pos_accounts', 'pos_accounts.id', 'pos_places.account_id')
    .select('pos_accounts.currency')
    .where('pos_places.account_id', '=', v.accountId)
    .where('pos_places.id', '=', v.id),
);

/**
 * The currency of the account a place belongs to, in which every amount of the place's figures is;
 * undefined when the account has no such place.
 */
export async function findPlaceCurrency(db: Db, accountId: string, id: string): Promise<string | undefined> {
  const [row] = await placeCurrency.rows(db, { accountId, id });
  return row?.currency;
}

/** The places of an account, by id. */
export async function listPlaces(db: Db, accountId: string): Promise<PosPlace[]> {
  const rows = await db
    .selectFrom('pos_places')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
  return rows.map(toPlace);
}

/** Which of `ids` are places of the account. */
export async function existingPlaceIds(
  db: Db,
  accountId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('pos_places')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', 'in', ids)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Creates or replaces a place (its creation instant is kept), in one atomic upsert. Returns true when it
 * was created.
 */
export async function putPlace(
  db: Db,
  accountId: string,
  id: string,
  settings: PlaceSettings,
  now: number,
): Promise<boolean> {
  const values = {
    name: settings.name,
    timezone: settings.timezone,
    active: settings.active === null ? null : settings.active ? 1 : 0,
    updated_at: now,
  };
  return upsertRow(
    db,
    'pos_places',
    ['account_id', 'id'],
    { account_id: accountId, id, ...values, created_at: now },
    values,
  );
}
