import type { Kysely } from 'kysely';

// The service's own request counts per minute (src/observability/traffic.ts), for the back-office
// console's dashboard: every process of a fleet adds what it answered to the same rows, so the table holds
// the fleet's sums. Rows older than two days are pruned by the processes themselves.

/** The per-minute counts of answered requests by API and outcome. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('traffic_minutes')
    // The start of the UTC minute, in ms.
    .addColumn('minute', 'bigint', (c) => c.notNull())
    // The API as the metrics name it (helpdesk, pos, docs, admin, console, other).
    .addColumn('api', 'text', (c) => c.notNull())
    // `answered` (status below 400), `refused` (4xx) or `failed` (5xx).
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    // The key starts with the minute: the last hour and the pruned past are each one range of it.
    .addPrimaryKeyConstraint('traffic_minutes_pk', ['minute', 'api', 'outcome'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('traffic_minutes').execute();
}
