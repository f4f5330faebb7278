import { PostgresAdapter, type Kysely } from 'kysely';

/** True when the database behind `db` is PostgreSQL (migrations need a few dialect words). */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
