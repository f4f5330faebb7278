import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import { ACTOR_CHANNELS, ACTOR_ROLES } from './actor.js';
import { auditCursor } from './audit-cursor.js';
import { KEY_EVENTS, KEY_KINDS, type KeyAuditEvent, type KeyAuditPosition } from './key-audit-repository.js';

// What the operator and support read of the key audit trail (docs/back-office.md, Audit trail and last use): who did
// what to which key, when and from where; never a key or a hash.

const eventExample = {
  event: 'rotated',
  kind: 'merchant',
  system: null,
  account: 'acme',
  key: 'k7Qm2Xa9',
  occurred_at: '2026-11-20T12:00:00Z',
  actor: { role: 'operator', user_id: null, name: null, channel: 'cli', ip: '203.0.113.7' },
  details: {
    invalidate_current: false,
    previous_valid_until: '2026-11-21T12:00:00Z',
    older_previous_ended: false,
  },
};

/** One lifecycle event of a key. */
const keyAuditEventBody = z
  .strictObject({
    event: z.enum(KEY_EVENTS),
    /** `system`: a help-desk partner system's key; `merchant`: a merchant's API key. */
    kind: z.enum(KEY_KINDS),
    /** The partner system (kind `system`); null otherwise. */
    system: z.string().nullable(),
    /** The merchant's account (kind `merchant`); null otherwise. */
    account: z.string().nullable(),
    /** The merchant key's credential id (kind `merchant`); null for a system (one key credential). */
    key: z.string().nullable(),
    occurred_at: wireTimeText,
    actor: z.strictObject({
      role: z.enum(ACTOR_ROLES),
      user_id: z.string().nullable(),
      name: z.string().nullable(),
      channel: z.enum(ACTOR_CHANNELS),
      ip: z.string().nullable(),
    }),
    /** What the event changed: an edit's `changes` (each field's `before` and `after`), a rotation's grace… */
    details: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'KeyAuditEvent', examples: [eventExample] });

/** A page of the trail, newest first, and the cursor of the next one (null on the last page). */
export const keyAuditPageBody = z
  .strictObject({ data: z.array(keyAuditEventBody), next_cursor: z.string().nullable() })
  .meta({ id: 'KeyAuditPage', examples: [{ data: [eventExample], next_cursor: '1795694400000.41' }] });

/** One event as the back office shows it. */
function keyAuditEventView(event: KeyAuditEvent): z.infer<typeof keyAuditEventBody> {
  const system = event.kind === 'system';
  return {
    event: event.event,
    kind: event.kind,
    system: system ? event.ownerId : null,
    account: system ? null : event.ownerId,
    key: system ? null : event.keyId,
    occurred_at: wireTime(event.occurredAt),
    actor: {
      role: event.actor.role,
      user_id: event.actor.userId ?? null,
      name: event.actor.displayName ?? null,
      channel: event.actor.channel,
      ip: event.actor.ip,
    },
    details: event.details,
  };
}

/** A page of events. */
export function keyAuditPageView(page: {
  events: readonly KeyAuditEvent[];
  next: KeyAuditPosition | null;
}): z.infer<typeof keyAuditPageBody> {
  return {
    data: page.events.map(keyAuditEventView),
    next_cursor: page.next === null ? null : auditCursor(page.next),
  };
}
