import { z } from 'zod';
import { displayName } from '../lib/input-text.js';
import { catalogId } from './catalog-input.js';
import { SCOPES } from './system-scopes.js';

// What the operator sends to configure a partner system (docs/admin-rules.md, Help desk: systems).

/** Identifier of a partner system: also the `{system}` of the webhook path. */
export const SYSTEM_IDENTIFIER = /^[a-z0-9_-]{1,40}$/;

/** The body of PUT systems/{identifier}; fields not given keep their default. */
export const systemInput = z.strictObject({
  name: displayName,
  active: z.boolean().default(true),
  scopes: z
    .array(z.enum(SCOPES))
    .default(['help-desk-ticket.create'])
    .transform((scopes) => [...new Set(scopes)]),
  rate_limit_per_minute: z.number().int().min(1).max(1_000_000).default(120),
  key_grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(365 * 86400)
    .default(86400),
  default_category_id: catalogId.nullable(),
  released_category_ids: z
    .array(catalogId)
    .max(1000)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});

export type SystemInput = z.infer<typeof systemInput>;

/** The path of a system's routes. */
export const systemPath = z.strictObject({
  identifier: z.string().regex(SYSTEM_IDENTIFIER, 'must match ^[a-z0-9_-]{1,40}$ (the webhook path)'),
});
