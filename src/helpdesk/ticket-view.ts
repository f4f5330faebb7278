import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import type { Ticket } from './ticket-repository.js';

// What the operator and support read of tickets (admin-api.md, Help desk: GET tickets): everything
// stored, cnpj and requester included, newest first, one page at a time.

/** Everything stored of a ticket. */
export const ticketBody = z.strictObject({
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
});

/** 200 of GET tickets: one page, and the cursor of the next one (null on the last page). */
export const ticketPageBody = z.strictObject({
  data: z.array(ticketBody),
  next_cursor: z.string().nullable(),
});

/** Everything stored of a ticket, cnpj and requester included. */
export function ticketView(ticket: Ticket): z.infer<typeof ticketBody> {
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
