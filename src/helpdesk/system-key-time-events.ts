import { sql } from 'kysely';
import { SERVICE_ACTOR } from '../audit/actor.js';
import { onceKeyOf, recordKeyEvent } from '../audit/key-audit-repository.js';
import type { Db } from '../db/database.js';

// The end of a partner system's previous key's grace (docs/ticket-api.md, States and transitions:
// "time passes 24 hours"), recorded once at the real instant it happened: by the sweeper of every process
// (the unique `once_key` lets one row in), and by a rotation about to overwrite that instant.

/** The columns of a system row the end of its grace depends on. */
interface TimedSystem {
  identifier: string;
  previous_key_hash: string | null;
  previous_valid_until: number | null;
}

/** Records the end of the system's previous key's grace when due at `now`; returns whether it wrote. */
export async function recordSystemKeyTimeEvents(db: Db, system: TimedSystem, now: number): Promise<number> {
  const graceEnd = system.previous_valid_until;
  if (system.previous_key_hash === null || graceEnd === null || graceEnd > now) return 0;
  const recorded = await recordKeyEvent(db, {
    kind: 'system',
    ownerId: system.identifier,
    keyId: system.identifier,
    event: 'grace_ended',
    occurredAt: graceEnd,
    actor: SERVICE_ACTOR,
    onceKey: onceKeyOf('grace_ended', 'system', system.identifier, system.identifier, graceEnd),
  });
  return recorded ? 1 : 0;
}

/** The sweep: systems whose grace ended and is not recorded yet, at most `batch` a round. */
export async function sweepSystemKeyTimeEvents(db: Db, now: number, batch = 500): Promise<number> {
  const rows = await db
    .selectFrom('hd_systems as s')
    .select(['s.identifier', 's.previous_key_hash', 's.previous_valid_until'])
    .where('s.previous_key_hash', 'is not', null)
    .where('s.previous_valid_until', '<=', now)
    .where(
      sql<boolean>`not exists (select 1 from key_audit_events a where a.once_key =
        'grace_ended:system:' || s.identifier || ':' || s.identifier || ':' || s.previous_valid_until)`,
    )
    .limit(batch)
    .execute();
  let written = 0;
  for (const row of rows) written += await recordSystemKeyTimeEvents(db, row, now);
  return written;
}
