// A statement refused by a unique index or primary key, on either database: PostgreSQL's SQLSTATE 23505,
// better-sqlite3's SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY. Lets a writer that raced another for the same
// new row run its transaction again and find that row, instead of answering 500.

/** Whether `error` is a unique index's (or primary key's) refusal. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const { code } = error;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
