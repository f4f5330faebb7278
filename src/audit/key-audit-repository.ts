import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { KeyAuditEventTable } from '../db/schema.js';
import type { Actor, ActorChannel, ActorRole } from './actor.js';

// The key audit trail as stored (docs/back-office.md, Audit trail and last use): one row per lifecycle event of a
// partner system's key or a merchant's key, written by the services in the transaction of the change,
// and read newest first. Never a key text or a hash.

/** Which kind of key: a help-desk partner system's, or a merchant's API key. */
export type KeyKind = 'system' | 'merchant';
export const KEY_KINDS = ['system', 'merchant'] as const;

/** The lifecycle events of both kinds of key. */
export const KEY_EVENTS = [
  'issued',
  'rotated',
  'previous_stopped',
  'paused',
  'reactivated',
  'revoked',
  'edited',
  'expired',
  'grace_ended',
] as const;
export type KeyEventName = (typeof KEY_EVENTS)[number];

/** One event to record. */
export interface NewKeyEvent {
  kind: KeyKind;
  /** The system identifier, or the merchant's account id. */
  ownerId: string;
  /** The merchant key's credential id; the system identifier for a system. */
  keyId: string;
  event: KeyEventName;
  /** When it happened (ms): the change's instant, or the real instant a validity or grace ended. */
  occurredAt: number;
  actor: Actor;
  /** What changed (never a key or a hash). */
  details?: Record<string, unknown>;
  /**
   * Set on an event that must exist once however many processes try to write it (a key's expiry, the end
   * of a grace): the second write of the same `onceKey` changes nothing.
   */
  onceKey?: string;
}

/** A recorded event. */
export interface KeyAuditEvent extends Omit<NewKeyEvent, 'onceKey' | 'details'> {
  /** The row's sequence: ties of `occurredAt` are ordered by it. */
  seq: number;
  details: Record<string, unknown>;
}

/**
 * The once-only mark of a time-based event: the same text for every process that sees it, so that one
 * row is written. `instant` is the real instant the validity or the grace ended.
 */
export function onceKeyOf(
  event: 'expired' | 'grace_ended',
  kind: KeyKind,
  ownerId: string,
  keyId: string,
  instant: number,
): string {
  return `${event}:${kind}:${ownerId}:${keyId}:${instant}`;
}

/** Writes an event; with `onceKey`, only when no row has it yet. Returns whether a row was written. */
export async function recordKeyEvent(db: Db, event: NewKeyEvent): Promise<boolean> {
  const { actor } = event;
  const result = await db
    .insertInto('key_audit_events')
    .values({
      kind: event.kind,
      owner_id: event.ownerId,
      key_id: event.keyId,
      event: event.event,
      occurred_at: event.occurredAt,
      actor_role: actor.role,
      actor_user_id: actor.userId ?? null,
      actor_name: actor.displayName ?? null,
      channel: actor.channel,
      actor_ip: actor.ip,
      details: JSON.stringify(event.details ?? {}),
      once_key: event.onceKey ?? null,
    })
    .onConflict((oc) => oc.column('once_key').doNothing())
    .executeTakeFirst();
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** Where a page of the trail starts: strictly after this event in the newest-first order. */
export interface KeyAuditPosition {
  occurredAt: number;
  seq: number;
}

/** Filters and page of a reading of the trail. */
export interface KeyAuditQuery {
  kind?: KeyKind;
  ownerId?: string;
  keyId?: string;
  events?: readonly KeyEventName[];
  /** Only events at or after this instant (ms). */
  from?: number;
  /** Only events before this instant (ms). */
  to?: number;
  after?: KeyAuditPosition;
  limit: number;
}

function toEvent(row: Selectable<KeyAuditEventTable>): KeyAuditEvent {
  return {
    seq: row.seq,
    kind: row.kind as KeyKind,
    ownerId: row.owner_id,
    keyId: row.key_id,
    event: row.event as KeyEventName,
    occurredAt: row.occurred_at,
    actor: {
      role: row.actor_role as ActorRole,
      userId: row.actor_user_id,
      displayName: row.actor_name,
      channel: row.channel as ActorChannel,
      ip: row.actor_ip,
    },
    details: JSON.parse(row.details) as Record<string, unknown>,
  };
}

/** Events newest first (by instant, then by sequence), one page and where the next one starts. */
export async function listKeyEvents(
  db: Db,
  query: KeyAuditQuery,
): Promise<{ events: KeyAuditEvent[]; next: KeyAuditPosition | null }> {
  let select = db
    .selectFrom('key_audit_events')
    .selectAll()
    .orderBy('occurred_at', 'desc')
    .orderBy('seq', 'desc')
    .limit(query.limit + 1);
  if (query.kind !== undefined) select = select.where('kind', '=', query.kind);
  if (query.ownerId !== undefined) select = select.where('owner_id', '=', query.ownerId);
  if (query.keyId !== undefined) select = select.where('key_id', '=', query.keyId);
  if (query.events !== undefined && query.events.length > 0)
    select = select.where('event', 'in', [...query.events]);
  if (query.from !== undefined) select = select.where('occurred_at', '>=', query.from);
  if (query.to !== undefined) select = select.where('occurred_at', '<', query.to);
  const after = query.after;
  if (after !== undefined) {
    select = select.where((eb) =>
      eb.or([
        eb('occurred_at', '<', after.occurredAt),
        eb.and([eb('occurred_at', '=', after.occurredAt), eb('seq', '<', after.seq)]),
      ]),
    );
  }
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    events: page.map(toEvent),
    next:
      rows.length > query.limit && last !== undefined
        ? { occurredAt: last.occurred_at, seq: last.seq }
        : null,
  };
}
