import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// E-mail to merchants (docs/pos-api.md, States and transitions: "The merchant receives an e-mail when a
// key is created or rotated and when an edit widens its access"): the account's address, and the
// transactional outbox that a message is written to in the transaction of the change it tells about
// (src/mail/). Instants are integer milliseconds.

/** The account's e-mail address and the outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // null: the merchant gave no address, and nothing is sent to the account.
  await db.schema.alterTable('pos_accounts').addColumn('email', 'text').execute();

  const pg = isPostgres(db);
  await db.schema
    .createTable('mail_outbox')
    // The order the messages were written in, which senders keep (several in one millisecond too).
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // The message's id: its Message-ID and `X-Outbox-Id` on every attempt.
    .addColumn('id', 'text', (c) => c.notNull().unique())
    // What the message is about (`pos_key_created`, …): for the log and for whoever reads the table.
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('recipient', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When a sender may take the message next: the first attempt, a retry after a failure, or the end of
    // another sender's lease (a sender that took it and died without saying how it went).
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    // Set while a sender holds the message; only that sender may record how the attempt went.
    .addColumn('lease_token', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    // Set when the sender gave up after its last attempt; the message stays for the operator to read.
    .addColumn('failed_at', 'bigint')
    .execute();
  // The messages still to send, by when they are due: what every sender's poll reads.
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['next_attempt_at', 'seq'])
    .where(sql<boolean>`sent_at is null and failed_at is null`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.alterTable('pos_accounts').dropColumn('email').execute();
}
