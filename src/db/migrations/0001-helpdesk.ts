import type { Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

/** The help-desk catalog, partner systems with their keys, tickets, and operator settings. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const bool = 'integer';
  const instant = 'bigint';

  await db.schema
    .createTable('hd_companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', bool, (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('hd_category_types')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();

  await db.schema
    .createTable('hd_priorities')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('level', 'integer', (c) => c.notNull())
    .addColumn('response_time_hours', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hd_categories')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('type_id', 'integer', (c) => c.notNull().references('hd_category_types.id'))
    .addColumn('default_priority_id', 'integer', (c) => c.references('hd_priorities.id'))
    .execute();

  await db.schema
    .createTable('hd_support_levels')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .execute();

  await db.schema
    .createTable('hd_natures')
    .addColumn('identifier', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', bool, (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .createTable('hd_systems')
    .addColumn('identifier', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('active', bool, (c) => c.notNull().defaultTo(1))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull())
    .addColumn('key_grace_seconds', 'integer', (c) => c.notNull())
    .addColumn('default_category_id', 'integer')
    .addColumn('released_category_ids', 'text', (c) => c.notNull())
    .addColumn('current_key_hash', 'text', (c) => c.unique())
    .addColumn('previous_key_hash', 'text', (c) => c.unique())
    .addColumn('previous_valid_until', instant)
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('hd_tickets')
    .addColumn('seq', pg ? 'bigserial' : 'integer', (c) =>
      pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('system_id', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category_id', 'integer')
    .addColumn('priority_id', 'integer')
    .addColumn('support_level', 'integer', (c) => c.notNull())
    .addColumn('nature', 'text')
    .addColumn('cnpj', 'text')
    .addColumn('requester_name', 'text')
    .addColumn('requester_contact', 'text')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addUniqueConstraint('hd_tickets_system_external_id', ['system_id', 'external_id'])
    .execute();

  await db.schema
    .createIndex('hd_tickets_system_seq')
    .on('hd_tickets')
    .columns(['system_id', 'seq'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'settings',
    'hd_tickets',
    'hd_systems',
    'hd_natures',
    'hd_support_levels',
    'hd_categories',
    'hd_priorities',
    'hd_category_types',
    'hd_companies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
