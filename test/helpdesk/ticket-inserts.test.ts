import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteWriterThreadOf, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { SqliteWriterThread } from '../../src/db/sqlite-writer-thread.js';
import type { Database, NewHdTicket } from '../../src/db/schema.js';
import { withStatementCache } from '../../src/db/statement-cache.js';
import {
  batchesPerTurn,
  createTicketInserts,
  oneBatchAtATime,
  type Pending,
} from '../../src/helpdesk/ticket-inserts.js';
import { describeEachDialect, useDialectDb, type Dialect } from '../helper.js';
import { nextTurn } from '../support/timing.js';

// Group commit on SQLite (src/helpdesk/ticket-inserts.ts): tickets that arrive together share one
// durable commit, each is answered only after it, and a ticket the database refuses fails alone.

/** A SQLite database that counts its commits. */
async function countingDb(): Promise<{ db: Db; commits: () => number }> {
  const cached = withStatementCache(new SQLite(':memory:'));
  let commits = 0;
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({
      database: {
        close: () => {
          cached.close();
        },
        prepare(text: string) {
          if (text === 'commit') commits += 1;
          return cached.prepare(text);
        },
      },
    }),
  });
  await migrateToLatest(db);
  return { db, commits: () => commits };
}

const ticket = (n: number, id = `t-${n}`): NewHdTicket => ({
  id,
  system_id: 'alpha',
  external_id: `ext-${n}`,
  source: 'api',
  company_id: 'acme',
  description: `Ticket ${n}.`,
  category_id: 10,
  priority_id: null,
  support_level: 1,
  nature: null,
  cnpj: null,
  requester_name: null,
  requester_contact: null,
  created_at: 1_000 + n,
});

/**
 * Ticket `n` stored, then `n + 1` to `n + 3` sent together, the second with the first's id: the database
 * refuses it (the unique id), and only it fails; the others are stored.
 */
async function expectRefusedTicketFailsAlone(db: Db, n: number): Promise<void> {
  const open = createTicketInserts(db);
  await open(ticket(n));
  const outcomes = await Promise.allSettled([
    open(ticket(n + 1)),
    open(ticket(n + 2, `t-${n + 1}`)),
    open(ticket(n + 3)),
  ]);
  expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  const rows = await db.selectFrom('hd_tickets').select('external_id').orderBy('seq').execute();
  expect(rows.map((r) => r.external_id)).toEqual([`ext-${n}`, `ext-${n + 1}`, `ext-${n + 3}`]);
}

/** A batch handed to `run`, answered when the test says so. */
interface HeldBatch {
  externalIds: string[];
  pendings: readonly Pending<string>[];
  finish: () => void;
  fail: (error: Error) => void;
}

type Run = (batch: readonly Pending<string>[]) => Promise<void>;

/** A batcher (`oneBatchAtATime`, `batchesPerTurn`) over a `run` that holds each batch until the test finishes or fails it. */
function heldBatches(batcher: (run: Run) => (ticket: NewHdTicket) => Promise<string | undefined>) {
  const batches: HeldBatch[] = [];
  let running = 0;
  let mostRunning = 0;
  const open = batcher(
    (batch) =>
      new Promise<void>((resolve, reject) => {
        running += 1;
        mostRunning = Math.max(mostRunning, running);
        const ended = () => {
          running -= 1;
        };
        batches.push({
          externalIds: batch.map((pending) => pending.ticket.external_id),
          pendings: batch,
          finish: () => {
            for (const pending of batch) pending.resolve(`stored ${pending.ticket.external_id}`);
            ended();
            resolve();
          },
          fail: (error) => {
            ended();
            reject(error);
          },
        });
      }),
  );
  return { open, batches, mostRunning: () => mostRunning };
}

describe('ticket inserts: one batch at a time', () => {
  it('the first ticket goes at once, those that arrive meanwhile go together after it, never two batches at once', async () => {
    const { open, batches, mostRunning } = heldBatches(oneBatchAtATime);
    const answers = [1, 2, 3, 4].map((n) => open(ticket(n)));
    await nextTurn();
    expect(batches.map((b) => b.externalIds)).toEqual([['ext-1']]);
    batches[0]?.finish();
    await nextTurn();
    expect(batches.map((b) => b.externalIds)).toEqual([['ext-1'], ['ext-2', 'ext-3', 'ext-4']]);
    batches[1]?.finish();
    expect(await Promise.all(answers)).toEqual([
      'stored ext-1',
      'stored ext-2',
      'stored ext-3',
      'stored ext-4',
    ]);
    expect(mostRunning()).toBe(1);
  });

  it('a batch whose run fails outright fails its unanswered tickets only; the next batch runs', async () => {
    const { open, batches } = heldBatches(oneBatchAtATime);
    const first = open(ticket(1));
    await nextTurn();
    const [answered, unanswered] = [open(ticket(2)), open(ticket(3))];
    batches[0]?.finish();
    await nextTurn();
    const next = open(ticket(4));
    batches[1]?.pendings[0]?.resolve('answered before the failure');
    batches[1]?.fail(new Error('the run broke'));
    expect(await first).toBe('stored ext-1');
    expect(await answered).toBe('answered before the failure');
    await expect(unanswered).rejects.toThrow('the run broke');
    await nextTurn();
    expect(batches.map((b) => b.externalIds)).toEqual([['ext-1'], ['ext-2', 'ext-3'], ['ext-4']]);
    batches[2]?.finish();
    expect(await next).toBe('stored ext-4');
  });
});

describe('ticket inserts: batches per turn', () => {
  it("the tickets of one turn go together at its end; the next turn's go at once, without waiting; batches in arrival order", async () => {
    const { open, batches, mostRunning } = heldBatches(batchesPerTurn);
    const answers = [1, 2, 3].map((n) => open(ticket(n)));
    expect(batches).toEqual([]);
    await nextTurn();
    expect(batches.map((b) => b.externalIds)).toEqual([['ext-1', 'ext-2', 'ext-3']]);
    const later = [4, 5].map((n) => open(ticket(n)));
    await nextTurn();
    expect(batches.map((b) => b.externalIds)).toEqual([
      ['ext-1', 'ext-2', 'ext-3'],
      ['ext-4', 'ext-5'],
    ]);
    expect(mostRunning()).toBe(2);
    batches[1]?.finish();
    expect(await Promise.all(later)).toEqual(['stored ext-4', 'stored ext-5']);
    batches[0]?.finish();
    expect(await Promise.all(answers)).toEqual(['stored ext-1', 'stored ext-2', 'stored ext-3']);
  });

  it('a batch whose run fails outright fails its unanswered tickets only; the next batch runs', async () => {
    const { open, batches } = heldBatches(batchesPerTurn);
    const [answered, unanswered] = [open(ticket(1)), open(ticket(2))];
    await nextTurn();
    batches[0]?.pendings[0]?.resolve('answered before the failure');
    batches[0]?.fail(new Error('the run broke'));
    expect(await answered).toBe('answered before the failure');
    await expect(unanswered).rejects.toThrow('the run broke');
    const next = open(ticket(3));
    await nextTurn();
    batches[1]?.finish();
    expect(await next).toBe('stored ext-3');
  });
});

describe('ticket inserts: group commit [sqlite]', () => {
  it('tickets sent together are stored in one commit, each answered with its own number', async () => {
    const { db, commits } = await countingDb();
    const insert = createTicketInserts(db);
    const before = commits();
    const stored = await Promise.all(Array.from({ length: 20 }, (_, n) => insert(ticket(n))));
    expect(commits() - before).toBe(1);
    expect(stored.map((t) => t.ticket.externalId)).toEqual(Array.from({ length: 20 }, (_, n) => `ext-${n}`));
    expect(stored.every((t) => t.created)).toBe(true);
    expect(new Set(stored.map((t) => t.ticket.number)).size).toBe(20);
    const rows = await db.selectFrom('hd_tickets').select('external_id').execute();
    expect(rows).toHaveLength(20);
    await db.destroy();
  });

  it('the same external_id twice in one batch is stored once: the second gets the first (a duplicate)', async () => {
    const { db } = await countingDb();
    const insert = createTicketInserts(db);
    const [first, second] = await Promise.all([insert(ticket(1)), insert(ticket(1, 'other-id'))]);
    expect(first).toMatchObject({ created: true, ticket: { externalId: 'ext-1', id: 't-1' } });
    expect(second).toEqual({ created: false, ticket: first.ticket });
    const again = await insert(ticket(1, 'third-id'));
    expect(again).toEqual({ created: false, ticket: first.ticket });
    await db.destroy();
  });

  it('a ticket the database refuses fails alone; the others of its batch are stored', async () => {
    const { db } = await countingDb();
    const insert = createTicketInserts(db);
    // The same id for two external_ids breaks the unique id: the database refuses the second.
    const outcomes = await Promise.allSettled([
      insert(ticket(1)),
      insert(ticket(2, 't-1')),
      insert(ticket(3)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await db.selectFrom('hd_tickets').select('external_id').orderBy('seq').execute();
    expect(rows.map((r) => r.external_id)).toEqual(['ext-1', 'ext-3']);
    await db.destroy();
  });
});

describeEachDialect('ticket inserts: insert or find', (dialect: Dialect) => {
  const database = useDialectDb(dialect);

  it('a new external_id is created; the same again answers the stored ticket, unchanged', async () => {
    const open = createTicketInserts(database.db);
    const first = await open(ticket(1));
    expect(first).toMatchObject({ created: true, ticket: { id: 't-1', externalId: 'ext-1' } });
    expect(first.ticket.number).toMatch(/^I-\d{6,}$/);
    const again = await open({ ...ticket(1, 't-other'), description: 'Another text.' });
    expect(again).toEqual({ created: false, ticket: first.ticket });
    const rows = await database.db.selectFrom('hd_tickets').select('id').execute();
    expect(rows).toEqual([{ id: 't-1' }]);
  });

  it('tickets sent together: the new ones created in the order sent, a stored one answered as stored, two of one new external_id open one', async () => {
    const open = createTicketInserts(database.db);
    const stored = await open(ticket(1));
    const answers = await Promise.all([
      open(ticket(2)),
      open(ticket(1, 't-again')),
      open(ticket(3)),
      open(ticket(3, 't-twice')),
      open(ticket(4)),
    ]);
    expect(answers.map((a) => a.created)).toEqual([true, false, true, false, true]);
    expect(answers[1]).toEqual({ created: false, ticket: stored.ticket });
    expect(answers[3]).toEqual({ created: false, ticket: answers[2].ticket });
    const numbers = [answers[0], answers[2], answers[4]].map((a) => a.ticket.number);
    expect([...numbers].sort()).toEqual(numbers);
    const rows = await database.db.selectFrom('hd_tickets').select('external_id').orderBy('seq').execute();
    expect(rows.map((r) => r.external_id)).toEqual(['ext-1', 'ext-2', 'ext-3', 'ext-4']);
  });

  it('a ticket the database refuses in a batch fails alone; the others of its batch are stored', async () => {
    await expectRefusedTicketFailsAlone(database.db, 30);
  });

  it('texts with quotes, braces, commas, backslashes, line breaks and other scripts are stored as sent', async () => {
    const open = createTicketInserts(database.db);
    const texts = [
      'He said "no", {twice}\\ \\"',
      'NULL',
      '',
      'line 1\nline 2\t{a,b}',
      'Impressora não imprime — 打印机 🖨️',
    ];
    const opened = await Promise.all(
      texts.map((description, n) =>
        open({ ...ticket(20 + n), description, requester_name: description === '' ? null : description }),
      ),
    );
    expect(opened.map((o) => o.ticket.description)).toEqual(texts);
    const rows = await database.db
      .selectFrom('hd_tickets')
      .select(['description', 'requester_name'])
      .orderBy('seq')
      .execute();
    expect(rows.map((r) => r.description)).toEqual(texts);
    expect(rows.map((r) => r.requester_name)).toEqual(texts.map((t) => (t === '' ? null : t)));
  });

  it('the same external_id sent at once from many calls opens one ticket; every call gets it', async () => {
    const open = createTicketInserts(database.db);
    const opened = await Promise.all(Array.from({ length: 12 }, (_, n) => open(ticket(7, `t-${n}`))));
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    const ids = new Set(opened.map((o) => o.ticket.id));
    expect(ids.size).toBe(1);
    const rows = await database.db.selectFrom('hd_tickets').select('id').execute();
    expect(rows.map((r) => r.id)).toEqual([...ids]);
  });
});

describe('ticket inserts: group commit on the writer thread [sqlite file]', () => {
  let folder: string;
  let db: Db;
  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), 'gateway-inserts-'));
    db = openDatabase({ kind: 'sqlite', path: join(folder, 'service.sqlite') });
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    rmSync(folder, { recursive: true, force: true });
  });

  it('commits on its own thread: each call is answered after its commit, which another connection sees', async () => {
    expect(sqliteWriterThreadOf(db)).toBeDefined();
    const open = createTicketInserts(db);
    const opened = await Promise.all(Array.from({ length: 30 }, (_, n) => open(ticket(n))));
    expect(opened.every((o) => o.created)).toBe(true);
    expect(new Set(opened.map((o) => o.ticket.number)).size).toBe(30);
    // A connection of its own, opened after the answers: what was acknowledged is in the file.
    const other = new SQLite(join(folder, 'service.sqlite'), { readonly: true });
    const count = other.prepare('select count(*) as n from hd_tickets').get() as { n: number };
    other.close();
    expect(count.n).toBe(30);
  });

  /** The database's writer thread. */
  function writerThread(): SqliteWriterThread {
    const thread = sqliteWriterThreadOf(db);
    if (thread === undefined) throw new Error('no writer thread');
    return thread;
  }

  /** Holds the file's write lock from a connection of its own until `release`: the thread waits for it. */
  function holdWriteLock(): { release: () => void } {
    const holder = new SQLite(join(folder, 'service.sqlite'));
    holder.exec('begin immediate');
    return {
      release: () => {
        holder.exec('commit');
        holder.close();
      },
    };
  }

  /** Records the size of each batch posted to the thread. */
  function batchSizesPosted(): number[] {
    const thread = writerThread();
    const post = thread.run.bind(thread);
    const sizes: number[] = [];
    thread.run = (sql, runs, otherwise) => {
      sizes.push(runs.length);
      return post(sql, runs, otherwise);
    };
    return sizes;
  }

  it('posts the tickets of one turn together; the batches posted while the thread commits go in its next commit, in arrival order', async () => {
    const thread = writerThread();
    const sizes = batchSizesPosted();
    const open = createTicketInserts(db);
    const lock = holdWriteLock();
    const answers: Promise<{ created: boolean; ticket: { number: string } }>[] = [];
    for (const turn of [0, 1, 2]) {
      for (let n = 0; n < 10; n++) answers.push(open(ticket(200 + turn * 10 + n)));
      await nextTurn();
    }
    expect(sizes).toEqual([10, 10, 10]);
    const commitsBefore = thread.commits;
    lock.release();
    const opened = await Promise.all(answers);
    expect(opened.every((o) => o.created)).toBe(true);
    const numbers = opened.map((o) => o.ticket.number);
    expect([...numbers].sort()).toEqual(numbers);
    expect(await db.selectFrom('hd_tickets').select('id').execute()).toHaveLength(30);
    // The thread had at most the first batch in hand when the lock held it; the others waited together.
    expect(thread.commits - commitsBefore).toBeLessThanOrEqual(2);
  });

  it('batches the thread takes together: one the database refuses fails alone, the others are committed', async () => {
    const thread = writerThread();
    const put = `insert into settings (key, value, updated_at) values (?, ?, 1) returning key`;
    // Started, so that the batches below all wait behind the lock.
    expect(await thread.run('select 1 as one', [[]])).toEqual([{ one: 1 }]);
    const lock = holdWriteLock();
    const outcomes = Promise.allSettled([
      thread.run(put, [['a', '1']]),
      thread.run(put, [['b', '2']]),
      thread.run(put, [['a', 'taken']]),
      thread.run(put, [['c', '3']]),
    ]);
    await nextTurn();
    lock.release();
    const settled = await outcomes;
    expect(settled.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((settled[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    const stored = await db.selectFrom('settings').select(['key', 'value']).orderBy('key').execute();
    expect(stored).toEqual([
      { key: 'a', value: '1' },
      { key: 'b', value: '2' },
      { key: 'c', value: '3' },
    ]);
  });

  it('concurrency: one new external_id in two batches, one after the other, opens one ticket; the later batch gets it as stored (docs/ticket-api.md, Settled details)', async () => {
    const sizes = batchSizesPosted();
    const open = createTicketInserts(db);
    const first = open(ticket(9));
    await nextTurn();
    const second = open(ticket(9, 'other-id'));
    await nextTurn();
    expect(sizes).toEqual([1, 1]);
    expect(await first).toMatchObject({ created: true, ticket: { id: 't-9', externalId: 'ext-9' } });
    expect(await second).toEqual({ created: false, ticket: (await first).ticket });
    expect(await db.selectFrom('hd_tickets').select('id').execute()).toEqual([{ id: 't-9' }]);
  });

  it('concurrency: one new external_id in two batches that one commit takes together opens one ticket; the later gets it as stored (docs/ticket-api.md, Settled details)', async () => {
    const thread = writerThread();
    const sizes = batchSizesPosted();
    const open = createTicketInserts(db);
    const lock = holdWriteLock();
    // A batch of its own that the thread takes and waits with behind the lock; the tickets queue after it.
    const held = thread.run(`insert into settings (key, value, updated_at) values ('held', 'x', 1)`, [[]]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const commitsBefore = thread.commits;
    const first = open(ticket(9));
    await nextTurn();
    const second = open(ticket(9, 'other-id'));
    await nextTurn();
    lock.release();
    await held;
    expect(await first).toMatchObject({ created: true, ticket: { id: 't-9', externalId: 'ext-9' } });
    expect(await second).toEqual({ created: false, ticket: (await first).ticket });
    expect(sizes).toEqual([1, 1, 1]);
    // The held batch's commit, and one for both tickets (two when each went alone).
    expect(thread.commits - commitsBefore).toBeLessThanOrEqual(2);
    expect(await db.selectFrom('hd_tickets').select('id').execute()).toEqual([{ id: 't-9' }]);
  });

  it('the same external_id from many calls at once opens one ticket, every call gets it', async () => {
    const open = createTicketInserts(db);
    const opened = await Promise.all(Array.from({ length: 10 }, (_, n) => open(ticket(4, `id-${n}`))));
    expect(opened.filter((o) => o.created)).toHaveLength(1);
    expect(new Set(opened.map((o) => o.ticket.id)).size).toBe(1);
  });

  it("the thread runs a batch's fallback statement, in its transaction, for each run that returned no row", async () => {
    const thread = writerThread();
    const insert = `insert into settings (key, value, updated_at) values (?, ?, 1)
      on conflict (key) do nothing returning 'inserted' as source, value`;
    const find = `select 'found' as source, value from settings where key = ?`;
    const rows = await thread.run(
      insert,
      [
        ['a', 'first'],
        ['b', 'second'],
        ['a', 'third'],
      ],
      { sql: find, runs: [['a'], ['b'], ['a']] },
    );
    expect(rows).toEqual([
      { source: 'inserted', value: 'first' },
      { source: 'inserted', value: 'second' },
      { source: 'found', value: 'first' },
    ]);
  });

  it("a statement's text crosses to the thread once; its number serves the next batches, and a new thread's", async () => {
    const thread = writerThread();
    const put = `insert into settings (key, value, updated_at) values (?, ?, 1)
      on conflict (key) do update set value = excluded.value returning key, value`;
    const get = 'select value from settings where key = ?';
    expect(await thread.run(put, [['a', '1']])).toEqual([{ key: 'a', value: '1' }]);
    expect(await thread.run(get, [['a'], ['b']])).toEqual([{ value: '1' }, null]);
    expect(await thread.run(put, [['b', '2']])).toEqual([{ key: 'b', value: '2' }]);
    // A thread started again knows no statement: the texts cross again.
    await thread.close();
    expect(await thread.run(get, [['b']])).toEqual([{ value: '2' }]);
    expect(await thread.run(put, [['a', '3']])).toEqual([{ key: 'a', value: '3' }]);
  });

  it('a statement SQLite refuses fails each batch with its own error; runs of uneven length are refused', async () => {
    const thread = writerThread();
    const wrong = 'select value from no_such_table where key = ?';
    await expect(thread.run(wrong, [['a']])).rejects.toThrow(/no such table/);
    await expect(thread.run(wrong, [['a']])).rejects.toThrow(/no such table/);
    const get = 'select value from settings where key = ?';
    await expect(thread.run(get, [['a'], ['b', 'c']])).rejects.toThrow(/as many parameters/);
    await expect(thread.run(get, [['a']], { sql: get, runs: [['a'], ['b']] })).rejects.toThrow(
      /as many parameters/,
    );
    expect(await thread.run(get, [['a']])).toEqual([null]);
  });

  it('a resubmission is answered by the thread with the stored ticket, unchanged, beside new tickets', async () => {
    const open = createTicketInserts(db);
    const first = await open(ticket(5));
    expect(first).toMatchObject({ created: true, ticket: { id: 't-5', externalId: 'ext-5' } });
    // The resubmission shares a batch with new tickets: it is found in the batch's transaction.
    const [again, ...others] = await Promise.all([
      open({ ...ticket(5, 'another-id'), description: 'Another text.' }),
      ...Array.from({ length: 5 }, (_, n) => open(ticket(50 + n))),
    ]);
    expect(again).toEqual({ created: false, ticket: first.ticket });
    expect(others.every((o) => o.created)).toBe(true);
    const stored = await db
      .selectFrom('hd_tickets')
      .select(['id', 'description'])
      .where('external_id', '=', 'ext-5')
      .execute();
    expect(stored).toEqual([{ id: 't-5', description: 'Ticket 5.' }]);
  });

  it('a ticket the database refuses fails alone; the others of its batch are stored', async () => {
    await expectRefusedTicketFailsAlone(db, 0);
  });

  it('a write transaction of the main connection waits for the thread instead of failing', async () => {
    const open = createTicketInserts(db);
    const tickets = Promise.all(Array.from({ length: 50 }, (_, n) => open(ticket(100 + n))));
    // Reads first, then writes: with a deferred begin this would be refused if the thread committed
    // in between (SQLITE_BUSY_SNAPSHOT).
    const written = db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom('hd_tickets').select('id').execute();
      await trx
        .insertInto('settings')
        .values({ key: 'k', value: String(before.length), updated_at: 1 })
        .execute();
    });
    await Promise.all([tickets, written]);
    expect(await db.selectFrom('hd_tickets').select('id').execute()).toHaveLength(50);
  });
});
