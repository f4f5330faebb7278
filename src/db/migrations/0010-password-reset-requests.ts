import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// The panel's password-reset requests waiting for the e-mail sender (issue 20): the reset page writes one
// row for any address, known or not, so that its answer takes the same work either way, and the sender
// turns a known user's row into the link and its e-mail. A row lives until the sender's next poll.

/** The queue of reset requests. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await db.schema
    .createTable('password_reset_requests')
    // The order the requests came in.
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    // The address as typed, lower-cased; a user's or not.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('requested_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('password_reset_requests').execute();
}
