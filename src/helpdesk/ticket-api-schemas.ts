import { z } from 'zod';
import { TICKET_LIMITS, type TicketWarning } from './ticket-request.js';

// The bodies the ticket API answers with (docs/ticket-api.md, Ticket options and Ticket response),
// as schemas: the route table names them, the tests hold every answer to them, and the OpenAPI document
// is generated from them, with the examples given here. The ticket request is read by hand
// (ticket-request.ts: the order of field problems, the fallbacks); its schema here is what the document
// shows a partner, in the contract's words.

const description = z.string().nullable();

/** 200 of the options route: only what the system may choose, sorted as the document says. */
export const ticketOptionsBody = z
  .strictObject({
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
  })
  .meta({
    id: 'TicketOptions',
    description:
      'The choices available when opening a ticket. `description` fields: string or null, at most 500 characters, plain text written by the operator (treat as data, escape before HTML). Ids change between staging and production: read them from this route, never hard-code. Cache for a few hours; refetch on `category_fallback`, `priority_fallback` or `invalid_nature`.',
    examples: [
      {
        companies: [{ id: 'acme', name: 'ACME Comércio' }],
        categories: [
          {
            id: 10,
            name: 'Impressora',
            description: 'Printers and fiscal printers.',
            default: true,
            default_priority_id: 2,
            type: { id: 1, name: 'Incidente', description: null },
          },
        ],
        priorities: [
          { id: 1, name: 'Alta', description: null, level: 1, response_time_hours: 4 },
          { id: 2, name: 'Média', description: null, level: 2, response_time_hours: 24 },
        ],
        support_levels: [{ id: 1, name: 'N1', description: 'First level.' }],
        natures: [{ identifier: 'duvida', name: 'Dúvida' }],
      },
    ],
  });

/** The known warning codes, in the document's order (a new code of the service must be added here). */
const KNOWN_WARNINGS: Readonly<Record<TicketWarning['code'], true>> = {
  category_fallback: true,
  priority_fallback: true,
  support_level_fallback: true,
  cnpj_ignored: true,
  ignored_fields: true,
  requester_truncated: true,
  description_differs: true,
};

const WARNING_CODES = Object.keys(KNOWN_WARNINGS);

/** A warning of the ticket response: a known code (open text: clients must accept new ones). */
const ticketWarning = z
  .strictObject({
    code: z.string().meta({
      description: `Open text. Known values: ${WARNING_CODES.map((code) => `\`${code}\``).join(', ')}. New codes may appear: log and continue, the ticket was created (or already existed).`,
      'x-known-codes': WARNING_CODES,
    }),
    message: z.string().describe('Human-readable English; may change. Logic must use `code`.'),
    fields: z
      .array(z.string())
      .optional()
      .describe(
        `Only on \`ignored_fields\` (the ignored names in body order, \`requester.<key>\` inside requester, at most ${TICKET_LIMITS.ignoredFieldNames} names of at most ${TICKET_LIMITS.ignoredFieldNameLength} characters) and \`requester_truncated\` (\`requester.name\`, \`requester.contact\`).`,
      ),
  })
  .meta({ id: 'Warning' });

/** 201 for a new ticket, 200 with `duplicate: true` for an `external_id` the system sent before. */
export const ticketResponseBody = z
  .strictObject({
    ticket: z
      .string()
      .regex(/^I-\d{6,}$/)
      .describe('Ticket number in the help desk; starts with `I-`.'),
    id: z.string().describe('Opaque ticket id.'),
    duplicate: z.boolean().describe('true when the `external_id` had been sent before.'),
    warnings: z
      .array(ticketWarning)
      .describe(
        'Empty when nothing was replaced or ignored. On a resubmission the only possible warning is `description_differs`.',
      ),
    // "any may be null and null is not an error" (Ticket response): the server stores a support level
    // and a company on every ticket, but a client must accept null in all five.
    applied: z
      .strictObject({
        category_id: z
          .number()
          .int()
          .nullable()
          .describe(
            'Always present on creation; null only on a resubmission of a ticket that later lost its category.',
          ),
        priority_id: z.number().int().nullable(),
        support_level: z.number().int().nullable(),
        nature: z.string().nullable().describe('`identifier` of the stored nature; null when none.'),
        company: z.string().nullable().describe('Company id stored.'),
      })
      .describe(
        'What was actually stored after defaults; on a resubmission (200), the values of the existing ticket. All five fields are always present; any may be null, and null is not an error (do not resend because of it).',
      ),
  })
  .meta({
    id: 'TicketResponse',
    description: '`cnpj` and `requester` are not echoed. Without `cnpj_ignored`, the cnpj was accepted.',
    examples: [
      {
        ticket: 'I-000042',
        id: '0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f',
        duplicate: false,
        warnings: [
          {
            code: 'ignored_fields',
            message: 'These fields are not part of the ticket request and were ignored.',
            fields: ['store'],
          },
        ],
        applied: { category_id: 10, priority_id: 2, support_level: 1, nature: 'duvida', company: 'acme' },
      },
    ],
  });

/** A field of the ticket request that takes an id of the options route and never rejects the ticket. */
const optionId = (list: string, absent: string, sample: string) =>
  z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe(
      `Id from \`${list}\`; \`${sample}.0\` is accepted as ${sample}. Absent: ${absent}. Unknown, a string or a fraction: that same default plus a warning; never rejects.`,
    );

/**
 * The body of the two ticket POST routes (docs/ticket-api.md, Ticket request), as the document shows
 * it. Fields outside the list are ignored, never rejected (warning `ignored_fields`).
 */
export const ticketRequestBody = z
  .looseObject({
    external_id: z
      .union([z.string().max(TICKET_LIMITS.externalId), z.number().int()])
      .describe(
        `1 to ${TICKET_LIMITS.externalId} characters after cleaning: leading/trailing spaces and invisible or control characters (except ZWNJ and ZWJ) are removed before comparing and counting. Case-sensitive. A JSON integer counts as the same text. Empty: 422 \`missing_external_id\`; over ${TICKET_LIMITS.externalId}: 422 \`field_too_long\` (not truncated); NUL or another JSON type: 422 \`invalid_field\`. The registry of external ids is per system, shared with the webhook route, and does not expire.`,
      ),
    company: z
      .string()
      .describe(
        'Id of one entry of `companies` from the options route. Leading/trailing spaces removed; uppercase equals lowercase. Absent or empty: 422 `missing_company`; not in the list: 422 `invalid_company`; NUL or not a string: 422 `invalid_field`.',
      ),
    description: z
      .string()
      .max(TICKET_LIMITS.description)
      .describe(
        `Plain text, at most ${TICKET_LIMITS.description} characters counted before trimming; line breaks and tabs are kept. Over: 422 \`field_too_long\` (not truncated); empty: 422 \`missing_description\`; NUL or not a string: 422 \`invalid_field\`.`,
      ),
    category: optionId('categories', "the system's default category (warning `category_fallback`)", '3'),
    priority: optionId(
      'priorities',
      'the `default_priority_id` of the stored category (warning `priority_fallback`)',
      '1',
    ),
    support_level: optionId('support_levels', '1 (warning `support_level_fallback`)', '2'),
    nature: z
      .string()
      .nullable()
      .optional()
      .describe(
        'An `identifier` from `natures`; spaces trimmed; uppercase equals lowercase. Absent: the ticket is created without nature. Any other value, an empty string or a non-string: 422 `invalid_nature` (the only choice that rejects a ticket).',
      ),
    cnpj: z
      .union([z.string(), z.number().int()])
      .nullable()
      .optional()
      .describe(
        'Customer tax id, 14 characters, numeric or alphanumeric, as text. Punctuation and a leading label `CNPJ` are ignored; lowercase equals uppercase; the check digit is not verified. Wrong format (including a JSON number that lost its leading zero): ignored with warning `cnpj_ignored`; never rejects.',
      ),
    requester: z
      .looseObject({
        name: z
          .string()
          .nullable()
          .optional()
          .describe(`At most ${TICKET_LIMITS.requesterName} characters; excess text is truncated.`),
        contact: z
          .string()
          .nullable()
          .optional()
          .describe(`At most ${TICKET_LIMITS.requesterContact} characters; excess text is truncated.`),
      })
      .nullable()
      .optional()
      .describe(
        'Who asked. Excess text is truncated, never rejected (warning `requester_truncated`). Spaces and invisible characters (except ZWNJ, ZWJ) removed. NUL: 422 `invalid_field` (`param` `requester.name` or `requester.contact`). A non-text value is ignored without warning; a `requester` that is not an object, and keys other than `name`/`contact`, are reported in `ignored_fields`.',
      ),
  })
  .meta({
    id: 'TicketRequest',
    description:
      "A JSON object. Fields outside the list are ignored, never rejected, and reported in the warning `ignored_fields`. `null` on an optional field equals omitting it; `null` on a required field is refused with that field's `missing_*` code. There is no account or location field; `cnpj` is the only customer identifier.",
    examples: [
      {
        external_id: 'pos-4711',
        company: 'acme',
        description: 'Terminal 3 does not print.',
        category: 10,
        nature: 'duvida',
        cnpj: '12.345.678/0001-95',
        requester: { name: 'Ana', contact: 'ana@example.com' },
      },
    ],
  });

/** The body of the planned lead route: only its minimal shape is checked (docs/ticket-api.md). */
export const leadRequestBody = z
  .looseObject({
    external_id: z
      .union([z.string().max(TICKET_LIMITS.externalId), z.number().int()])
      .describe(
        `Required, at most ${TICKET_LIMITS.externalId} characters, cleaned as the ticket's \`external_id\`.`,
      ),
  })
  .meta({ id: 'LeadRequest', examples: [{ external_id: 'lead-1' }] });
