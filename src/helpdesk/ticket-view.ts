import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import type { Ticket } from './ticket-repository.js';

// What the operator and support read of tickets (docs/admin-rules.md, Help desk: GET tickets): everything
// stored, cnpj and requester included, newest first, one page at a time.

/** An example for the document (OpenAPI). */
const ticketExample = {
  ticket: 'I-000042',
  id: '0197a3c2-6b1e-7c4d-9f00-3a1b2c3d4e5f',
  system: 'demo',
  external_id: 'pos-4711',
  source: 'api',
  company: 'acme',
  description: 'Terminal 3 does not print.',
  category_id: 10,
  priority_id: 2,
  support_level: 1,
  nature: 'duvida',
  cnpj: '12345678000195',
  requester: { name: 'Ana', contact: 'ana@example.com' },
  created_at: '2026-11-20T12:00:00Z',
};

/** Everything stored of a ticket. */
const ticketBody = z
  .strictObject({
    /** The help desk's ticket number, `I-000042`. */
    ticket: z.string(),
    id: z.string(),
    system: z.string(),
    external_id: z.string(),
    source: z.enum(['api', 'webhook']),
    company: z.string(),
    description: z.string(),
    category_id: z.number().int().nullable(),
    priority_id: z.number().int().nullable(),
    support_level: z.number().int(),
    nature: z.string().nullable(),
    cnpj: z.string().nullable(),
    requester: z.strictObject({ name: z.string().nullable(), contact: z.string().nullable() }),
    created_at: wireTimeText,
  })
  .meta({ id: 'StoredTicket', examples: [ticketExample] });

/** 200 of GET tickets: one page, and the cursor of the next one (null on the last page). */
export const ticketPageBody = z
  .strictObject({
    data: z.array(ticketBody),
    next_cursor: z.string().nullable(),
  })
  .meta({ id: 'TicketPage', examples: [{ data: [ticketExample], next_cursor: '41' }] });

/** Everything stored of a ticket, cnpj and requester included. */
function ticketView(ticket: Ticket): z.infer<typeof ticketBody> {
  return {
    ticket: ticket.number,
    id: ticket.id,
    system: ticket.systemId,
    external_id: ticket.externalId,
    source: ticket.source,
    company: ticket.companyId,
    description: ticket.description,
    category_id: ticket.categoryId,
    priority_id: ticket.priorityId,
    support_level: ticket.supportLevel,
    nature: ticket.nature,
    cnpj: ticket.cnpj,
    requester: { name: ticket.requesterName, contact: ticket.requesterContact },
    created_at: wireTime(ticket.createdAt),
  };
}

/** A page of tickets; the cursor is the sequence to continue before. */
export function ticketPageView(page: {
  tickets: readonly Ticket[];
  nextBeforeSeq: number | null;
}): z.infer<typeof ticketPageBody> {
  return {
    data: page.tickets.map(ticketView),
    next_cursor: page.nextBeforeSeq === null ? null : String(page.nextBeforeSeq),
  };
}
