import { sql } from 'kysely';
import { SERVICE_ACTOR } from '../../audit/actor.js';
import { onceKeyOf, recordKeyEvent } from '../../audit/key-audit-repository.js';
import type { Db } from '../../db/database.js';
import type { PosKeyTable } from '../../db/schema.js';
import { isExpired } from './key-state.js';

// The time-based events of a merchant key (docs/pos-api.md, States and transitions: "validity date
// passes", "24 hours pass"), recorded once at the real instant they happened: by the sweeper of every
// process (the unique `once_key` lets one row in), and by a change that is about to overwrite the instant
// (an edit of the validity, a rotation), so that none is lost when the sweeper has not passed yet.

/** The columns of a key row the time-based events depend on. */
type TimedKey = Pick<
  PosKeyTable,
  'id' | 'account_id' | 'expires_at' | 'revoked_at' | 'previous_key_hash' | 'previous_valid_until'
>;

/** The first instant a key is expired: the second after its last valid one (ms). */
function expiredAt(key: Pick<TimedKey, 'expires_at'>): number {
  return (Math.floor(key.expires_at / 1000) + 1) * 1000;
}

/** Records the key's expiry and the end of its previous key's grace when due at `now`; returns how many. */
export async function recordMerchantKeyTimeEvents(db: Db, key: TimedKey, now: number): Promise<number> {
  // A key revoked while it was still valid (or within the grace) never expires (or ends its grace).
  const revokedBefore = (instant: number) => key.revoked_at !== null && key.revoked_at <= instant;
  let written = 0;
  if (isExpired(key, now) && !revokedBefore(key.expires_at)) {
    const recorded = await recordKeyEvent(db, {
      kind: 'merchant',
      ownerId: key.account_id,
      keyId: key.id,
      event: 'expired',
      occurredAt: expiredAt(key),
      actor: SERVICE_ACTOR,
      details: { expires_at: key.expires_at },
      onceKey: onceKeyOf('expired', 'merchant', key.account_id, key.id, key.expires_at),
    });
    if (recorded) written += 1;
  }
  const graceEnd = key.previous_valid_until;
  if (key.previous_key_hash !== null && graceEnd !== null && graceEnd <= now && !revokedBefore(graceEnd)) {
    const recorded = await recordKeyEvent(db, {
      kind: 'merchant',
      ownerId: key.account_id,
      keyId: key.id,
      event: 'grace_ended',
      occurredAt: graceEnd,
      actor: SERVICE_ACTOR,
      onceKey: onceKeyOf('grace_ended', 'merchant', key.account_id, key.id, graceEnd),
    });
    if (recorded) written += 1;
  }
  return written;
}

/**
 * The sweep: keys whose expiry or grace's end is due and not recorded yet (found through the once-only
 * marks), at most `batch` of them a round.
 */
export async function sweepMerchantKeyTimeEvents(db: Db, now: number, batch = 500): Promise<number> {
  const once = (event: string, instant: string) =>
    sql<boolean>`not exists (select 1 from key_audit_events a where a.once_key =
      ${sql.lit(event)} || ':merchant:' || k.account_id || ':' || k.id || ':' || ${sql.ref(`k.${instant}`)})`;
  const rows = await db
    .selectFrom('pos_keys as k')
    .select([
      'k.id',
      'k.account_id',
      'k.expires_at',
      'k.revoked_at',
      'k.previous_key_hash',
      'k.previous_valid_until',
    ])
    .where((eb) =>
      eb.or([
        eb.and([
          eb('k.expires_at', '<', Math.floor(now / 1000) * 1000),
          eb.or([eb('k.revoked_at', 'is', null), eb('k.revoked_at', '>', eb.ref('k.expires_at'))]),
          once('expired', 'expires_at'),
        ]),
        eb.and([
          eb('k.previous_key_hash', 'is not', null),
          eb('k.previous_valid_until', '<=', now),
          eb.or([eb('k.revoked_at', 'is', null), eb('k.revoked_at', '>', eb.ref('k.previous_valid_until'))]),
          once('grace_ended', 'previous_valid_until'),
        ]),
      ]),
    )
    .limit(batch)
    .execute();
  let written = 0;
  for (const row of rows) written += await recordMerchantKeyTimeEvents(db, row, now);
  return written;
}
