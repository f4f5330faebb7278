import { z } from 'zod';
import { displayName, storedText } from '../lib/input-text.js';

// What the operator sends to write the help-desk catalog (docs/admin-rules.md, Help desk): the body of each
// catalog PUT and the shape of the ids in its path. Bad input is refused before anything is written.

/** Identifier of a company or a nature (the ticket's `company` and `nature`). */
const CATALOG_IDENTIFIER = /^[A-Za-z0-9_.-]{1,64}$/;
/** Option descriptions are at most 500 characters (docs/ticket-api.md, Limits). */
const DESCRIPTION_MAX = 500;

const name = displayName;
const description = storedText(DESCRIPTION_MAX).nullable().default(null);
/** An id of an integer-keyed catalog entry, as a body field. */
export const catalogId = z.number().int().min(1).max(2_147_483_647);

export const companyInput = z.strictObject({ name, active: z.boolean().default(true) });
export const categoryTypeInput = z.strictObject({ name, description });
export const priorityInput = z.strictObject({
  name,
  description,
  level: catalogId,
  response_time_hours: z.number().int().min(0).max(100_000),
});
export const categoryInput = z.strictObject({
  name,
  description,
  type_id: catalogId,
  default_priority_id: catalogId.nullable().default(null),
});
export const supportLevelInput = z.strictObject({ name, description });
export const natureInput = z.strictObject({ name, active: z.boolean().default(true) });

/** The path of an integer-keyed entry (category types, priorities, categories, support levels). */
export const integerIdPath = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
    .transform(Number)
    // Ids live in 32-bit integer columns: a larger one must be refused here, not fail in PostgreSQL.
    .refine((id) => id <= 2_147_483_647, 'must be at most 2147483647'),
});

/** The path of a text-keyed entry (companies, natures). */
export const textIdPath = z.strictObject({
  id: z.string().regex(CATALOG_IDENTIFIER, 'must be 1 to 64 letters, digits, ".", "_" or "-"'),
});
