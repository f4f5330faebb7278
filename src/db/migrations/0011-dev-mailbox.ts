import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// The development mailbox (src/mail/dev-mailbox.ts; docs/operations.md, Reading e-mail locally): outside
// production, every message the sender delivers is kept here whole, one-time links included, so that a
// developer can finish an invitation or a password reset without a mail server. The newest messages only
// (the sender prunes it as it writes). In production nothing is ever written to it.

/** The development mailbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('dev_mailbox')
    // The order the messages were delivered in: newest first on every reading, oldest pruned first.
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // The outbox message's id (its Message-ID): a message delivered twice is kept once.
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    // Which transport took it (`log`, `smtp`).
    .addColumn('transport', 'text', (c) => c.notNull())
    .addColumn('delivered_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dev_mailbox').execute();
}
