import { z } from 'zod';
import type { CatalogTable } from './catalog-service.js';

// What the operator reads of the help-desk catalog (docs/admin-rules.md, Help desk): each table's entries as
// stored, booleans as booleans. The schemas describe the body of PUT (the entry) and GET (an array).

const description = z.string().nullable();
const id = z.number().int();

/** An entry of each catalog table, as PUT answers it and GET lists it. */
export const catalogEntryBodies = {
  hd_companies: z
    .strictObject({ id: z.string(), name: z.string(), active: z.boolean() })
    .meta({ id: 'Company', examples: [{ id: 'acme', name: 'ACME Comércio', active: true }] }),
  hd_category_types: z
    .strictObject({ id, name: z.string(), description })
    .meta({ id: 'CategoryType', examples: [{ id: 1, name: 'Incidente', description: null }] }),
  hd_priorities: z
    .strictObject({
      id,
      name: z.string(),
      description,
      level: z.number().int(),
      response_time_hours: z.number().int(),
    })
    .meta({
      id: 'Priority',
      examples: [{ id: 2, name: 'Média', description: null, level: 2, response_time_hours: 24 }],
    }),
  hd_categories: z
    .strictObject({
      id,
      name: z.string(),
      description,
      type_id: id,
      default_priority_id: id.nullable(),
    })
    .meta({
      id: 'Category',
      examples: [
        { id: 10, name: 'Impressora', description: 'Printers.', type_id: 1, default_priority_id: 2 },
      ],
    }),
  hd_support_levels: z
    .strictObject({ id, name: z.string(), description })
    .meta({ id: 'SupportLevel', examples: [{ id: 1, name: 'N1', description: 'First level.' }] }),
  hd_natures: z
    .strictObject({ identifier: z.string(), name: z.string(), active: z.boolean() })
    .meta({ id: 'Nature', examples: [{ identifier: 'duvida', name: 'Dúvida', active: true }] }),
} as const satisfies Record<CatalogTable, z.ZodType>;
