import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { SLOT_LENGTHS, slotStart } from './sales-bucket-layout.js';

// The pre-aggregated sales buckets (table pos_sales_buckets), kept by deltas: every write of receipts
// takes the receipts' stored states before and after it, and in the same transaction subtracts what the
// old states counted and adds what the new ones count. A bucket holds the counted receipts of one place,
// one event key, one slot of each length of the layout (sales-bucket-layout.ts), one stored payment method
// and one stored brand: their number and exact sum in cents. The figures fold methods and brands when
// they are read, so a change of those rules never makes the buckets stale.
//
// Each receipt is in one bucket a slot length under the event key '' (every receipt of the place: what a
// query without `event` reads), and once more under its event's id when it has one.

/** What the buckets need of a stored receipt. */
export interface BucketedReceipt {
  placeId: string;
  eventId: string | null;
  /** When it happened on the store's device (ms): the slot it is summed in. */
  occurredAt: number;
  /** As stored (the figures map unknown codes to `other` when read). */
  paymentMethod: string;
  /** As stored (folded when read). */
  brand: string | null;
  amountCents: number;
  /** Whether it counts toward the figures (the `counted` column); only counted receipts are in buckets. */
  counted: boolean;
}

/** One receipt written in a transaction: its stored state before (undefined: new) and after (undefined: deleted). */
export interface ReceiptChange {
  before: BucketedReceipt | undefined;
  after: BucketedReceipt | undefined;
}

/** The change of one bucket. */
export interface BucketDelta {
  accountId: string;
  placeId: string;
  /** '' for every receipt of the place; else one event's receipts. */
  eventKey: string;
  slotMs: number;
  slotStart: number;
  paymentMethod: string;
  /** 1 when the receipts recorded a brand; 0 (with `brand` '') when they recorded none. */
  branded: 0 | 1;
  brand: string;
  receipts: number;
  amountCents: bigint;
}

/** One bucket's change being summed: its cents a number while that is exact, a bigint past 2^53. */
interface HeldDelta {
  combo: Combo;
  slotStart: number;
  receipts: number;
  cents: number;
  bigCents: bigint | undefined;
}

/** A stored payment method and brand as a bucket's key has them. */
interface Combo {
  key: string;
  paymentMethod: string;
  branded: 0 | 1;
  brand: string;
  /** Its place in the order of the combos' keys, set when the deltas are taken. */
  rank: number;
}

/** The deltas held of one place and event key: per slot length (by index), per slot start, per combo. */
interface HeldGroup {
  key: string;
  placeId: string;
  eventKey: string;
  slots: { length: number; starts: Map<number, Map<Combo, HeldDelta>> }[];
}

/**
 * The bucket deltas of an account's receipt changes, summed per bucket as the changes come: a write of
 * many receipts adds its changes page by page and applies the sum once (or whenever `size` grows past
 * what it means to hold), so that a bucket many receipts fall in is written once, not once a page.
 * Held by place and event key, then slot, then payment method and brand, so that a receipt costs two
 * look-ups by text and numeric ones for its slots, and the deltas come out in the buckets' key order.
 */
export class BucketDeltaSum {
  readonly #groups = new Map<string, HeldGroup>();
  readonly #combos = new Map<string, Combo>();
  #size = 0;

  constructor(
    readonly accountId: string,
    private readonly lengths: readonly number[] = SLOT_LENGTHS,
  ) {}

  /** Buckets held: each one row of the next upsert. */
  get size(): number {
    return this.#size;
  }

  /** Subtracts what the old counted state counted and adds what the new one counts. */
  add({ before, after }: ReceiptChange): void {
    if (before?.counted === true) this.#addReceipt(before, -1);
    if (after?.counted === true) this.#addReceipt(after, 1);
  }

  #combo(paymentMethod: string, brand: string | null): Combo {
    // NUL never occurs in stored text (src/lib/input-text.ts), so it separates the parts unambiguously.
    const key = brand === null ? `${paymentMethod}\u0000` : `${paymentMethod}\u0000\u0000${brand}`;
    let combo = this.#combos.get(key);
    if (combo === undefined) {
      combo = { key, paymentMethod, branded: brand === null ? 0 : 1, brand: brand ?? '', rank: 0 };
      this.#combos.set(key, combo);
    }
    return combo;
  }

  #group(placeId: string, eventKey: string): HeldGroup {
    const key = `${placeId}\u0000${eventKey}`;
    let group = this.#groups.get(key);
    if (group === undefined) {
      const slots = this.lengths.map((length) => ({
        length,
        starts: new Map<number, Map<Combo, HeldDelta>>(),
      }));
      group = { key, placeId, eventKey, slots };
      this.#groups.set(key, group);
    }
    return group;
  }

  #addReceipt(receipt: BucketedReceipt, sign: 1 | -1): void {
    const cents = receipt.amountCents * sign;
    const combo = this.#combo(receipt.paymentMethod, receipt.brand);
    this.#addTo(this.#group(receipt.placeId, ''), combo, receipt.occurredAt, sign, cents);
    if (receipt.eventId !== null)
      this.#addTo(this.#group(receipt.placeId, receipt.eventId), combo, receipt.occurredAt, sign, cents);
  }

  #addTo(group: HeldGroup, combo: Combo, occurredAt: number, sign: 1 | -1, cents: number): void {
    for (const { length, starts } of group.slots) {
      const start = slotStart(occurredAt, length);
      let combos = starts.get(start);
      if (combos === undefined) {
        combos = new Map();
        starts.set(start, combos);
      }
      const held = combos.get(combo);
      if (held === undefined) {
        combos.set(combo, { combo, slotStart: start, receipts: sign, cents, bigCents: undefined });
        this.#size += 1;
        continue;
      }
      held.receipts += sign;
      if (held.bigCents !== undefined) {
        held.bigCents += BigInt(cents);
      } else {
        // Both are safe integers: their sum is exact unless it reaches 2^53, where it is not safe.
        const sum = held.cents + cents;
        if (Number.isSafeInteger(sum)) held.cents = sum;
        else held.bigCents = BigInt(held.cents) + BigInt(cents);
      }
    }
  }

  /**
   * The deltas summed so far, buckets whose changes cancel out left out, in the order of the buckets'
   * key (the same changes always write their buckets in one order); the sum is empty again afterwards.
   */
  take(): BucketDelta[] {
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    [...this.#combos.values()].sort(byKey).forEach((combo, rank) => (combo.rank = rank));
    const deltas: BucketDelta[] = [];
    for (const group of [...this.#groups.values()].sort(byKey)) {
      for (const { length, starts } of group.slots) {
        for (const [start, combos] of [...starts].sort(([a], [b]) => a - b)) {
          const held = [...combos.values()].sort((a, b) => a.combo.rank - b.combo.rank);
          for (const { combo, receipts, cents, bigCents } of held) {
            const amountCents = bigCents ?? BigInt(cents);
            if (receipts === 0 && amountCents === 0n) continue;
            deltas.push({
              accountId: this.accountId,
              placeId: group.placeId,
              eventKey: group.eventKey,
              slotMs: length,
              slotStart: start,
              paymentMethod: combo.paymentMethod,
              branded: combo.branded,
              brand: combo.brand,
              receipts,
              amountCents,
            });
          }
        }
      }
    }
    this.#groups.clear();
    this.#combos.clear();
    this.#size = 0;
    return deltas;
  }
}

/**
 * The bucket deltas of the changes: −1 receipt and −cents for every bucket an old counted state was in,
 * +1 and +cents for every bucket a new counted state is in, summed per bucket; buckets whose changes
 * cancel out are left out. Sorted by bucket: the same changes always write their buckets in one order.
 */
export function bucketDeltas(
  accountId: string,
  changes: Iterable<ReceiptChange>,
  lengths: readonly number[] = SLOT_LENGTHS,
): BucketDelta[] {
  const sum = new BucketDeltaSum(accountId, lengths);
  for (const change of changes) sum.add(change);
  return sum.take();
}

/** The bucket key's columns, in the order of the upserts' values. */
const KEY_COLUMNS = 'account_id, place_id, event_id, slot_ms, slot_start, payment_method, branded, brand';
const ADD_TO_STORED =
  `on conflict (${KEY_COLUMNS}) do update set ` +
  'receipts = pos_sales_buckets.receipts + excluded.receipts, ' +
  'amount_cents = pos_sales_buckets.amount_cents + excluded.amount_cents';

/** SQLite: buckets upserted per statement (10 parameters each, far below SQLite's 32,766). */
const SQLITE_BATCH = 256;
/**
 * PostgreSQL: buckets upserted per statement, one array parameter a column (any number of rows). The
 * driver turns the arrays into text synchronously: a larger statement would hold the event loop longer.
 */
const POSTGRES_BATCH = 2_000;

/**
 * Sizes of the statements that write `count` rows: full batches, then the rest in powers of two. On
 * SQLite every size is one SQL text that the driver keeps compiled, so that a handful of texts is ever
 * prepared, whatever the number of rows.
 */
export function statementSizes(count: number, batch: number): number[] {
  const sizes: number[] = [];
  let left = count;
  for (; left >= batch; left -= batch) sizes.push(batch);
  for (let size = 2 ** Math.floor(Math.log2(batch)); size >= 1 && left > 0; size /= 2) {
    if (left >= size) {
      sizes.push(size);
      left -= size;
    }
  }
  return sizes;
}

/** `rows` rows of `columns` question marks each, the VALUES list of a SQLite multi-row statement. */
export function sqliteValues(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

const sqliteUpserts = new Map<number, string>();
function sqliteUpsert(rows: number): string {
  let text = sqliteUpserts.get(rows);
  if (text === undefined) {
    text = `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) values ${sqliteValues(rows, 10)} ${ADD_TO_STORED}`;
    sqliteUpserts.set(rows, text);
  }
  return text;
}

const POSTGRES_UPSERT =
  `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
  'select * from unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::text[], ' +
  `$7::int4[], $8::text[], $9::int8[], $10::numeric[]) ${ADD_TO_STORED}`;

/**
 * Adds the deltas to the buckets: multi-row `insert … on conflict … do update` adding to the stored sums
 * (a new bucket is created), their SQL written once here rather than built per call (SQLite: rows of
 * parameters; PostgreSQL: one array a column). Then the buckets that lost receipts and are now empty
 * are deleted, so that a bucket exists exactly while it holds counted receipts. Run it in the
 * transaction that writes the receipts.
 */
export async function applyBucketDeltas(db: Db, deltas: readonly BucketDelta[]): Promise<void> {
  if (isPostgres(db)) {
    for (let start = 0; start < deltas.length; start += POSTGRES_BATCH) {
      const batch = deltas.slice(start, start + POSTGRES_BATCH);
      await db.executeQuery(CompiledQuery.raw(POSTGRES_UPSERT, postgresColumns(batch)));
    }
  } else {
    let start = 0;
    for (const size of statementSizes(deltas.length, SQLITE_BATCH)) {
      const parameters: unknown[] = [];
      for (const d of deltas.slice(start, start + size)) {
        parameters.push(
          d.accountId,
          d.placeId,
          d.eventKey,
          d.slotMs,
          d.slotStart,
          d.paymentMethod,
          d.branded,
          d.brand,
          d.receipts,
          d.amountCents,
        );
      }
      await db.executeQuery(CompiledQuery.raw(sqliteUpsert(size), parameters));
      start += size;
      // SQLite works synchronously: between statements the other requests get a turn.
      await nextTurn();
    }
  }
  // Only a bucket that lost receipts can have become empty. The empty buckets of an account are found
  // through a partial index of them (migration 0003), so the delete reads no other bucket; the literal
  // `receipts = 0` is what lets both databases use that index.
  const shrunk = new Set(deltas.filter((delta) => delta.receipts < 0).map((delta) => delta.accountId));
  for (const accountId of shrunk) await deleteEmptyBuckets(db, accountId);
}

/** Deletes the account's buckets that hold no receipts any more (the partial index finds them alone). */
async function deleteEmptyBuckets(db: Db, accountId: string): Promise<void> {
  await db
    .deleteFrom('pos_sales_buckets')
    .where('account_id', '=', accountId)
    // A bucket of no receipts with cents left would be a fault; it stays for the check to report.
    .where(sql<boolean>`receipts = 0 and amount_cents = 0`)
    .execute();
}

// PostgreSQL keeps every version of a row a transaction updates until it ends: an upload that wrote
// its bucket deltas every 50,000 buckets rewrote its larger slots' buckets once a flush, and a
// million-receipt upload grew the bucket table and its index (which carries the sums) to several times
// their size, past the server's cache. There, the deltas of a long upload are held in a temporary table
// of the transaction instead (no WAL, no index, dropped at its end) and merged into the buckets once.

const POSTGRES_SPILL_TABLE = `create temporary table if not exists pos_bucket_deltas (
  account_id text, place_id text, event_id text, slot_ms int8, slot_start int8, payment_method text,
  branded int4, brand text, receipts int8, amount_cents numeric) on commit drop`;
const POSTGRES_SPILL =
  `insert into pos_bucket_deltas (${KEY_COLUMNS}, receipts, amount_cents) ` +
  'select * from unnest($1::text[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::text[], ' +
  '$7::int4[], $8::text[], $9::int8[], $10::numeric[])';
const POSTGRES_MERGE =
  `insert into pos_sales_buckets (${KEY_COLUMNS}, receipts, amount_cents) ` +
  `select ${KEY_COLUMNS}, sum(receipts), sum(amount_cents) from pos_bucket_deltas ` +
  `group by ${KEY_COLUMNS} having sum(receipts) <> 0 or sum(amount_cents) <> 0 ` +
  `order by ${KEY_COLUMNS} ${ADD_TO_STORED}`;

/** The deltas as the arrays of a PostgreSQL statement: one a column, in the order of KEY_COLUMNS. */
function postgresColumns(batch: readonly BucketDelta[]): unknown[] {
  const column = <T>(of: (delta: BucketDelta) => T) => batch.map(of);
  return [
    column((d) => d.accountId),
    column((d) => d.placeId),
    column((d) => d.eventKey),
    column((d) => d.slotMs),
    column((d) => d.slotStart),
    column((d) => d.paymentMethod),
    column((d) => d.branded),
    column((d) => d.brand),
    column((d) => d.receipts),
    column((d) => d.amountCents.toString()),
  ];
}

/**
 * The bucket deltas of a long write, held until its transaction applies them: on PostgreSQL in a
 * temporary table of the transaction, merged into the buckets once at the end (`apply`); on SQLite,
 * which rewrites a row in place, applied at once.
 */
export class BucketDeltaSpill {
  #spilled = false;

  constructor(private readonly db: Db) {}

  /** Holds (PostgreSQL) or applies (SQLite) the deltas. */
  async add(deltas: readonly BucketDelta[]): Promise<void> {
    if (!isPostgres(this.db)) {
      await applyBucketDeltas(this.db, deltas);
      return;
    }
    if (!this.#spilled) await this.db.executeQuery(CompiledQuery.raw(POSTGRES_SPILL_TABLE));
    this.#spilled = true;
    for (let start = 0; start < deltas.length; start += POSTGRES_BATCH) {
      const batch = deltas.slice(start, start + POSTGRES_BATCH);
      await this.db.executeQuery(CompiledQuery.raw(POSTGRES_SPILL, postgresColumns(batch)));
    }
  }

  /** Applies what was held and the last deltas: once a bucket, in the buckets' key order. */
  async apply(accountId: string, last: readonly BucketDelta[]): Promise<void> {
    if (!this.#spilled) {
      await applyBucketDeltas(this.db, last);
      return;
    }
    await this.add(last);
    await this.db.executeQuery(CompiledQuery.raw(POSTGRES_MERGE));
    await this.db.executeQuery(CompiledQuery.raw('drop table pos_bucket_deltas'));
    this.#spilled = false;
    await deleteEmptyBuckets(this.db, accountId);
  }
}
