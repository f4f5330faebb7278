import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

// The thread behind sqlite-writer-thread.ts: its own write connection to the SQLite file, which runs
// batches of one statement in transactions whose commit (and flush to disk, `synchronous = FULL`) happens
// here, off the main thread's event loop. The batches posted while a transaction ran wait in the port,
// and the next transaction takes all of them: one commit and one flush for everything that arrived
// meanwhile (group commit). It only runs what the main thread sends: the SQL text is Kysely's, compiled
// there. This file is loaded as the thread's entry point, so it imports nothing of the service's own
// modules.

/**
 * One batch: a statement run `runs` times, the parameters of all its runs one after another in one array
 * (as many a run). A statement is named by a number; its text comes once, in `define`, with the first
 * batch that uses it, and the thread prepares it then.
 */
export interface WriterBatch {
  id: number;
  /** Statements this thread has not seen yet: their numbers and texts. */
  define?: [number, string][];
  statement: number;
  runs: number;
  parameters: unknown[];
  /**
   * A statement run, in the same transaction, for each run of `statement` that returned no row, with
   * the parameters of the same index (a look-up of a stored row that found none, then the insert).
   */
  otherwise?: { statement: number; parameters: unknown[] };
}

/** A batch's answer: each run's first row (or null when it returned none), or why it failed. */
export type WriterAnswer =
  | { id: number; ok: true; rows: (Record<string, unknown> | null)[] }
  | { id: number; ok: false; message: string; code: string | null };

/** The answers of the batches the thread took together, posted once they are all settled. */
export interface WriterAnswers {
  answers: WriterAnswer[];
  /** The transactions committed for them: one, or one a batch stored after a failure. */
  commits: number;
}

const port = parentPort;
if (port === null) throw new Error('sqlite-writer-worker runs as a worker thread');
const { path } = workerData as { path: string };

const database = new SQLite(path);
// As the main connection (database.ts): the file is already in WAL mode.
database.pragma('synchronous = FULL');
// Waiting for the lock here holds only this thread, never the event loop (unlike the main connection's
// 5 s): a ticket that arrives while the main writer holds the file (a receipts upload's last step, which
// keeps its transaction open between its pages) waits for it, as it did on the one connection before,
// rather than failing after 5 s.
database.pragma('busy_timeout = 60000');
database.pragma('foreign_keys = ON');

/** The texts of the statements defined, and those prepared (a text SQLite refuses is never prepared). */
const texts = new Map<number, string>();
const statements = new Map<number, SQLite.Statement>();

function statementOf(id: number): SQLite.Statement {
  let statement = statements.get(id);
  if (statement === undefined) {
    const text = texts.get(id);
    if (text === undefined) throw new Error(`statement ${id} was never defined`);
    statement = database.prepare(text);
    statements.set(id, statement);
  }
  return statement;
}

/** The statement's first row with these parameters (null: none, or a statement that returns none). */
function firstRow(statement: SQLite.Statement, parameters: unknown[]): Record<string, unknown> | null {
  if (!statement.reader) {
    statement.run(...parameters);
    return null;
  }
  return (statement.get(...parameters) as Record<string, unknown> | undefined) ?? null;
}

/** The parameters of run `i` of `runs`, from all of them one after another. */
function runParameters(parameters: unknown[], runs: number, i: number): unknown[] {
  const width = parameters.length / runs;
  return parameters.slice(i * width, (i + 1) * width);
}

/** A batch's runs, in the transaction open: each run's first row. */
function runsOf(batch: WriterBatch): (Record<string, unknown> | null)[] {
  for (const [id, sql] of batch.define ?? []) texts.set(id, sql);
  const statement = statementOf(batch.statement);
  const { otherwise, runs } = batch;
  const fallback = otherwise === undefined ? undefined : statementOf(otherwise.statement);
  const rows: (Record<string, unknown> | null)[] = [];
  for (let i = 0; i < runs; i++) {
    let row = firstRow(statement, runParameters(batch.parameters, runs, i));
    if (row === null && otherwise !== undefined && fallback !== undefined)
      row = firstRow(fallback, runParameters(otherwise.parameters, runs, i));
    rows.push(row);
  }
  return rows;
}

/** `work` in one transaction that takes the write lock at its start (no upgrade from a read). */
function inTransaction<T>(work: () => T): T {
  return database.transaction(work).immediate();
}

/** A batch in a transaction of its own: its rows, or why it failed (nothing of it stored). */
function answerOf(batch: WriterBatch): WriterAnswer {
  try {
    return { id: batch.id, ok: true, rows: inTransaction(() => runsOf(batch)) };
  } catch (error) {
    return {
      id: batch.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      code: error instanceof SQLite.SqliteError ? error.code : null,
    };
  }
}

/**
 * The batches in one transaction, in the order they were posted, and their answers. Should one of them
 * fail, nothing of any is stored, and each runs again in a transaction of its own, so that only the batch
 * at fault gets the error.
 */
function answersOf(batches: readonly WriterBatch[]): WriterAnswers {
  if (batches.length > 1) {
    try {
      const rows = inTransaction(() => batches.map(runsOf));
      return {
        answers: batches.map((batch, i) => ({ id: batch.id, ok: true, rows: rows[i] ?? [] })),
        commits: 1,
      };
    } catch {
      // Rolled back: the batches are answered one by one below.
    }
  }
  const answers = batches.map(answerOf);
  return { answers, commits: answers.filter((answer) => answer.ok).length };
}

port.on('message', (first: WriterBatch) => {
  const batches = [first];
  for (let next = receiveMessageOnPort(port); next !== undefined; next = receiveMessageOnPort(port))
    batches.push(next.message as WriterBatch);
  port.postMessage(answersOf(batches));
});

port.on('close', () => {
  database.close();
});
