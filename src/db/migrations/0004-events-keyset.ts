import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect.js';

// The events list at depth (docs/pos-api.md, GET /v1/api-public/events; src/pos/places/event-listing.ts). The
// listing pages by (registered_at, id), id in binary order, and its search compares the stored folded name
// (`name_folded`, written with every event since 0002 by the same `foldName` the search pattern uses).
// This index replaces 0002's `pos_events_page`:
// - its id is in binary order on PostgreSQL too (`collate "C"`, as the listing orders), so that a page
//   after a cursor is one index range read backwards from the cursor, at any depth, not a scan from the
//   newest event with a sort;
// - on SQLite it carries the folded name as a last column, so that a search tests the names in the index
//   and reads the row of a matching entry only (PostgreSQL reads the row before testing a column that the
//   query's other columns do not come from, so there it would only make the index larger);
// - on PostgreSQL its account and place are `collate "C"` as well, which only the listing's query names:
//   a look-up of one event by its key (default collation) can then only use the primary key. With the
//   place's columns usable as they are, the planner picked the page index for such look-ups whenever its
//   statistics did not know the place (a new or grown place; always before a first ANALYZE), reading the
//   whole place for each: event creation slowed down as the place grew.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('pos_events_page').execute();
  if (isPostgres(db)) {
    const key = sql`account_id collate "C", place_id collate "C", registered_at, id collate "C"`;
    await sql`create index pos_events_keyset on pos_events (${key})`.execute(db);
  } else {
    await db.schema
      .createIndex('pos_events_keyset')
      .on('pos_events')
      .columns(['account_id', 'place_id', 'registered_at', 'id', 'name_folded'])
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('pos_events_keyset').execute();
  await db.schema
    .createIndex('pos_events_page')
    .on('pos_events')
    .columns(['account_id', 'place_id', 'registered_at', 'id'])
    .execute();
}
