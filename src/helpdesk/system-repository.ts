import type { Db } from '../db/database.js';
import { prepareQuery } from '../db/prepared-query.js';
import type { HdSystemRow } from '../db/schema.js';
import { upsertRow } from '../db/upsert.js';

/** A partner system as the ticket API and the back office see it (never its key hashes). */
export interface PartnerSystem {
  identifier: string;
  name: string;
  active: boolean;
  scopes: string[];
  rateLimitPerMinute: number;
  keyGraceSeconds: number;
  defaultCategoryId: number | null;
  releasedCategoryIds: number[];
  hasKey: boolean;
  /** When the previous key stops (ms); null when there is none. */
  previousValidUntil: number | null;
  /** Last accepted use of the current key (ms), flushed about once a minute; null: never. */
  keyLastUsedAt: number | null;
  /** Last accepted use of the previous key (ms); null: never, or no previous key. */
  previousKeyLastUsedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The row of a system with its key hashes, for authentication only. */
export type SystemWithKeys = PartnerSystem & {
  currentKeyHash: string | null;
  previousKeyHash: string | null;
};

function toSystem(row: HdSystemRow): SystemWithKeys {
  return {
    identifier: row.identifier,
    name: row.name,
    active: row.active === 1,
    scopes: JSON.parse(row.scopes) as string[],
    rateLimitPerMinute: row.rate_limit_per_minute,
    keyGraceSeconds: row.key_grace_seconds,
    defaultCategoryId: row.default_category_id,
    releasedCategoryIds: JSON.parse(row.released_category_ids) as number[],
    hasKey: row.current_key_hash !== null,
    previousValidUntil: row.previous_valid_until,
    keyLastUsedAt: row.current_key_last_used_at,
    previousKeyLastUsedAt: row.previous_key_hash === null ? null : row.previous_key_last_used_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    currentKeyHash: row.current_key_hash,
    previousKeyHash: row.previous_key_hash,
  };
}

/** Strips the key hashes, for anything shown to the operator. */
export function withoutKeys(system: SystemWithKeys): PartnerSystem {
  const { currentKeyHash: _current, previousKeyHash: _previous, ...shown } = system;
  return shown;
}

/** The look-up of every ticket API call's key: compiled once (src/db/prepared-query.ts). */
const systemByKeyHash = prepareQuery('hd_system_by_key_hash', (db: Db, v: { keyHash: string }) =>
  db
    .selectFrom('hd_systems')
    .selectAll()
    .where((eb) => eb.or([eb('current_key_hash', '=', v.keyHash), eb('previous_key_hash', '=', v.keyHash)])),
);

/** The system whose current or previous key hashes to `keyHash`. */
export async function findSystemByKeyHash(db: Db, keyHash: string): Promise<SystemWithKeys | undefined> {
  const [row] = await systemByKeyHash.rows(db, { keyHash });
  return row === undefined ? undefined : toSystem(row);
}

export async function findSystem(db: Db, identifier: string): Promise<SystemWithKeys | undefined> {
  const row = await db
    .selectFrom('hd_systems')
    .selectAll()
    .where('identifier', '=', identifier)
    .executeTakeFirst();
  return row === undefined ? undefined : toSystem(row);
}

export async function listSystems(db: Db): Promise<SystemWithKeys[]> {
  const rows = await db.selectFrom('hd_systems').selectAll().orderBy('identifier').execute();
  return rows.map(toSystem);
}

/** The settings of a system that the operator writes with PUT. */
export interface SystemSettings {
  name: string;
  active: boolean;
  scopes: string[];
  rateLimitPerMinute: number;
  keyGraceSeconds: number;
  defaultCategoryId: number | null;
  releasedCategoryIds: number[];
}

/**
 * Creates or replaces a system's settings, keeping its keys and creation instant, in one atomic upsert.
 * Returns true when it was created.
 */
export async function putSystem(
  db: Db,
  identifier: string,
  settings: SystemSettings,
  now: number,
): Promise<boolean> {
  const values = {
    name: settings.name,
    active: settings.active ? 1 : 0,
    scopes: JSON.stringify(settings.scopes),
    rate_limit_per_minute: settings.rateLimitPerMinute,
    key_grace_seconds: settings.keyGraceSeconds,
    default_category_id: settings.defaultCategoryId,
    released_category_ids: JSON.stringify(settings.releasedCategoryIds),
    updated_at: now,
  };
  return upsertRow(
    db,
    'hd_systems',
    ['identifier'],
    {
      identifier,
      ...values,
      current_key_hash: null,
      previous_key_hash: null,
      previous_valid_until: null,
      created_at: now,
    },
    values,
  );
}

/**
 * Makes `newKeyHash` the current key. The current key, if any, becomes the previous one until
 * `previousValidUntil` (its last use with it); an older previous key ends at once (only two keys are
 * remembered). Run it in a transaction: it reads the row, then writes it.
 */
export async function rotateSystemKey(
  db: Db,
  identifier: string,
  newKeyHash: string,
  previousValidUntil: number,
  now: number,
): Promise<void> {
  const row = await db
    .selectFrom('hd_systems')
    .select(['current_key_hash', 'current_key_last_used_at'])
    .where('identifier', '=', identifier)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('hd_systems')
    .set({
      previous_key_hash: row.current_key_hash,
      previous_valid_until: row.current_key_hash === null ? null : previousValidUntil,
      current_key_hash: newKeyHash,
      previous_key_last_used_at: row.current_key_last_used_at,
      current_key_last_used_at: null,
      updated_at: now,
    })
    .where('identifier', '=', identifier)
    .execute();
}

/** Ends the previous key at once (a leak reported to support). Returns false when there was none. */
export async function stopPreviousKey(db: Db, identifier: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('hd_systems')
    .set({
      previous_key_hash: null,
      previous_valid_until: null,
      previous_key_last_used_at: null,
      updated_at: now,
    })
    .where('identifier', '=', identifier)
    .where('previous_key_hash', 'is not', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
