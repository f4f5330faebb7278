import { PostgresAdapter } from 'kysely';

/** True when the database behind `db` is PostgreSQL (migrations need a few dialect words). */
export function isPostgres(db: { getExecutor(): { adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
