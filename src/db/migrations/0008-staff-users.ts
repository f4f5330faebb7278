import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// The back-office console's people and what the back office did (issue 14): the operator's staff users
// (role `operator` or `support`), the one-time links where they set a password (only a hash stored; the
// operator hands a link over, nothing is e-mailed), and the log of every change made through the back
// office: the admin API, the CLI and the console.

/** Staff users, their one-time links, and the back-office action log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const instant = 'bigint';

  await db.schema
    .createTable('staff_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // Lower-cased; one staff user per address.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // `operator` (everything) or `support` (read-mostly), as the two admin tokens.
    .addColumn('role', 'text', (c) => c.notNull())
    // null until a one-time link is used to set it.
    .addColumn('password_hash', 'text')
    .addColumn('disabled_at', instant)
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('staff_user_links')
    // SHA-256 of the link's token: the token itself is only in the link the operator hands over.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('staff_users.id'))
    // `invitation` (no password yet) or `reset` (a forgotten one); both 72 hours.
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .addColumn('used_at', instant)
    .addColumn('created_at', instant, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('staff_user_links_user')
    .on('staff_user_links')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('back_office_actions')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('occurred_at', instant, (c) => c.notNull())
    // Who acted, as the key audit trail records it (src/audit/actor.ts).
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('actor_ip', 'text')
    // The operation: an admin operation id (`putHelpDeskCompany`) or a console action's name.
    .addColumn('action', 'text', (c) => c.notNull())
    // What it acted on, as a path under /admin/v1/ (`helpdesk/companies/acme`, `staff/users/u7Qm…`).
    .addColumn('target', 'text', (c) => c.notNull())
    // JSON object: what was sent or changed; never a secret (a key, a link, a password, a hash).
    .addColumn('details', 'text', (c) => c.notNull())
    .execute();
  // Newest first, across all and per actor (a staff user's own actions).
  await db.schema
    .createIndex('back_office_actions_time')
    .on('back_office_actions')
    .columns(['occurred_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('back_office_actions_user')
    .on('back_office_actions')
    .columns(['actor_user_id', 'occurred_at', 'seq'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('back_office_actions').execute();
  await db.schema.dropTable('staff_user_links').execute();
  await db.schema.dropTable('staff_users').execute();
}
