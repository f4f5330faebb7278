import { z } from 'zod';
import type { CatalogTable } from './catalog-service.js';

// What the operator reads of the help-desk catalog (admin-api.md, Help desk): each table's entries as
// stored, booleans as booleans. The schemas describe the body of PUT (the entry) and GET (an array).

const description = z.string().nullable();
const id = z.number().int();

/** An entry of each catalog table, as PUT answers it and GET lists it. */
export const catalogEntryBodies = {
  hd_companies: z.strictObject({ id: z.string(), name: z.string(), active: z.boolean() }),
  hd_category_types: z.strictObject({ id, name: z.string(), description }),
  hd_priorities: z.strictObject({
    id,
    name: z.string(),
    description,
    level: z.number().int(),
    response_time_hours: z.number().int(),
  }),
  hd_categories: z.strictObject({
    id,
    name: z.string(),
    description,
    type_id: id,
    default_priority_id: id.nullable(),
  }),
  hd_support_levels: z.strictObject({ id, name: z.string(), description }),
  hd_natures: z.strictObject({ identifier: z.string(), name: z.string(), active: z.boolean() }),
} as const satisfies Record<CatalogTable, z.ZodType>;
