import type { Kysely } from 'kysely';

// The merchant panel's people and their sessions (issue 13): merchant users of an account, the one-time
// links of their invitations and password resets (only a hash stored), and the sessions of the web faces
// (the panel, later the back-office console), kept in the database so that a fleet shares them.

/** Merchant users, their one-time links, and web sessions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const instant = 'bigint';

  await db.schema
    .createTable('merchant_users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('pos_accounts.id'))
    // Lower-cased; one user per address, whatever the account.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    // null until the invitation's link is used.
    .addColumn('password_hash', 'text')
    .addColumn('disabled_at', instant)
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('merchant_users_account')
    .on('merchant_users')
    .columns(['account_id', 'email'])
    .execute();

  await db.schema
    .createTable('merchant_user_links')
    // SHA-256 of the link's token: the token itself is only in the e-mail.
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('merchant_users.id'))
    // `invitation` (72 hours) or `reset` (1 hour).
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .addColumn('used_at', instant)
    .addColumn('created_at', instant, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('merchant_user_links_user')
    .on('merchant_user_links')
    .columns(['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('web_sessions')
    // SHA-256 of the session id: a read of the table gives no cookie.
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    // Which face signed in: `panel` (merchant users) or `console` (staff).
    .addColumn('face', 'text', (c) => c.notNull())
    // The signed-in user, null before sign-in (a session then only holds its CSRF secret).
    .addColumn('user_id', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_sessions_user').on('web_sessions').columns(['face', 'user_id']).execute();
  await db.schema.createIndex('web_sessions_expiry').on('web_sessions').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('web_sessions').execute();
  await db.schema.dropTable('merchant_user_links').execute();
  await db.schema.dropTable('merchant_users').execute();
}
