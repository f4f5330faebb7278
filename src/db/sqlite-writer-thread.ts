import { Worker } from 'node:worker_threads';
import type { WriterAnswer, WriterAnswers, WriterBatch } from './sqlite-writer-worker.js';

// A write connection to a SQLite file in a worker thread of its own (sqlite-writer-worker.ts). With
// `synchronous = FULL` every commit waits for the disk's flush (a few milliseconds), and better-sqlite3
// waits synchronously: on the main thread that flush held the event loop, every request of the process
// waiting behind it. A batch sent here is committed in the thread while the event loop goes on, and its
// promise settles only once the commit (and its flush) returned, so what a caller acknowledges after it
// is as durable as before. The batches posted while the thread commits are taken together by its next
// transaction: one commit, and one flush, for all of them.
//
// It is a second writer beside the main one (database.ts); SQLite's lock keeps them one at a time: the
// thread takes the lock at its transaction's start and waits for it (busy_timeout), and the main
// writer's transactions take it at theirs too (sqlite-read-routing.ts), so neither ever has to upgrade a
// read to a write after the other committed (SQLITE_BUSY_SNAPSHOT).

/** A statement run in batches on the writer thread. */
export interface SqliteWriterThread {
  /**
   * Runs `sql` once per parameter list, all in one transaction; each run's first row, or null. Given
   * `otherwise`, a run that returned no row runs that statement with the parameters of its index, in the
   * same transaction, and answers its first row. The lists of one statement have as many parameters
   * each, and `otherwise` has one for each run.
   */
  run(
    sql: string,
    runs: readonly (readonly unknown[])[],
    otherwise?: { sql: string; runs: readonly (readonly unknown[])[] },
  ): Promise<(Record<string, unknown> | null)[]>;
  /** Ends the thread (after the batches sent are answered) and closes its connection. */
  close(): Promise<void>;
  /** The transactions the thread committed so far: fewer than the batches when it took several at once. */
  readonly commits: number;
}

/** An error the writer thread's connection reported, with SQLite's code. */
class SqliteWriterError extends Error {
  constructor(
    message: string,
    readonly code: string | null,
  ) {
    super(message);
  }
}

/** The worker's entry point beside this module: the `.ts` source under tsx or the tests, `.js` built. */
function workerUrl(): URL {
  const extension = import.meta.url.endsWith('.ts') ? 'ts' : 'js';
  return new URL(`./sqlite-writer-worker.${extension}`, import.meta.url);
}

/**
 * The parameters of all runs in one list. Built by pushing: `Array.prototype.flat` makes a holey array,
 * which the structured clone writes element by element with its index (a third more bytes, and slower
 * both ways).
 */
function oneList(runs: readonly (readonly unknown[])[]): unknown[] {
  const all: unknown[] = [];
  for (const run of runs) for (const parameter of run) all.push(parameter);
  return all;
}

/** A writer thread on the SQLite file at `path`, started on its first batch. */
export function createSqliteWriterThread(path: string): SqliteWriterThread {
  let worker: Worker | undefined;
  let nextId = 1;
  let commits = 0;
  // The statements the running thread was sent, by text: each text crosses once, then its number does
  // (a batch of tickets carried both texts, some 700 bytes, every time).
  let statementNumbers = new Map<string, number>();
  const waiting = new Map<
    number,
    { resolve: (rows: WriterAnswer & { ok: true }) => void; reject: (error: Error) => void }
  >();

  function failAll(error: Error): void {
    for (const pending of waiting.values()) pending.reject(error);
    waiting.clear();
    worker = undefined;
  }

  function started(): Worker {
    if (worker !== undefined) return worker;
    // The thread's own modules are plain ESM; it needs none of the parent's loaders or flags.
    const thread = new Worker(workerUrl(), { workerData: { path }, execArgv: [] });
    statementNumbers = new Map();
    thread.on('message', ({ answers, commits: committed }: WriterAnswers) => {
      commits += committed;
      for (const answer of answers) {
        const pending = waiting.get(answer.id);
        if (pending === undefined) continue;
        waiting.delete(answer.id);
        if (answer.ok) pending.resolve(answer);
        else pending.reject(new SqliteWriterError(answer.message, answer.code));
      }
    });
    thread.on('error', (error) => {
      failAll(error);
    });
    thread.on('exit', (code) => {
      if (worker === thread) failAll(new Error(`the SQLite writer thread ended (${code})`));
    });
    // An idle thread does not keep the process alive; one with batches in flight does.
    thread.unref();
    worker = thread;
    return thread;
  }

  return {
    get commits() {
      return commits;
    },
    run(sql, runs, otherwise) {
      // Sent as one list a statement, the runs must have as many parameters each to be cut apart again
      // (and `otherwise` a list for each run).
      const uneven = (all: readonly (readonly unknown[])[]) =>
        all.some((run) => run.length !== all[0]?.length);
      if (
        uneven(runs) ||
        (otherwise !== undefined && (uneven(otherwise.runs) || otherwise.runs.length !== runs.length))
      )
        return Promise.reject(
          new Error(
            'every run of a statement needs as many parameters as the first, and `otherwise` a list a run',
          ),
        );
      const thread = started();
      const define: [number, string][] = [];
      const numberOf = (text: string) => {
        let number = statementNumbers.get(text);
        if (number === undefined) {
          number = statementNumbers.size + 1;
          statementNumbers.set(text, number);
          define.push([number, text]);
        }
        return number;
      };
      const batch: WriterBatch = {
        id: nextId++,
        statement: numberOf(sql),
        runs: runs.length,
        parameters: oneList(runs),
        ...(otherwise === undefined
          ? {}
          : { otherwise: { statement: numberOf(otherwise.sql), parameters: oneList(otherwise.runs) } }),
      };
      if (define.length > 0) batch.define = define;
      const { id } = batch;
      return new Promise<(Record<string, unknown> | null)[]>((resolve, reject) => {
        waiting.set(id, {
          resolve: (answer) => {
            resolve(answer.rows);
          },
          reject,
        });
        thread.ref();
        thread.postMessage(batch);
      }).finally(() => {
        if (waiting.size === 0) worker?.unref();
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      if (thread === undefined) return;
      // Batches already posted are answered first: the thread handles its messages in order.
      await Promise.allSettled(
        [...waiting.values()].map(
          (pending) =>
            new Promise<void>((settled) => {
              const { resolve, reject } = pending;
              pending.resolve = (answer) => {
                resolve(answer);
                settled();
              };
              pending.reject = (error) => {
                reject(error);
                settled();
              };
            }),
        ),
      );
      await thread.terminate();
    },
  };
}
