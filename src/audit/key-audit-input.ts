import { z } from 'zod';
import { KEY_EVENTS, KEY_KINDS, type KeyAuditPosition, type KeyEventName } from './key-audit-repository.js';

// The query of a reading of the key audit trail (README, Audit trail and last use): which events, which
// period, and the page. The cursor is the `next_cursor` of the previous page: the instant and sequence of
// its last event, `<ms>.<seq>`. It is not signed: the back office's callers may read the whole trail, so a
// cursor they write themselves shows them nothing they could not read.

const CURSOR = /^(\d{1,16})\.(\d{1,16})$/;

const instant = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 instant with Z or an offset' })
  .transform((text) => Date.parse(text));

const events = z
  .string()
  .transform((text) => text.split(',').map((name) => name.trim()))
  .pipe(
    z.array(
      z.enum(KEY_EVENTS, { error: `must be events among ${KEY_EVENTS.join(', ')}, separated by commas` }),
    ),
  );

/** The filters and page every reading of the trail takes. */
export const keyAuditQueryInput = z.strictObject({
  /** Only these events (comma-separated). */
  event: events.optional(),
  /** Only events at or after this instant. */
  from: instant.optional(),
  /** Only events before this instant. */
  to: instant.optional(),
  cursor: z.string().regex(CURSOR, 'must be the next_cursor of a previous page').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The reading across every key: the same, and optionally one kind of key. */
export const allKeyAuditQueryInput = keyAuditQueryInput.extend({
  kind: z.enum(KEY_KINDS, { error: 'must be system or merchant' }).optional(),
});

export type KeyAuditQueryInput = z.infer<typeof keyAuditQueryInput>;

/** The cursor text of a position. */
export function auditCursor(position: KeyAuditPosition): string {
  return `${position.occurredAt}.${position.seq}`;
}

/** The position a cursor text points after (its shape was checked by the query schema). */
export function auditPosition(cursor: string): KeyAuditPosition {
  const [, occurredAt = '0', seq = '0'] = CURSOR.exec(cursor) ?? [];
  return { occurredAt: Number(occurredAt), seq: Number(seq) };
}

/** The repository's filters of a checked query. */
export function auditFilters(input: KeyAuditQueryInput): {
  events?: KeyEventName[];
  from?: number;
  to?: number;
  after?: KeyAuditPosition;
  limit: number;
} {
  return {
    ...(input.event === undefined ? {} : { events: input.event }),
    ...(input.from === undefined ? {} : { from: input.from }),
    ...(input.to === undefined ? {} : { to: input.to }),
    ...(input.cursor === undefined ? {} : { after: auditPosition(input.cursor) }),
    limit: input.limit,
  };
}
