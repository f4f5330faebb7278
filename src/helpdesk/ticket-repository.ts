import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nameStatementText, prepareQuery } from '../db/prepared-query.js';
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

/** The values of a look-up by `external_id`. */
interface ExternalIdValues {
  systemId: string;
  externalId: string;
}

/** The ticket row of a system's `external_id`: a hot query, compiled once (src/db/prepared-query.ts). */
const ticketByExternalId = prepareQuery('hd_ticket_by_external_id', (db: Db, v: ExternalIdValues) =>
  db
    .selectFrom('hd_tickets')
    .selectAll()
    .where('system_id', '=', v.systemId)
    .where('external_id', '=', v.externalId),
);

/** The ticket a system opened with `externalId`, if any (the never-expiring registry). */
export async function findTicketByExternalId(
  db: Db,
  systemId: string,
  externalId: string,
): Promise<Ticket | undefined> {
  const [row] = await ticketByExternalId.rows(db, { systemId, externalId });
  return row === undefined ? undefined : toTicket(row);
}

/** The columns of a new ticket, in the order the prepared inserts bind them. */
const NEW_TICKET_COLUMNS = [
  'id',
  'system_id',
  'external_id',
  'source',
  'company_id',
  'description',
  'category_id',
  'priority_id',
  'support_level',
  'nature',
  'cnpj',
  'requester_name',
  'requester_contact',
  'created_at',
] as const satisfies readonly (keyof NewHdTicket)[];

/** A new ticket's values, every column given (null where the ticket has none). */
type NewTicketValues = Required<Omit<NewHdTicket, 'seq'>>;

/** The insert of a new ticket with every column from `v`, skipped when its `external_id` is taken. */
function insertNewTicket(db: Db, v: NewTicketValues) {
  const values = Object.fromEntries(NEW_TICKET_COLUMNS.map((column) => [column, v[column]]));
  return db
    .insertInto('hd_tickets')
    .values(values as NewTicketValues)
    .onConflict((oc) => oc.columns(['system_id', 'external_id']).doNothing());
}

/** Every column given: the prepared statements bind the same columns on every call. */
function allColumns(ticket: NewHdTicket): NewTicketValues {
  return {
    ...ticket,
    category_id: ticket.category_id ?? null,
    priority_id: ticket.priority_id ?? null,
    nature: ticket.nature ?? null,
    cnpj: ticket.cnpj ?? null,
    requester_name: ticket.requester_name ?? null,
    requester_contact: ticket.requester_contact ?? null,
  };
}

const insertTicketReturning = prepareQuery('hd_ticket_insert', (db: Db, v: NewTicketValues) =>
  insertNewTicket(db, v).returningAll(),
);

/**
 * Inserts the ticket unless the system already has one with its `external_id`. Returns the new ticket,
 * or undefined when another request got there first: the unique (system, external_id) constraint makes
 * the registry safe under concurrency on both databases.
 */
export async function insertTicketOnce(db: Db, ticket: NewHdTicket): Promise<Ticket | undefined> {
  const [row] = await insertTicketReturning.rows(db, allColumns(ticket));
  return row === undefined ? undefined : toTicket(row);
}

/**
 * SQLite's writer thread: the insert of a new ticket, answering its `seq` marked `created` (the rest of
 * the row is what was sent, and does not travel back between the threads).
 */
const insertTicketCreated = prepareQuery('hd_ticket_insert_created', (db: Db, v: NewTicketValues) =>
  insertNewTicket(db, v).returning(['seq', sql<number>`1`.as('created')]),
);

/** SQLite's writer thread: the stored ticket of an `external_id`, its row marked not `created`. */
const storedTicketNotCreated = prepareQuery('hd_ticket_stored', (db: Db, v: ExternalIdValues) =>
  db
    .selectFrom('hd_tickets')
    .selectAll()
    .select(sql<number>`0`.as('created'))
    .where('system_id', '=', v.systemId)
    .where('external_id', '=', v.externalId),
);

/**
 * The two statements of a ticket on SQLite's writer thread (src/db/sqlite-writer-thread.ts): the look-up
 * of its `external_id` and, run in the same write transaction when nothing is stored under it, its
 * insert. The look-up goes first so that a resubmission takes no ticket number: with `AUTOINCREMENT`,
 * an insert that finds the `external_id` taken still uses up the next `seq`. Either row reads with
 * `openedTicketOf`.
 */
export function ticketFindOrInsertQueries(
  db: Db,
  ticket: NewHdTicket,
): { find: CompiledQuery; insert: CompiledQuery } {
  return {
    find: storedTicketNotCreated.bind(db, { systemId: ticket.system_id, externalId: ticket.external_id }),
    insert: insertTicketCreated.bind(db, allColumns(ticket)),
  };
}

/**
 * A row of `ticketFindOrInsertQueries` for `ticket`: the new ticket (its values and the `seq` it was
 * given), or the stored one of its `external_id`.
 */
export function openedTicketOf(
  row: Record<string, unknown>,
  ticket: NewHdTicket,
): { created: boolean; ticket: Ticket } {
  if (row.created === 1) {
    return { created: true, ticket: toTicket({ ...allColumns(ticket), seq: row.seq as number }) };
  }
  return { created: false, ticket: toTicket(row as unknown as HdTicketRow) };
}

/**
 * PostgreSQL, one round trip: the insert of a new ticket and, when its `external_id` was taken, the
 * stored ticket, as one statement (`created` says which). The stored ticket is read in the statement's
 * snapshot: one committed by a concurrent insert after that snapshot is not in it, and the statement
 * then returns no row at all (the caller reads it on its own).
 */
const insertOrFindTicket = prepareQuery('hd_ticket_insert_or_find', (db: Db, v: NewTicketValues) =>
  db
    .with('inserted', () => insertNewTicket(db, v).returningAll())
    .selectFrom('inserted')
    .selectAll()
    .select(sql<boolean>`true`.as('created'))
    .unionAll(
      db
        .selectFrom('hd_tickets')
        .selectAll()
        .select(sql<boolean>`false`.as('created'))
        .where('system_id', '=', v.system_id)
        .where('external_id', '=', v.external_id)
        .where(sql<boolean>`not exists (select 1 from ${sql.table('inserted')})`),
    ),
);

/** What inserting a ticket came to: the new ticket, the stored one of its `external_id`, or unknown. */
export type InsertOrFind = { created: boolean; ticket: Ticket } | undefined;

/** PostgreSQL: inserts the ticket or finds the stored one of its `external_id`, in one round trip. */
export async function insertOrFindTicketPostgres(db: Db, ticket: NewHdTicket): Promise<InsertOrFind> {
  const [row] = await insertOrFindTicket.rows(db, allColumns(ticket));
  return row === undefined ? undefined : { created: row.created, ticket: toTicket(row) };
}

/** The element type of each column of new tickets sent as arrays (PostgreSQL). */
const NEW_TICKET_ARRAY_TYPES: Record<(typeof NEW_TICKET_COLUMNS)[number], string> = {
  id: 'text',
  system_id: 'text',
  external_id: 'text',
  source: 'text',
  company_id: 'text',
  description: 'text',
  category_id: 'int4',
  priority_id: 'int4',
  support_level: 'int4',
  nature: 'text',
  cnpj: 'text',
  requester_name: 'text',
  requester_contact: 'text',
  created_at: 'int8',
};

/**
 * PostgreSQL, several tickets in one statement (one array parameter a column, their `external_id`s all
 * different): each inserted in the order given, or, its `external_id` taken, the stored ticket found.
 * As `insertOrFindTicket`, a ticket committed by a concurrent statement after this one's snapshot is in
 * neither part: no row comes back for it.
 *
 * A new ticket comes back as its `seq` alone (the rest is what was sent), a stored one as its row in one
 * JSON text (`stored`): four columns a row instead of the table's fifteen. `pg` builds each row's object
 * from all its columns: the full rows of a batch cost some 5% of the event loop's time a ticket.
 */
const INSERT_OR_FIND_TICKETS = (() => {
  const columns = NEW_TICKET_COLUMNS.join(', ');
  const arrays = NEW_TICKET_COLUMNS.map((column, i) => `$${i + 1}::${NEW_TICKET_ARRAY_TYPES[column]}[]`);
  return (
    `with input as (select * from unnest(${arrays.join(', ')}) with ordinality as i(${columns}, ord)), ` +
    `inserted as (insert into hd_tickets (${columns}) select ${columns} from input order by ord ` +
    'on conflict (system_id, external_id) do nothing returning seq, system_id, external_id) ' +
    'select system_id, external_id, seq, null::text as stored from inserted union all ' +
    'select i.system_id, i.external_id, null::int8, row_to_json(t)::text from input i join hd_tickets t ' +
    'on t.system_id = i.system_id and t.external_id = i.external_id ' +
    'where not exists (select 1 from inserted x where x.system_id = i.system_id and x.external_id = i.external_id)'
  );
})();

// A named statement: each pooled PostgreSQL connection parses and plans its text once, not every batch.
nameStatementText('hd_tickets_insert_or_find_many', INSERT_OR_FIND_TICKETS);

/** A row of `INSERT_OR_FIND_TICKETS`: a new ticket's `seq`, or the stored ticket's row as JSON. */
interface InsertedOrStored {
  system_id: string;
  external_id: string;
  seq: number | null;
  stored: string | null;
}

/** Where a ticket's row is among the rows of a batch: its system and `external_id`. */
export const externalKeyOf = (systemId: string, externalId: string) => `${systemId}\u0000${externalId}`;

/**
 * PostgreSQL, one round trip and one commit for several tickets whose `external_id`s all differ: what
 * each came to, by `externalKeyOf`; a ticket missing from the map is one a concurrent statement committed
 * meanwhile (the caller reads it on its own).
 */
export async function insertOrFindTicketsPostgres(
  db: Db,
  tickets: readonly NewHdTicket[],
): Promise<Map<string, { created: boolean; ticket: Ticket }>> {
  const rows = tickets.map(allColumns);
  const parameters = NEW_TICKET_COLUMNS.map((column) => rows.map((row) => row[column]));
  const { rows: found } = await db.executeQuery<InsertedOrStored>(
    CompiledQuery.raw(INSERT_OR_FIND_TICKETS, parameters),
  );
  const sent = new Map(rows.map((row) => [externalKeyOf(row.system_id, row.external_id), row]));
  const opened = new Map<string, { created: boolean; ticket: Ticket }>();
  for (const row of found) {
    const key = externalKeyOf(row.system_id, row.external_id);
    const values = sent.get(key);
    if (row.stored !== null) {
      opened.set(key, { created: false, ticket: toTicket(JSON.parse(row.stored) as HdTicketRow) });
    } else if (values !== undefined && row.seq !== null) {
      opened.set(key, { created: true, ticket: toTicket({ ...values, seq: row.seq }) });
    }
  }
  return opened;
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
