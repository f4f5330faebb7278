import { z } from 'zod';

// The bodies the ticket API answers with (helpdesk-ticket-api.md, Ticket options and Ticket response),
// as schemas: the route table names them, the tests hold every answer to them, and the OpenAPI document
// is generated from them.

const description = z.string().nullable();

/** 200 of the options route: only what the system may choose, sorted as the document says. */
export const ticketOptionsBody = z.strictObject({
  companies: z.array(z.strictObject({ id: z.string(), name: z.string() })),
  categories: z.array(
    z.strictObject({
      id: z.number().int(),
      name: z.string(),
      description,
      default: z.boolean(),
      default_priority_id: z.number().int().nullable(),
      type: z.strictObject({ id: z.number().int(), name: z.string(), description }),
    }),
  ),
  priorities: z.array(
    z.strictObject({
      id: z.number().int(),
      name: z.string(),
      description,
      level: z.number().int(),
      response_time_hours: z.number().int(),
    }),
  ),
  support_levels: z.array(z.strictObject({ id: z.number().int(), name: z.string(), description })),
  natures: z.array(z.strictObject({ identifier: z.string(), name: z.string() })),
});

/** A warning of the ticket response: a known code (open text: clients must accept new ones). */
export const ticketWarning = z.strictObject({
  code: z.string(),
  message: z.string(),
  fields: z.array(z.string()).optional(),
});

/** 201 for a new ticket, 200 with `duplicate: true` for an `external_id` the system sent before. */
export const ticketResponseBody = z.strictObject({
  ticket: z.string().regex(/^I-\d{6,}$/),
  id: z.string(),
  duplicate: z.boolean(),
  warnings: z.array(ticketWarning),
  applied: z.strictObject({
    category_id: z.number().int().nullable(),
    priority_id: z.number().int().nullable(),
    support_level: z.number().int(),
    nature: z.string().nullable(),
    company: z.string(),
  }),
});
