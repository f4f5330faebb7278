import { type Kysely } from 'kysely';

// The receipts' index on (account, place, event, occurred_at) serves only the reads of one event's
// receipts (`event_id = ?`: the sales of an event, src/pos/sales/). It held every receipt, and most
// receipts have no event: each of them cost every upload an insert at a random place of an index that no
// read of them uses (on SQLite, about 5 µs a receipt of a year-long upload). It now holds only the
// receipts of an event. Both databases use a partial index for `event_id = ?`, which implies its
// `event_id is not null`.
//
// The new index is built before the old one goes, so that reads keep an index meanwhile: on PostgreSQL
// building it holds the receipts' writes (not their reads) for as long as it scans the table.

const COLUMNS = ['account_id', 'place_id', 'event_id', 'occurred_at'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('pos_receipts_of_event')
    .on('pos_receipts')
    .columns(COLUMNS)
    .where('event_id', 'is not', null)
    .execute();
  await db.schema.dropIndex('pos_receipts_event').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('pos_receipts_event').on('pos_receipts').columns(COLUMNS).execute();
  await db.schema.dropIndex('pos_receipts_of_event').execute();
}
