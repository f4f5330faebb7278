import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';
import * as helpdesk from './migrations/0001-helpdesk.js';
import * as pos from './migrations/0002-pos.js';
import * as salesBuckets from './migrations/0003-sales-buckets.js';
import * as eventsKeyset from './migrations/0004-events-keyset.js';
import * as keyAudit from './migrations/0005-key-audit.js';
import * as mailOutbox from './migrations/0006-mail-outbox.js';
import * as webUsers from './migrations/0007-web-users.js';
import * as staffUsers from './migrations/0008-staff-users.js';
import * as traffic from './migrations/0009-traffic.js';
import * as passwordResetRequests from './migrations/0010-password-reset-requests.js';
import * as devMailbox from './migrations/0011-dev-mailbox.js';
import * as hourlyBuckets from './migrations/0012-hourly-buckets.js';
import * as eventReceiptsIndex from './migrations/0013-event-receipts-index.js';

// Migrations are listed here rather than read from a folder, so that they work the same from the
// TypeScript sources (tests) and from the compiled build.
const migrations: Record<string, Migration> = {
  '0001-helpdesk': helpdesk,
  '0002-pos': pos,
  '0003-sales-buckets': salesBuckets,
  '0004-events-keyset': eventsKeyset,
  '0005-key-audit': keyAudit,
  '0006-mail-outbox': mailOutbox,
  '0007-web-users': webUsers,
  '0008-staff-users': staffUsers,
  '0009-traffic': traffic,
  '0010-password-reset-requests': passwordResetRequests,
  '0011-dev-mailbox': devMailbox,
  '0012-hourly-buckets': hourlyBuckets,
  '0013-event-receipts-index': eventReceiptsIndex,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** The migrator of this service's migrations, over `db` (tests also move it to a given migration). */
export async function createMigrator(db: Kysely<Database>): Promise<Migrator> {
  // On PostgreSQL the migrator looks for its own tables in every schema unless told which one: name the
  // schema the connection works in, so that a database holding several schemas migrates each on its own.
  const schema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined;
  return new Migrator({
    db,
    provider,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

/** Applies every pending migration; throws with the failing migration's name if one fails. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = await createMigrator(db);
  const { error, results = [] } = await migrator.migrateToLatest();
  const failed = results.find((result) => result.status === 'Error');
  if (error !== undefined) {
    const name = failed === undefined ? '' : ` (migration ${failed.migrationName})`;
    throw new Error(
      `database migration failed${name}: ${error instanceof Error ? error.message : JSON.stringify(error)}`,
      { cause: error },
    );
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
