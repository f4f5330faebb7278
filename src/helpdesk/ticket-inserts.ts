import { sqliteWriterThreadOf, type Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { NewHdTicket } from '../db/schema.js';
import type { SqliteWriterThread } from '../db/sqlite-writer-thread.js';
import {
  externalKeyOf,
  findTicketByExternalId,
  insertOrFindTicketPostgres,
  insertOrFindTicketsPostgres,
  insertTicketOnce,
  openedTicketOf,
  ticketFindOrInsertQueries,
  type Ticket,
} from './ticket-repository.js';

// Opening a ticket once per (system, external_id), answered only once it is durable.
//
// SQLite: group commit. A ticket is acknowledged only once it is durable (`synchronous = FULL`: the
// commit waits for the disk), and one commit per ticket made the disk's flush the ceiling of the ticket
// route: about 1.5% of what a bare Fastify route answers. Tickets that arrive while the database is busy
// are written together, in one transaction with one flush, and each is answered only after that commit
// returned, so nothing acknowledged can be lost. On a file, the writer thread looks each ticket's
// `external_id` up and, nothing stored under it, inserts the ticket, in the same transaction: the event
// loop runs no query of its own for a ticket (a look-up on the reader connection first read its pages
// again every time, since every commit of the writer empties the reader's page cache). A batch of
// resubmissions alone writes nothing, and its commit has nothing to flush.
//
// PostgreSQL: the tickets that arrive while a statement runs go together in the next one, one round
// trip and one commit for all of them: each inserted, or the stored one of its `external_id` found. One
// statement a ticket had the event loop spend a quarter of its time writing to the database's sockets.
//
// Ticket numbers are unique, not consecutive (docs/ticket-api.md, Settled details). On SQLite a
// resubmission takes none: only a ticket whose `external_id` is not stored reaches the insert (with
// `AUTOINCREMENT`, an insert that finds the `external_id` taken still uses up a number). PostgreSQL's
// sequence gives a number to every ticket of a statement, a resubmission's too.

/** What opening a ticket came to: the new ticket, or the stored one of its `external_id`. */
interface OpenedTicket {
  created: boolean;
  ticket: Ticket;
}

/** Opens a ticket once per (system, external_id); answers after the new ticket is durable. */
export type TicketInserts = (ticket: NewHdTicket) => Promise<OpenedTicket>;

/** A ticket waiting for its batch's commit, and how to answer it. */
export interface Pending<T> {
  ticket: NewHdTicket;
  resolve: (answer: T | undefined) => void;
  reject: (error: unknown) => void;
}

/** The stored ticket of the new ticket's `external_id` (after an insert that found it taken). */
async function storedTicket(db: Db, ticket: NewHdTicket): Promise<OpenedTicket> {
  // Another request with the same external_id committed between our look-up and our insert.
  const winner = await findTicketByExternalId(db, ticket.system_id, ticket.external_id);
  if (winner === undefined) throw new Error('ticket registry conflict without a stored ticket');
  return { created: false, ticket: winner };
}

/** The ticket inserts of a database: batched into shared commits on SQLite, one by one on PostgreSQL. */
export function createTicketInserts(db: Db): TicketInserts {
  if (isPostgres(db)) {
    const insertOrFind = groupedOnPostgres(db);
    return async (ticket) => (await insertOrFind(ticket)) ?? storedTicket(db, ticket);
  }
  const thread = sqliteWriterThreadOf(db);
  if (thread !== undefined) {
    const insertOrFind = groupCommitOnThread(db, thread);
    return async (ticket) => (await insertOrFind(ticket)) ?? storedTicket(db, ticket);
  }
  const insert = groupCommit(db);
  return async (ticket) => {
    const existing = await findTicketByExternalId(db, ticket.system_id, ticket.external_id);
    if (existing !== undefined) return { created: false, ticket: existing };
    const created = await insert(ticket);
    return created === undefined ? storedTicket(db, ticket) : { created: true, ticket: created };
  };
}

/**
 * The tickets that arrive while `run` handles a batch, handed to it together as the next batch: one batch
 * at a time, each as large as the arrivals meanwhile. A batch is never split or reordered, and the
 * batches start in the order their tickets arrived. Should `run` fail outright (it answers each ticket
 * itself, errors included), its tickets fail with that error and the next batch starts all the same.
 */
export function oneBatchAtATime<T>(
  run: (batch: readonly Pending<T>[]) => Promise<void>,
): (ticket: NewHdTicket) => Promise<T | undefined> {
  let queue: Pending<T>[] = [];
  let running = false;

  function startBatch(): void {
    if (queue.length === 0 || running) return;
    const batch = queue;
    queue = [];
    running = true;
    run(batch)
      .catch((error: unknown) => {
        // Settling a ticket already answered does nothing: only the unanswered ones get the error.
        for (const pending of batch) pending.reject(error);
      })
      .finally(() => {
        running = false;
        startBatch();
      });
  }

  return (ticket) =>
    new Promise<T | undefined>((resolve, reject) => {
      queue.push({ ticket, resolve, reject });
      startBatch();
    });
}

/**
 * The tickets that arrive in one turn of the event loop (the requests read from the sockets together),
 * handed to `run` together at the turn's end, without waiting for the batches before: where the batches
 * queue, they are taken together (the SQLite writer thread takes every batch posted while it committed
 * into its next commit). Batches are handed over in the order their tickets arrived. Should `run` fail
 * outright (it answers each ticket itself, errors included), its tickets fail with that error.
 */
export function batchesPerTurn<T>(
  run: (batch: readonly Pending<T>[]) => Promise<void>,
): (ticket: NewHdTicket) => Promise<T | undefined> {
  let queue: Pending<T>[] = [];
  return (ticket) =>
    new Promise<T | undefined>((resolve, reject) => {
      queue.push({ ticket, resolve, reject });
      if (queue.length > 1) return;
      setImmediate(() => {
        const batch = queue;
        queue = [];
        run(batch).catch((error: unknown) => {
          for (const pending of batch) pending.reject(error);
        });
      });
    });
}

/**
 * PostgreSQL: the tickets that arrived while the previous statement ran, in one statement (one commit).
 * Tickets of one `external_id` in the same batch: the first is sent, the others get what it came to as
 * a resubmission. A statement the database refuses is tried again one ticket at a time, so that only a
 * ticket's own error reaches its caller.
 */
function groupedOnPostgres(db: Db) {
  async function run(batch: readonly Pending<OpenedTicket>[]): Promise<void> {
    const firsts = new Map<string, Pending<OpenedTicket>>();
    const repeats: [Pending<OpenedTicket>, string][] = [];
    for (const pending of batch) {
      const key = externalKeyOf(pending.ticket.system_id, pending.ticket.external_id);
      if (firsts.has(key)) repeats.push([pending, key]);
      else firsts.set(key, pending);
    }
    let found: Map<string, OpenedTicket>;
    try {
      found = await insertOrFindTicketsPostgres(
        db,
        [...firsts.values()].map((pending) => pending.ticket),
      );
    } catch {
      found = new Map();
      for (const [key, pending] of firsts) {
        await insertOrFindTicketPostgres(db, pending.ticket).then((opened) => {
          if (opened !== undefined) found.set(key, opened);
        }, pending.reject);
      }
    }
    for (const [key, pending] of firsts) pending.resolve(found.get(key));
    for (const [pending, key] of repeats) {
      const first = found.get(key);
      pending.resolve(first === undefined ? undefined : { created: false, ticket: first.ticket });
    }
  }

  // One statement at a time. Two at once (on two pooled connections) made the batches smaller and cost
  // the database a quarter more CPU a ticket, for fewer tickets a second (bench/ticket-ab.ts).
  return oneBatchAtATime(run);
}

/**
 * SQLite file: each ticket looked up by its `external_id` and, nothing stored, inserted, on the writer
 * thread (src/db/sqlite-writer-thread.ts), so the event loop never waits for the disk. The tickets of
 * one turn of the event loop are posted together at its end; the thread takes every batch posted while
 * it committed into its next transaction, one commit and one flush for all of them, and runs them in the
 * order posted, so the order of inserts, and what a resubmission finds, is that of the tickets' arrival.
 * A ticket is answered once its commit returned.
 *
 * Before, at most two batches were in flight, and the next one was posted as soon as one was answered:
 * the first ticket that arrived then went alone, and more than half the commits held one ticket
 * (`npm run bench:ab`, 50 connections).
 */
function groupCommitOnThread(db: Db, thread: SqliteWriterThread) {
  async function run(batch: readonly Pending<OpenedTicket>[]): Promise<void> {
    const queries = batch.map((pending) => ticketFindOrInsertQueries(db, pending.ticket));
    const findText = queries[0]?.find.sql ?? '';
    const insertText = queries[0]?.insert.sql ?? '';
    const runOf = (chosen: typeof queries) =>
      thread.run(
        findText,
        chosen.map((query) => query.find.parameters),
        { sql: insertText, runs: chosen.map((query) => query.insert.parameters) },
      );
    const opened = (row: Record<string, unknown> | null | undefined, ticket: NewHdTicket) =>
      row === null || row === undefined ? undefined : openedTicketOf(row, ticket);
    try {
      const rows = await runOf(queries);
      batch.forEach((pending, i) => {
        pending.resolve(opened(rows[i], pending.ticket));
      });
    } catch {
      // Nothing of the batch was committed: each ticket is tried again alone, so that only a ticket's
      // own error reaches its caller.
      for (const [i, pending] of batch.entries()) {
        await runOf(queries.slice(i, i + 1)).then(([row]) => {
          pending.resolve(opened(row, pending.ticket));
        }, pending.reject);
      }
    }
  }

  return batchesPerTurn(run);
}

/** SQLite in memory: inserts of the tickets of one turn of the event loop, in one transaction. */
function groupCommit(db: Db): (ticket: NewHdTicket) => Promise<Ticket | undefined> {
  async function commit(batch: readonly Pending<Ticket>[]): Promise<void> {
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

  return batchesPerTurn(commit);
}
