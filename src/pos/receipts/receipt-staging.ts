import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import { SMALLEST_SLOT } from '../sales/sales-bucket-layout.js';
import { BucketDeltaSum } from '../sales/sales-buckets.js';
import { sameReceipt, type ReceiptData } from './receipt-repository.js';
import { countsTowardFigures } from './receipt-rules.js';

// The receipts of one upload, kept outside the service's database until the upload is whole
// (docs/admin-rules.md, Point of sale: a bad receipt rejects the whole call). Kept in a SQLite file of the
// upload's own in the temporary folder (deleted when it is closed, paged to disk past a few megabytes), so
// that an upload of any length holds no connection of the service's database while its body arrives, and
// bounded memory. A SQLite service database attaches the file for the last step, which then reads the
// staged receipts in SQL (receipt-apply-sqlite.ts); on PostgreSQL they are read back page by page.
//
// For a SQLite service database, while the receipts arrive, the staging also sums what the staged
// versions count per smallest sales slot (src/pos/sales/sales-buckets.ts): a receipt costs a few look-ups
// in memory here, where summing them in the last step cost a random upsert in SQL per receipt, inside the
// one transaction that holds the writer (BENCHMARKS.md, NDJSON ingestion).

/** A checked receipt of an upload and where it sits in it (0-based index or 1-based NDJSON line). */
export interface UploadedReceipt {
  receipt: ReceiptData;
  position: number;
}

/** Counts of versions of a receipt that came again in the upload, compared with the version before. */
interface RepeatCounts {
  updated: number;
  unchanged: number;
}

/**
 * SQLite's page cache of a staging database, in KiB, on its own connection and where the service's
 * database attaches it: it is written and read in order, so the rest goes to disk.
 */
export const STAGING_CACHE_KIB = 2 * 1024;

interface Row {
  id: string;
  position: number;
  place_id: string;
  event_id: string | null;
  occurred_at: number;
  payment_method: string;
  brand: string | null;
  amount_cents: number;
  kind: string | null;
  status: string;
  demo: number;
  counted: number;
  first: string | null;
  changed: number;
}

/** The staged table's columns: a receipt's stored columns (`counted` derived), then the upload's own. */
const COLUMNS =
  'id, position, place_id, event_id, occurred_at, payment_method, brand, amount_cents, kind, status, demo, counted, first, changed';

const toReceipt = (row: Row): ReceiptData => ({
  id: row.id,
  placeId: row.place_id,
  eventId: row.event_id,
  occurredAt: row.occurred_at,
  paymentMethod: row.payment_method,
  brand: row.brand,
  amountCents: row.amount_cents,
  kind: row.kind,
  status: row.status,
  demo: row.demo === 1,
});

const HOUR = SMALLEST_SLOT;

/** Summed slots written per statement into the staging file's `hours`. */
const HOURS_PER_INSERT = 100;
/** Summed slots written between two turns of the event loop. */
const HOURS_PER_TURN = 20_000;

// The first version of a receipt sent again is rare: it is kept as JSON beside the last one.
const encode = (receipt: ReceiptData) => JSON.stringify(receipt);

/** The columns of a staged receipt in a page of `jsonPages`, in the order each row's array holds them. */
export const PAGE_COLUMNS = [
  'id',
  'place_id',
  'event_id',
  'occurred_at',
  'payment_method',
  'brand',
  'amount_cents',
  'kind',
  'status',
  'demo',
  'counted',
  'first',
  'changed',
] as const;

/** The staging store of one upload; `close` deletes it. */
export interface ReceiptStaging {
  /**
   * The staging file, which a SQLite service database attaches to read the staged receipts in SQL: table
   * `staged` (COLUMNS above), one row an id, the last version of the upload; `first` is the first
   * version as JSON (a ReceiptData) when the id came more than once, `changed` 1 when a later version
   * differed from the one before it. Every change is committed by the time `add` returns. Once
   * `writeHourSums` has run, table `hours` holds the staged receipts' sums per smallest sales slot.
   */
  readonly path: string;
  /** Adds receipts in upload order: a receipt id already staged is replaced, its repeat counted. */
  add(receipts: readonly UploadedReceipt[]): void;
  /** Forgets every staged receipt (a JSON body whose `receipts` came twice: the last one counts). */
  clear(): void;
  /** The repeats counted so far. */
  repeats(): RepeatCounts;
  /**
   * Opened with `sumHours`: writes what the staged receipts (each id's last version) count per smallest
   * sales slot into table `hours` of the file, in the order of its key by rowid, one row a bucket key of
   * the sales buckets less the account and slot length: place_id, event_id ('' for every receipt of the
   * place), slot_start, payment_method, branded, brand ('' when unbranded), receipts, amount_cents. Sums
   * that cancel out are left out. The other requests get turns meanwhile. No receipt may be added
   * afterwards.
   */
  writeHourSums(): Promise<void>;
  /**
   * The staged receipts by id, `pageSize` at a time, each page one JSON text written by SQLite: an array
   * of rows, each an array of the staged table's columns in the order of PAGE_COLUMNS (`first` a JSON
   * text itself, or null). No object a receipt is made on the way: a page is one string.
   */
  jsonPages(pageSize: number): Generator<string>;
  /** The distinct places, and events with their place, that staged receipts name. */
  references(): { places: string[]; events: { placeId: string; eventId: string }[] };
  /** The first position of a staged receipt in `placeId` (and `eventId`, when given). */
  firstPosition(placeId: string, eventId?: string): number | undefined;
  close(): void;
}

/** The staged row of a receipt: its stored columns, then the upload's own. */
const values = (
  receipt: ReceiptData,
  position: number,
  first: string | null,
  changed: boolean,
  counted: boolean,
) =>
  [
    receipt.id,
    position,
    receipt.placeId,
    receipt.eventId,
    receipt.occurredAt,
    receipt.paymentMethod,
    receipt.brand,
    receipt.amountCents,
    receipt.kind,
    receipt.status,
    receipt.demo ? 1 : 0,
    counted ? 1 : 0,
    first,
    changed ? 1 : 0,
  ] as const;

/** Writes the sums of `sum` into a new table `hours` of the staging file (ReceiptStaging.writeHourSums). */
async function writeHours(store: SQLite.Database, sum: BucketDeltaSum): Promise<void> {
  store.exec(`create table hours (
    place_id text not null, event_id text not null, slot_start integer not null,
    payment_method text not null, branded integer not null, brand text not null,
    receipts integer not null, amount_cents integer not null)`);
  const insert = (rows: number) =>
    store.prepare(
      'insert into hours (place_id, event_id, slot_start, payment_method, branded, brand, receipts, ' +
        `amount_cents) values ${Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
    );
  const full = insert(HOURS_PER_INSERT);
  let held: unknown[] = [];
  let written = 0;
  // Nothing else writes the file now: one transaction, with the other requests' turns inside it.
  store.exec('begin');
  for (const d of sum.drain()) {
    held.push(d.placeId, d.eventKey, d.slotStart, d.paymentMethod, d.branded, d.brand, d.receipts);
    held.push(d.amountCents);
    if (held.length < HOURS_PER_INSERT * 8) continue;
    full.run(held);
    held = [];
    written += HOURS_PER_INSERT;
    if (written % HOURS_PER_TURN === 0) await nextTurn();
  }
  if (held.length > 0) insert(held.length / 8).run(held);
  store.exec('commit');
}

/**
 * Opens the staging store of one upload. With `sumHours` (a SQLite service database, whose last step
 * reads them) it sums the staged receipts per smallest sales slot as they come, for `writeHourSums`.
 */
export function openReceiptStaging({ sumHours = false }: { sumHours?: boolean } = {}): ReceiptStaging {
  const path = join(tmpdir(), `receipt-upload-${randomUUID()}.sqlite`);
  const store = new SQLite(path);
  store.pragma('journal_mode = OFF');
  store.pragma('synchronous = OFF');
  store.pragma(`cache_size = -${STAGING_CACHE_KIB}`);
  store.exec(`create table staged (
    id text primary key,
    position integer not null,
    place_id text not null,
    event_id text,
    occurred_at integer not null,
    payment_method text not null,
    brand text,
    amount_cents integer not null,
    kind text,
    status text not null,
    demo integer not null,
    counted integer not null,
    first text,
    changed integer not null
  ) without rowid`);
  // A receipt id comes once in most uploads: it is inserted, and only an id already staged (the insert
  // changed nothing) is read back, compared and replaced.
  const insertNew = store.prepare(
    `insert into staged (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (id) do nothing`,
  );
  const findOne = store.prepare<[string], Row>(`select ${COLUMNS} from staged where id = ?`);
  const put = store.prepare(
    `insert or replace into staged (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const jsonPage = store.prepare<[string, number], { page: string; last: string | null }>(
    `select json_group_array(json_array(${PAGE_COLUMNS.join(', ')})) as page, max(id) as last ` +
      `from (select * from staged where id > ? order by id limit ?)`,
  );
  const counts: RepeatCounts = { updated: 0, unchanged: 0 };
  // The staging file is one account's upload: its sums carry no account.
  const newSums = () => (sumHours ? new BucketDeltaSum('', [HOUR]) : undefined);
  let sums = newSums();
  let sumsWritten = false;

  const add = store.transaction((receipts: readonly UploadedReceipt[]) => {
    if (sumsWritten) throw new Error('receipts added to a staging whose sums were written');
    const sum = sums;
    for (const { receipt, position } of receipts) {
      const counted = countsTowardFigures(receipt);
      if (insertNew.run(...values(receipt, position, null, false, counted)).changes === 1) {
        if (counted) sum?.addCounted(receipt, 1);
        continue;
      }
      const row = findOne.get(receipt.id);
      if (row === undefined) throw new Error(`staged receipt ${receipt.id} vanished`);
      const before = toReceipt(row);
      if (row.counted === 1) sum?.addCounted(before, -1);
      if (counted) sum?.addCounted(receipt, 1);
      const same = sameReceipt(before, receipt);
      if (same) counts.unchanged += 1;
      else counts.updated += 1;
      put.run(...values(receipt, position, row.first ?? encode(before), row.changed === 1 || !same, counted));
    }
  });

  return {
    path,
    add(receipts) {
      if (receipts.length > 0) add(receipts);
    },
    clear() {
      store.exec('delete from staged');
      sums = newSums();
      counts.updated = 0;
      counts.unchanged = 0;
    },
    repeats: () => ({ ...counts }),
    async writeHourSums() {
      if (sums === undefined) throw new Error('this staging keeps no sums, or wrote them already');
      const sum = sums;
      sums = undefined;
      sumsWritten = true;
      await writeHours(store, sum);
    },
    *jsonPages(pageSize) {
      let after = '';
      for (;;) {
        // An aggregate answers one row, its `last` null once no receipt is left.
        const row = jsonPage.get(after, pageSize);
        if (row === undefined || row.last === null) return;
        yield row.page;
        after = row.last;
      }
    },
    references() {
      const places = store.prepare<[], { place_id: string }>('select distinct place_id from staged').all();
      const events = store
        .prepare<[], { place_id: string; event_id: string }>(
          'select distinct place_id, event_id from staged where event_id is not null',
        )
        .all();
      return {
        places: places.map((row) => row.place_id),
        events: events.map((row) => ({ placeId: row.place_id, eventId: row.event_id })),
      };
    },
    firstPosition(placeId, eventId) {
      const row =
        eventId === undefined
          ? store
              .prepare<[string], { p: number | null }>(
                'select min(position) as p from staged where place_id = ?',
              )
              .get(placeId)
          : store
              .prepare<[string, string], { p: number | null }>(
                'select min(position) as p from staged where place_id = ? and event_id = ?',
              )
              .get(placeId, eventId);
      return row?.p ?? undefined;
    },
    close() {
      store.close();
      rmSync(path, { force: true });
    },
  };
}
