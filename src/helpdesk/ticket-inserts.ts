import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { NewHdTicket } from '../db/schema.js';
import { insertTicketOnce, type Ticket } from './ticket-repository.js';

// Group commit of new tickets on SQLite. A ticket is acknowledged only once it is durable
// (`synchronous = FULL`: the commit waits for the disk), and one commit per ticket made the disk's
// flush the ceiling of the ticket route: about 1.5% of what a bare Fastify route answers. Tickets that
// arrive while the database is busy are written together, in one transaction with one flush, and each
// is answered only after that commit returned, so nothing acknowledged can be lost.
// PostgreSQL needs none of this: concurrent commits of its pool already share WAL flushes.

interface Pending {
  ticket: NewHdTicket;
  resolve: (ticket: Ticket | undefined) => void;
  reject: (error: unknown) => void;
}

/** Inserts a ticket once per (system, external_id), as `insertTicketOnce`; answers after it is durable. */
export type TicketInserts = (ticket: NewHdTicket) => Promise<Ticket | undefined>;

/** The ticket inserts of a database: batched into shared commits on SQLite, one by one on PostgreSQL. */
export function createTicketInserts(db: Db): TicketInserts {
  if (isPostgres(db)) return (ticket) => insertTicketOnce(db, ticket);
  let queue: Pending[] = [];

  async function commit(batch: Pending[]): Promise<void> {
    try {
      const stored = await db.transaction().execute(async (trx) => {
        const rows: (Ticket | undefined)[] = [];
        for (const pending of batch) rows.push(await insertTicketOnce(trx, pending.ticket));
        return rows;
      });
      batch.forEach((pending, i) => {
        pending.resolve(stored[i]);
      });
    } catch {
      // Nothing of the batch was committed. One ticket's failure must not fail the others: each is
      // tried again alone, and only its own error reaches its caller.
      for (const pending of batch) insertTicketOnce(db, pending.ticket).then(pending.resolve, pending.reject);
    }
  }

  return (ticket) =>
    new Promise((resolve, reject) => {
      queue.push({ ticket, resolve, reject });
      if (queue.length > 1) return;
      // The batch closes after the requests already read from the sockets had their turn.
      setImmediate(() => {
        const batch = queue;
        queue = [];
        void commit(batch);
      });
    });
}
