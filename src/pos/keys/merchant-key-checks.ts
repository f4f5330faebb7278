import type { Actor } from '../../audit/actor.js';
import { onceKeyOf, recordKeyEvent, type KeyEventName } from '../../audit/key-audit-repository.js';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { wireTime } from '../../lib/wire-time.js';
import { countActiveKeys, findKey, type PosKeyRecord, type PosKeyUpdate } from './key-repository.js';
import { refuse } from './merchant-key-refusal.js';

// The checks the keys service makes inside a change's transaction, and the change's audit event. A check
// that fails aborts the transaction with its refusal (`refuse`), so nothing written before it stays.

/** An account has at most 20 active keys (not revoked, not expired). */
export const MAX_ACTIVE_KEYS = 20;

/** The account must exist; its row is locked for the rest of the transaction on PostgreSQL. */
export async function requireAccount(trx: Db, accountId: string): Promise<void> {
  let query = trx.selectFrom('pos_accounts').select('id').where('id', '=', accountId);
  // Creations and extensions of one account are serialized on its row, so that two of them cannot
  // both pass the limit of active keys (SQLite serializes writing transactions by itself).
  if (isPostgres(trx)) query = query.forUpdate();
  if ((await query.executeTakeFirst()) === undefined)
    refuse({ ok: false, reason: 'unknown_account', accountId });
}

/** The key of the account, which must exist. */
export async function requireKey(trx: Db, accountId: string, id: string): Promise<PosKeyRecord> {
  await requireAccount(trx, accountId);
  const row = await findKey(trx, accountId, id);
  if (row === undefined) return refuse({ ok: false, reason: 'unknown_key', accountId, id });
  return row;
}

/** Refuses places that are not places of the account, naming the first one. */
export async function checkPlaces(trx: Db, accountId: string, chosen: 'all' | string[]): Promise<void> {
  if (chosen === 'all' || chosen.length === 0) return;
  const found = new Set(
    (
      await trx
        .selectFrom('pos_places')
        .select('id')
        .where('account_id', '=', accountId)
        .where('id', 'in', chosen)
        .execute()
    ).map((row) => row.id),
  );
  const index = chosen.findIndex((place) => !found.has(place));
  const missing = chosen[index];
  if (missing !== undefined)
    refuse({ ok: false, reason: 'unknown_place', param: `places.${index}`, accountId, place: missing });
}

/** Refuses one more active key when the account already has the most it may have. */
export async function checkActiveLimit(
  trx: Db,
  accountId: string,
  now: number,
  exceptId?: string,
): Promise<void> {
  if ((await countActiveKeys(trx, accountId, now, exceptId)) >= MAX_ACTIVE_KEYS)
    refuse({ ok: false, reason: 'too_many_active_keys', accountId, max: MAX_ACTIVE_KEYS });
}

/** Refuses any change of a revoked key. */
export function checkNotRevoked(
  row: PosKeyRecord,
  action: 'edited' | 'rotated' | 'paused' | 'reactivated',
): void {
  if (row.revoked_at !== null) refuse({ ok: false, reason: 'revoked', id: row.id, action });
}

/**
 * Records a lifecycle event of the key in the transaction of its change (docs/back-office.md, Audit trail). A grace
 * ended at once by the change (`graceEndedAt`) is marked on the event, so the sweeper does not record
 * it a second time as a `grace_ended` of its own.
 */
export async function auditKeyEvent(
  trx: Db,
  key: { accountId: string; id: string; now: number; actor: Actor },
  event: KeyEventName,
  details: Record<string, unknown> = {},
  graceEndedAt?: number,
): Promise<void> {
  const { accountId, id } = key;
  await recordKeyEvent(trx, {
    kind: 'merchant',
    ownerId: accountId,
    keyId: id,
    event,
    occurredAt: key.now,
    actor: key.actor,
    details,
    ...(graceEndedAt === undefined
      ? {}
      : { onceKey: onceKeyOf('grace_ended', 'merchant', accountId, id, graceEndedAt) }),
  });
}

/** The fields an edit changed, each with its value before and after (instants as wire text). */
export function editedFields(
  row: PosKeyRecord,
  values: PosKeyUpdate,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of ['name', 'permissions', 'places', 'expires_at'] as const) {
    const after = values[field];
    if (after === undefined) continue;
    const before = row[field];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    changes[field] =
      field === 'expires_at'
        ? { before: wireTime(before as number), after: wireTime(after as number) }
        : { before, after };
  }
  return changes;
}
