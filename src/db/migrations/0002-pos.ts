import type { Kysely } from 'kysely';

// The point-of-sale data (docs/pos-api.md, docs/admin-rules.md "Point of sale"): merchants' accounts, places,
// events, receipts and API keys. Money is integer cents (bigint); instants are integer milliseconds.

/** Accounts, places, events, receipts and merchants' keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const instant = 'bigint';

  await db.schema
    .createTable('pos_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('pos_places')
    .addColumn('account_id', 'text', (c) => c.notNull().references('pos_accounts.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('timezone', 'text', (c) => c.notNull())
    // null: the place's state is not known (docs/pos-api.md, Places response: `active` boolean or null)
    .addColumn('active', 'integer')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .addPrimaryKeyConstraint('pos_places_pk', ['account_id', 'id'])
    .execute();

  await db.schema
    .createTable('pos_events')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // Case- and accent-folded name (NFD, marks removed, lower-cased), searched with LIKE.
    .addColumn('name_folded', 'text', (c) => c.notNull())
    .addColumn('starts_at', instant)
    .addColumn('ends_at', instant)
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('registered_at', instant, (c) => c.notNull())
    .addPrimaryKeyConstraint('pos_events_pk', ['account_id', 'place_id', 'id'])
    .addForeignKeyConstraint('pos_events_place_fk', ['account_id', 'place_id'], 'pos_places', [
      'account_id',
      'id',
    ])
    .execute();
  // Events are listed most recently registered first, paged by (registered_at, id).
  await db.schema
    .createIndex('pos_events_page')
    .on('pos_events')
    .columns(['account_id', 'place_id', 'registered_at', 'id'])
    .execute();

  await db.schema
    .createTable('pos_receipts')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('place_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    // When the receipt happened on the store's device (the period filter), not when it arrived.
    .addColumn('occurred_at', instant, (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('brand', 'text')
    .addColumn('amount_cents', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('demo', 'integer', (c) => c.notNull())
    // Derived at write time, so that sums, and later pre-aggregated buckets kept by deltas on upsert,
    // never recompute the rules: 1 when the receipt counts toward the figures (docs/pos-api.md, Settled
    // details).
    .addColumn('counted', 'integer', (c) => c.notNull())
    .addColumn('received_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .addPrimaryKeyConstraint('pos_receipts_pk', ['account_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pos_receipts_period')
    .on('pos_receipts')
    .columns(['account_id', 'place_id', 'occurred_at'])
    .execute();
  await db.schema
    .createIndex('pos_receipts_event')
    .on('pos_receipts')
    .columns(['account_id', 'place_id', 'event_id', 'occurred_at'])
    .execute();

  await db.schema
    .createTable('pos_keys')
    // The credential's identifier: stable across rotations, new for a newly created key.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('pos_accounts.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    // JSON: "all", or an array of place ids
    .addColumn('places', 'text', (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .addColumn('paused', 'integer', (c) => c.notNull())
    .addColumn('revoked_at', instant)
    .addColumn('current_key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('previous_key_hash', 'text', (c) => c.unique())
    .addColumn('previous_valid_until', instant)
    // The key that was previous when a rotation invalidated the current one: it answers `replaced`
    // (docs/pos-api.md, States: "the old key (and any previous key) is replaced at once"); forgotten at
    // the next rotation, like any key two rotations back.
    .addColumn('replaced_key_hash', 'text', (c) => c.unique())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pos_keys_account').on('pos_keys').column('account_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['pos_keys', 'pos_receipts', 'pos_events', 'pos_places', 'pos_accounts']) {
    await db.schema.dropTable(table).execute();
  }
}
