import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import type { PartnerSystem } from './system-repository.js';
import { SCOPES } from './system-scopes.js';

// What the operator reads of a partner system and its keys (docs/admin-rules.md, Help desk: systems): never a
// key's hash, and a key's text only once, when it is issued.

/** An example for the document (OpenAPI). */
const systemExample = {
  identifier: 'demo',
  name: 'Demo partner',
  active: true,
  scopes: ['help-desk-ticket.create'],
  rate_limit_per_minute: 120,
  key_grace_seconds: 86400,
  default_category_id: 10,
  released_category_ids: [11],
  has_key: true,
  previous_key_valid_until: null,
  key_last_used_at: '2026-11-20T11:58:00Z',
  previous_key_last_used_at: null,
  created_at: '2026-11-01T12:00:00Z',
  updated_at: '2026-11-20T12:00:00Z',
};

/** The operator's view of a system (never its keys). */
export const systemBody = z
  .strictObject({
    identifier: z.string(),
    name: z.string(),
    active: z.boolean(),
    scopes: z.array(z.enum(SCOPES)),
    rate_limit_per_minute: z.number().int(),
    key_grace_seconds: z.number().int(),
    default_category_id: z.number().int().nullable(),
    released_category_ids: z.array(z.number().int()),
    /** Whether a key was issued. */
    has_key: z.boolean(),
    /** When the previous key of a rotation stops; null when there is none. */
    previous_key_valid_until: wireTimeText.nullable(),
    /** Last accepted call with the current key, to about a minute; null: never. */
    key_last_used_at: wireTimeText.nullable(),
    /** Last accepted call with the previous key of a rotation; null: never, or none. */
    previous_key_last_used_at: wireTimeText.nullable(),
    created_at: wireTimeText,
    updated_at: wireTimeText,
  })
  .meta({ id: 'System', examples: [systemExample] });

/** 201 of POST keys/rotate: the new key, shown this once, and until when the previous one works. */
export const systemKeyBody = z
  .strictObject({
    key: z.string(),
    previous_valid_until: wireTimeText.nullable(),
  })
  .meta({
    id: 'SystemKey',
    examples: [{ key: 'gtes_' + 'A'.repeat(43), previous_valid_until: '2026-11-21T12:00:00Z' }],
  });

/** 200 of POST keys/stop-previous: whether a previous key was still working, and the system after. */
export const stoppedKeyBody = z
  .strictObject({ stopped: z.boolean(), system: systemBody })
  .meta({ id: 'StoppedKey', examples: [{ stopped: true, system: systemExample }] });

/** The operator's view of a system (never its keys). */
export function systemView(system: PartnerSystem): z.infer<typeof systemBody> {
  return {
    identifier: system.identifier,
    name: system.name,
    active: system.active,
    scopes: system.scopes as z.infer<typeof systemBody>['scopes'],
    rate_limit_per_minute: system.rateLimitPerMinute,
    key_grace_seconds: system.keyGraceSeconds,
    default_category_id: system.defaultCategoryId,
    released_category_ids: system.releasedCategoryIds,
    has_key: system.hasKey,
    previous_key_valid_until: system.previousValidUntil === null ? null : wireTime(system.previousValidUntil),
    key_last_used_at: system.keyLastUsedAt === null ? null : wireTime(system.keyLastUsedAt),
    previous_key_last_used_at:
      system.previousKeyLastUsedAt === null ? null : wireTime(system.previousKeyLastUsedAt),
    created_at: wireTime(system.createdAt),
    updated_at: wireTime(system.updatedAt),
  };
}

/** The body of a rotation: the key text once, and the end of the previous key's grace (null: none). */
export function systemKeyView(rotation: {
  key: string;
  previousValidUntil: number | null;
}): z.infer<typeof systemKeyBody> {
  return {
    key: rotation.key,
    previous_valid_until: rotation.previousValidUntil === null ? null : wireTime(rotation.previousValidUntil),
  };
}

/** The body of stop-previous. */
export function stoppedKeyView(result: {
  stopped: boolean;
  system: PartnerSystem;
}): z.infer<typeof stoppedKeyBody> {
  return { stopped: result.stopped, system: systemView(result.system) };
}
