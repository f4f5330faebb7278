import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Database, NewHdTicket } from '../../src/db/schema.js';
import { withStatementCache } from '../../src/db/statement-cache.js';
import { createTicketInserts } from '../../src/helpdesk/ticket-inserts.js';

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

describe('ticket inserts: group commit [sqlite]', () => {
  it('tickets sent together are stored in one commit, each answered with its own number', async () => {
    const { db, commits } = await countingDb();
    const insert = createTicketInserts(db);
    const before = commits();
    const stored = await Promise.all(Array.from({ length: 20 }, (_, n) => insert(ticket(n))));
    expect(commits() - before).toBe(1);
    expect(stored.map((t) => t?.externalId)).toEqual(Array.from({ length: 20 }, (_, n) => `ext-${n}`));
    expect(new Set(stored.map((t) => t?.number)).size).toBe(20);
    const rows = await db.selectFrom('hd_tickets').select('external_id').execute();
    expect(rows).toHaveLength(20);
    await db.destroy();
  });

  it('the same external_id twice in one batch is stored once: the second gets undefined (a duplicate)', async () => {
    const { db } = await countingDb();
    const insert = createTicketInserts(db);
    const [first, second] = await Promise.all([insert(ticket(1)), insert(ticket(1, 'other-id'))]);
    expect(first?.externalId).toBe('ext-1');
    expect(second).toBeUndefined();
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
