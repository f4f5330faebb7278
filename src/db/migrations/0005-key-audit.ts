import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// The key audit trail and the last use of each key (docs/back-office.md, Audit trail and last use): every lifecycle
// event of a partner system's key or a merchant's key, written in the transaction of the change, and the
// last instant each key text (current and previous apart) was accepted, kept by a periodic flush.

/** The audit table, its reading indexes, and the last-use columns of both kinds of key. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const instant = 'bigint';

  await db.schema
    .createTable('key_audit_events')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // `system`: a help-desk partner system's key; `merchant`: a merchant's API key.
    .addColumn('kind', 'text', (c) => c.notNull())
    // The system identifier, or the merchant's account id.
    .addColumn('owner_id', 'text', (c) => c.notNull())
    // The merchant key's credential id; for a system, its identifier again (one credential per system).
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('occurred_at', instant, (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('actor_ip', 'text')
    // JSON object: what the event changed (before/after of an edit, a rotation's grace…).
    .addColumn('details', 'text', (c) => c.notNull())
    // Set on events that must be written once in a fleet (a key's expiry, a grace's end): every process's
    // sweeper tries, the unique index lets one row in. Null on every other event (nulls are distinct).
    .addColumn('once_key', 'text', (c) => c.unique())
    .execute();
  // Newest first, per owner (a system, an account; a key narrows it) and across all.
  await db.schema
    .createIndex('key_audit_owner_time')
    .on('key_audit_events')
    .columns(['kind', 'owner_id', 'occurred_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('key_audit_time')
    .on('key_audit_events')
    .columns(['occurred_at', 'seq'])
    .execute();

  // Last accepted use of the current and of the previous key text (ms); null: never (or not yet flushed).
  for (const [table, current, previous] of [
    ['hd_systems', 'current_key_last_used_at', 'previous_key_last_used_at'],
    ['pos_keys', 'current_key_last_used_at', 'previous_key_last_used_at'],
  ] as const) {
    await db.schema.alterTable(table).addColumn(current, instant).execute();
    await db.schema.alterTable(table).addColumn(previous, instant).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['hd_systems', 'pos_keys']) {
    await db.schema.alterTable(table).dropColumn('previous_key_last_used_at').execute();
    await db.schema.alterTable(table).dropColumn('current_key_last_used_at').execute();
  }
  await db.schema.dropTable('key_audit_events').execute();
}
