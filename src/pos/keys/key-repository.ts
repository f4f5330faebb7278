import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/database.js';
import { prepareQuery } from '../../db/prepared-query.js';
import type { PosKeyTable } from '../../db/schema.js';
import { hashApiKey, hashMatches, hasKeyShape } from '../../lib/api-key.js';
import type { KeyMatch } from './key-state.js';
import type { PosPermission } from '../api/pos-permissions.js';

// Merchants' API keys as stored: settings, state flags and the hashes of the current and previous key
// text (plus the key a rotation that invalidated the current one ended at once). Only hashes are stored.

/** Merchant keys start with this prefix, followed by 43 base64url characters (48 in all). */
export const POS_KEY_PREFIX = 'gtpk_';

type PosKeyRow = Selectable<PosKeyTable>;

/** What a key may reach, kept as JSON text in its row and read or written only here. */
interface KeyReach {
  /** The permissions the key carries. */
  permissions: PosPermission[];
  /** `all` places of the account (future ones too), or the listed place ids. */
  places: 'all' | string[];
}

/** A stored key with its permissions and places read: what the services and the API gates work with. */
export type PosKeyRecord = Omit<PosKeyRow, keyof KeyReach> & KeyReach;
export type NewPosKey = Omit<Insertable<PosKeyTable>, keyof KeyReach> & KeyReach;
export type PosKeyUpdate = Omit<Updateable<PosKeyTable>, keyof KeyReach> & Partial<KeyReach>;

function toRecord(row: PosKeyRow): PosKeyRecord {
  return {
    ...row,
    permissions: JSON.parse(row.permissions) as PosPermission[],
    places: JSON.parse(row.places) as 'all' | string[],
  };
}

/** The row's form of the values: permissions and places as JSON text. */
function toColumns<T extends Partial<KeyReach>>(values: T) {
  const { permissions, places, ...rest } = values;
  return {
    ...rest,
    ...(permissions === undefined ? {} : { permissions: JSON.stringify(permissions) }),
    ...(places === undefined ? {} : { places: JSON.stringify(places) }),
  };
}

/** A key row found by presented key text, which of its hashes matched, and its account's state. */
export interface FoundPosKey {
  key: PosKeyRecord;
  matched: KeyMatch;
  accountActive: boolean;
}

export async function insertKey(db: Db, values: NewPosKey): Promise<void> {
  await db
    .insertInto('pos_keys')
    .values({
      ...values,
      permissions: JSON.stringify(values.permissions),
      places: JSON.stringify(values.places),
    })
    .execute();
}

/** The key `id` of the account, or undefined (a key of another account is not found either). */
export async function findKey(db: Db, accountId: string, id: string): Promise<PosKeyRecord | undefined> {
  const row = await db
    .selectFrom('pos_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row === undefined ? undefined : toRecord(row);
}

/** Keys of one account, or of every account, oldest first. */
export async function listKeys(db: Db, accountId?: string): Promise<PosKeyRecord[]> {
  let query = db.selectFrom('pos_keys').selectAll();
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  const rows = await query.orderBy('account_id').orderBy('created_at').orderBy('id').execute();
  return rows.map(toRecord);
}

/**
 * How many keys of the account are active (not revoked, not expired; a paused key counts), leaving out
 * `exceptId`. A key is expired once the clock is past its last valid second.
 */
export async function countActiveKeys(
  db: Db,
  accountId: string,
  now: number,
  exceptId?: string,
): Promise<number> {
  let query = db
    .selectFrom('pos_keys')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>=', Math.floor(now / 1000) * 1000);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Writes `values` to the key. With `expectedCurrentHash`, only while the current key is still that one
 * (two rotations racing: the loser changes nothing). Returns false when no row was changed.
 */
export async function updateKey(
  db: Db,
  accountId: string,
  id: string,
  values: PosKeyUpdate,
  expectedCurrentHash?: string,
): Promise<boolean> {
  let query = db
    .updateTable('pos_keys')
    .set(toColumns(values))
    .where('account_id', '=', accountId)
    .where('id', '=', id);
  if (expectedCurrentHash !== undefined) query = query.where('current_key_hash', '=', expectedCurrentHash);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The look-up of every POS API call's key: compiled once (src/db/prepared-query.ts). */
const keyByHash = prepareQuery('pos_key_by_hash', (db: Db, v: { hash: string }) =>
  db
    .selectFrom('pos_keys')
    .innerJoin('pos_accounts', 'pos_accounts.id', 'pos_keys.account_id')
    .selectAll('pos_keys')
    .select('pos_accounts.active as account_active')
    .where((eb) =>
      eb.or([
        eb('pos_keys.current_key_hash', '=', v.hash),
        eb('pos_keys.previous_key_hash', '=', v.hash),
        eb('pos_keys.replaced_key_hash', '=', v.hash),
      ]),
    ),
);

/**
 * The key whose current, previous or replaced hash is the hash of `keyText`, and which one matched.
 * Undefined for text without the shape of a merchant key, and for a key nobody has (including a key from
 * two rotations back, which is forgotten).
 */
export async function findKeyByText(db: Db, keyText: string): Promise<FoundPosKey | undefined> {
  if (!hasKeyShape(keyText, POS_KEY_PREFIX)) return undefined;
  const hash = hashApiKey(keyText);
  const [row] = await keyByHash.rows(db, { hash });
  if (row === undefined) return undefined;
  const { account_active: accountActive, ...stored } = row;
  const key = toRecord(stored);
  // The hashes are compared again in constant time to tell which one matched.
  const matched: KeyMatch | undefined = hashMatches(hash, key.current_key_hash)
    ? 'current'
    : hashMatches(hash, key.previous_key_hash)
      ? 'previous'
      : hashMatches(hash, key.replaced_key_hash)
        ? 'replaced'
        : undefined;
  if (matched === undefined) return undefined;
  return { key, matched, accountActive: accountActive === 1 };
}
