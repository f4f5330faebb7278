import { z } from 'zod';
import { auditCursorText, auditPosition } from './audit-cursor.js';
import { KEY_EVENTS, KEY_KINDS, type KeyAuditPosition, type KeyEventName } from './key-audit-repository.js';

// The query of a reading of the key audit trail (docs/back-office.md, Audit trail and last use): which events, which
// period, and the page (the cursor: src/audit/audit-cursor.ts).

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
  cursor: auditCursorText.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** The reading across every key: the same, and optionally one kind of key. */
export const allKeyAuditQueryInput = keyAuditQueryInput.extend({
  kind: z.enum(KEY_KINDS, { error: 'must be system or merchant' }).optional(),
});

export type KeyAuditQueryInput = z.infer<typeof keyAuditQueryInput>;

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
