import type { Db } from '../db/database.js';
import type { HdTicketRow, NewHdTicket } from '../db/schema.js';

/** A stored ticket. */
export interface Ticket {
  /** Ticket number in the help desk, `I-000042`. */
  number: string;
  id: string;
  systemId: string;
  externalId: string;
  source: 'api' | 'webhook';
  companyId: string;
  description: string;
  categoryId: number | null;
  priorityId: number | null;
  supportLevel: number;
  nature: string | null;
  cnpj: string | null;
  requesterName: string | null;
  requesterContact: string | null;
  createdAt: number;
}

/** `I-` followed by the sequence, at least 6 digits (docs/ticket-api.md, Settled details). */
function ticketNumber(seq: number): string {
  return `I-${String(seq).padStart(6, '0')}`;
}

function toTicket(row: HdTicketRow): Ticket {
  return {
    number: ticketNumber(row.seq),
    id: row.id,
    systemId: row.system_id,
    externalId: row.external_id,
    source: row.source === 'webhook' ? 'webhook' : 'api',
    companyId: row.company_id,
    description: row.description,
    categoryId: row.category_id,
    priorityId: row.priority_id,
    supportLevel: row.support_level,
    nature: row.nature,
    cnpj: row.cnpj,
    requesterName: row.requester_name,
    requesterContact: row.requester_contact,
    createdAt: row.created_at,
  };
}

/** The ticket a system opened with `externalId`, if any (the never-expiring registry). */
export async function findTicketByExternalId(
  db: Db,
  systemId: string,
  externalId: string,
): Promise<Ticket | undefined> {
  const row = await db
    .selectFrom('hd_tickets')
    .selectAll()
    .where('system_id', '=', systemId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
  return row === undefined ? undefined : toTicket(row);
}

/**
 * Inserts the ticket unless the system already has one with its `external_id`. Returns the new ticket,
 * or undefined when another request got there first: the unique (system, external_id) constraint makes
 * the registry safe under concurrency on both databases.
 */
export async function insertTicketOnce(db: Db, ticket: NewHdTicket): Promise<Ticket | undefined> {
  const row = await db
    .insertInto('hd_tickets')
    .values(ticket)
    .onConflict((oc) => oc.columns(['system_id', 'external_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
  return row === undefined ? undefined : toTicket(row);
}

/** Filters and page position of the back office's ticket listing. */
export interface TicketQuery {
  systemId?: string;
  externalId?: string;
  /** Only tickets with a smaller sequence than this (the cursor). */
  beforeSeq?: number;
  limit: number;
}

/** Tickets, newest first. Returns one page and the sequence to continue from, if there is more. */
export async function listTickets(
  db: Db,
  query: TicketQuery,
): Promise<{ tickets: Ticket[]; nextBeforeSeq: number | null }> {
  let select = db
    .selectFrom('hd_tickets')
    .selectAll()
    .orderBy('seq', 'desc')
    .limit(query.limit + 1);
  if (query.systemId !== undefined) select = select.where('system_id', '=', query.systemId);
  if (query.externalId !== undefined) select = select.where('external_id', '=', query.externalId);
  if (query.beforeSeq !== undefined) select = select.where('seq', '<', query.beforeSeq);
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    tickets: page.map(toTicket),
    nextBeforeSeq: rows.length > query.limit && last !== undefined ? last.seq : null,
  };
}

/** Forgets a deleted category on the tickets that had it (they keep `category_id` null). */
export async function clearTicketCategory(db: Db, categoryId: number): Promise<void> {
  await db
    .updateTable('hd_tickets')
    .set({ category_id: null })
    .where('category_id', '=', categoryId)
    .execute();
}
