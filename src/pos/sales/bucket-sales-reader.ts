import { sql } from 'kysely';
import { onSession, type Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { nameStatementText } from '../../db/prepared-query.js';
import { periodReading, SLOT_LENGTHS } from './sales-bucket-layout.js';
import type { ReceiptGroup } from './sales-figures.js';
import { countedReceipts, type SalesQuery, type SalesReader } from './sales-reader.js';

// The bucket reader: the figures of a period from the pre-aggregated sales buckets (sales-buckets.ts),
// whole slots of the period read largest first, and the raw receipts only inside the two partial
// smallest slots at its edges (sales-bucket-layout.ts). Its cost follows the number of slots a period
// spans and the methods and brands in them, not the number of receipts: a 120-day period reads at most
// six slots of each length, and raw receipts of two partial hours at most.

/** One row of the union: a bucket, or one raw receipt at an edge, with method and brand as stored. */
interface Part {
  payment_method: string;
  branded: number;
  brand: string;
  receipts: number;
  amount_cents: number | string | bigint;
}

/**
 * The counted receipts of the query grouped by stored method and brand, in one statement: the buckets
 * of every slot run and the raw receipts of every edge range, summed together. The sum is cast to text
 * and parsed with BigInt, as the raw reader does (raw-sales-reader.ts): never through a float.
 */
async function bucketReceiptGroups(
  db: Db,
  query: SalesQuery,
  lengths: readonly number[],
): Promise<ReceiptGroup[]> {
  const reading = periodReading(query.from, query.to, lengths);
  const buckets = reading.slots.map((run) =>
    db
      .selectFrom('pos_sales_buckets')
      .select(['payment_method', 'branded', 'brand', 'receipts', 'amount_cents'])
      .where('account_id', '=', query.accountId)
      .where('place_id', '=', query.placeId)
      .where('event_id', '=', query.eventId ?? '')
      .where('slot_ms', '=', run.length)
      .where('slot_start', '>=', run.from)
      .where('slot_start', '<', run.to)
      .$castTo<Part>(),
  );
  const edges = reading.raw.map((range) =>
    countedReceipts(db, { ...query, from: range.from, to: range.to })
      .select((eb) => [
        'payment_method',
        sql<number>`case when ${eb.ref('brand')} is null then 0 else 1 end`.as('branded'),
        sql<string>`coalesce(${eb.ref('brand')}, '')`.as('brand'),
        sql<number>`1`.as('receipts'),
        'amount_cents',
      ])
      .$castTo<Part>(),
  );
  const [first, ...rest] = [...buckets, ...edges];
  if (first === undefined) return [];
  const parts = rest.reduce((union, part) => union.unionAll(part), first);
  const figures = db
    .selectFrom(parts.as('parts'))
    .select(['payment_method', 'branded', 'brand'])
    .select((eb) => [
      sql<number | string>`sum(${eb.ref('receipts')})`.as('receipts'),
      sql<string>`cast(sum(${eb.ref('amount_cents')}) as text)`.as('cents'),
    ])
    .groupBy(['payment_method', 'branded', 'brand'])
    .compile();
  // A period's text follows its slot runs and edges, a few shapes in all: on PostgreSQL each is a named
  // prepared statement, parsed and planned once per connection.
  if (isPostgres(db)) nameStatementText('sales_figures', figures.sql);
  const { rows } = await db.executeQuery(figures);
  return rows.map((row) => ({
    paymentMethod: row.payment_method,
    brand: row.branded === 1 ? row.brand : null,
    // SUM of bigint is numeric on PostgreSQL, handed over as text.
    count: Number(row.receipts),
    amountCents: BigInt(row.cents),
  }));
}

/**
 * Runs the read without parallel workers on PostgreSQL. The statement reads a few thousand buckets through
 * index ranges, yet the planner's estimate for many ranges of one index can reach the cost at which it
 * starts workers, and starting them takes longer than the whole read (measured: 45 to 85 ms on a busy
 * host, against 1 to 2 ms without). The read runs on connections whose sessions are set so (`onSession`);
 * the sales service's, which also hold its time limit (`withQueryTimeout`, `parallelWorkers: false`),
 * already are. A read in a transaction is left to the transaction.
 */
function withoutParallelWorkers<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (!isPostgres(db) || db.isTransaction) return read(db);
  return read(onSession(db, { max_parallel_workers_per_gather: 0 }));
}

/** A bucket reader over the given slot lengths (those the buckets were built with). */
export function createBucketSalesReader(lengths: readonly number[] = SLOT_LENGTHS): SalesReader {
  return {
    name: 'buckets',
    receiptGroups: (db, query) =>
      withoutParallelWorkers(db, (planned) => bucketReceiptGroups(planned, query, lengths)),
  };
}

/** The bucket reader over the layout the buckets are kept in. */
export const bucketSalesReader: SalesReader = createBucketSalesReader();
