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

/** A stored payment method and brand as a bucket's key has them. */
interface Combo {
  key: string;
  paymentMethod: string;
  branded: 0 | 1;
  brand: string;
  /** Its number in this sum: where it was first seen. */
  id: number;
}

/** The deltas held of one place and event key. */
interface HeldGroup {
  key: string;
  placeId: string;
  eventKey: string;
  /** Its number in this sum. */
  id: number;
}

/** Room for held deltas, grown by doubling. */
const FIRST_ROOM = 256;

/**
 * The bucket deltas of an account's receipt changes, summed per bucket as the changes come: a write of
 * many receipts adds its changes page by page and applies the sum once (or whenever `size` grows past
 * what it means to hold), so that a bucket many receipts fall in is written once, not once a page.
 *
 * An upload's staging sums a whole upload's receipts here (src/pos/receipts/receipt-staging.ts), so a
 * held delta is a few numbers in typed arrays, found by a hash table in a typed array too, not an object
 * of the JavaScript heap: a million receipts of a year hold about 200,000 deltas in some 10 MB outside
 * the heap. Held on the heap, as maps and objects, they kept the server's heap growing while a large
 * upload was staged (BENCHMARKS.md, NDJSON ingestion).
 */
export class BucketDeltaSum {
  readonly #groups = new Map<string, Map<string, HeldGroup>>();
  readonly #groupList: HeldGroup[] = [];
  readonly #combos = new Map<string, Map<string | null, Combo>>();
  readonly #comboList: Combo[] = [];
  #group = new Int32Array(FIRST_ROOM);
  #length = new Uint8Array(FIRST_ROOM);
  #combo = new Int32Array(FIRST_ROOM);
  #start = new Float64Array(FIRST_ROOM);
  #receipts = new Float64Array(FIRST_ROOM);
  #cents = new Float64Array(FIRST_ROOM);
  /**
   * The held deltas by bucket key, an open-addressing hash table: each cell the index of a held delta
   * plus one, 0 when empty; twice the room, so that it is at most half full and a look-up ends soon.
   */
  #table = new Int32Array(FIRST_ROOM * 2);
  /** The cents of the deltas whose sum left the safe integers, by index (its `#cents` then unused). */
  readonly #bigCents = new Map<number, bigint>();
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
    if (before?.counted === true) this.addCounted(before, -1);
    if (after?.counted === true) this.addCounted(after, 1);
  }

  #comboOf(paymentMethod: string, brand: string | null): Combo {
    let brands = this.#combos.get(paymentMethod);
    if (brands === undefined) {
      brands = new Map();
      this.#combos.set(paymentMethod, brands);
    }
    let combo = brands.get(brand);
    if (combo === undefined) {
      // NUL never occurs in stored text (src/lib/input-text.ts), so it separates the parts unambiguously.
      const key = brand === null ? `${paymentMethod}\u0000` : `${paymentMethod}\u0000\u0000${brand}`;
      const id = this.#comboList.length;
      combo = { key, paymentMethod, branded: brand === null ? 0 : 1, brand: brand ?? '', id };
      brands.set(brand, combo);
      this.#comboList.push(combo);
    }
    return combo;
  }

  #groupOf(placeId: string, eventKey: string): HeldGroup {
    let events = this.#groups.get(placeId);
    if (events === undefined) {
      events = new Map();
      this.#groups.set(placeId, events);
    }
    let group = events.get(eventKey);
    if (group === undefined) {
      const id = this.#groupList.length;
      group = { key: `${placeId}\u0000${eventKey}`, placeId, eventKey, id };
      events.set(eventKey, group);
      this.#groupList.push(group);
    }
    return group;
  }

  /** Adds (1) or subtracts (-1) a counted receipt in every bucket it is in. */
  addCounted(receipt: Omit<BucketedReceipt, 'counted'>, sign: 1 | -1): void {
    const cents = receipt.amountCents * sign;
    const combo = this.#comboOf(receipt.paymentMethod, receipt.brand);
    this.#addTo(this.#groupOf(receipt.placeId, ''), combo, receipt.occurredAt, sign, cents);
    if (receipt.eventId !== null)
      this.#addTo(this.#groupOf(receipt.placeId, receipt.eventId), combo, receipt.occurredAt, sign, cents);
  }

  #addTo(group: HeldGroup, combo: Combo, occurredAt: number, sign: 1 | -1, cents: number): void {
    for (let length = 0; length < this.lengths.length; length += 1) {
      const start = slotStart(occurredAt, this.lengths[length] ?? 1);
      const held = this.#find(group.id, length, combo.id, start);
      if (held < 0) {
        this.#hold(group.id, length, combo.id, start, sign, cents);
        continue;
      }
      this.#receipts[held] = (this.#receipts[held] ?? 0) + sign;
      const big = this.#bigCents.get(held);
      if (big !== undefined) {
        this.#bigCents.set(held, big + BigInt(cents));
      } else {
        // Both are safe integers: their sum is exact unless it reaches 2^53, where it is not safe.
        const sum = (this.#cents[held] ?? 0) + cents;
        if (Number.isSafeInteger(sum)) this.#cents[held] = sum;
        else this.#bigCents.set(held, BigInt(this.#cents[held] ?? 0) + BigInt(cents));
      }
    }
  }

  /** Where the bucket's key starts looking in `#table`. */
  #home(group: number, length: number, combo: number, start: number): number {
    // The slot's number (its start over its length) is a small integer; `| 0` keeps its low 32 bits.
    const slot = Math.floor(start / (this.lengths[length] ?? 1)) | 0;
    let hash = Math.imul(group + 1, 0x9e3779b1) ^ Math.imul(combo + 1, 0x85ebca77) ^ (length << 27);
    hash = Math.imul(hash ^ slot, 0xc2b2ae3d);
    hash ^= hash >>> 15;
    return hash & (this.#table.length - 1);
  }

  /** The index of the held delta of the bucket's key, or -1. */
  #find(group: number, length: number, combo: number, start: number): number {
    const mask = this.#table.length - 1;
    for (let at = this.#home(group, length, combo, start); ; at = (at + 1) & mask) {
      const held = (this.#table[at] ?? 0) - 1;
      if (held < 0) return -1;
      if (
        this.#start[held] === start &&
        this.#combo[held] === combo &&
        this.#group[held] === group &&
        this.#length[held] === length
      ) {
        return held;
      }
    }
  }

  /** Enters the held delta `held` into `#table`, which has room. */
  #enter(held: number): void {
    const mask = this.#table.length - 1;
    const group = this.#group[held] ?? 0;
    let at = this.#home(group, this.#length[held] ?? 0, this.#combo[held] ?? 0, this.#start[held] ?? 0);
    while ((this.#table[at] ?? 0) !== 0) at = (at + 1) & mask;
    this.#table[at] = held + 1;
  }

  /** A new held delta. */
  #hold(group: number, length: number, combo: number, start: number, receipts: number, cents: number): void {
    const at = this.#size;
    if (at === this.#group.length) this.#grow();
    this.#group[at] = group;
    this.#length[at] = length;
    this.#combo[at] = combo;
    this.#start[at] = start;
    this.#receipts[at] = receipts;
    this.#cents[at] = cents;
    this.#size += 1;
    this.#enter(at);
  }

  /** Twice the room for held deltas, and a table twice as large again, refilled. */
  #grow(): void {
    const room = this.#group.length * 2;
    const grown = <A extends Int32Array | Uint8Array | Float64Array>(array: A, make: (n: number) => A) => {
      const next = make(room);
      next.set(array);
      return next;
    };
    this.#group = grown(this.#group, (n) => new Int32Array(n));
    this.#length = grown(this.#length, (n) => new Uint8Array(n));
    this.#combo = grown(this.#combo, (n) => new Int32Array(n));
    this.#start = grown(this.#start, (n) => new Float64Array(n));
    this.#receipts = grown(this.#receipts, (n) => new Float64Array(n));
    this.#cents = grown(this.#cents, (n) => new Float64Array(n));
    this.#table = new Int32Array(room * 2);
    for (let held = 0; held < this.#size; held += 1) this.#enter(held);
  }

  /**
   * The deltas summed so far, one at a time, buckets whose changes cancel out left out, in the order of
   * the buckets' key (the same changes always write their buckets in one order); the sum is empty again
   * once they are all taken (or the taking stops).
   */
  *drain(): Generator<BucketDelta> {
    const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    const ranks = (list: readonly { key: string; id: number }[]) => {
      const rank = new Int32Array(list.length);
      [...list].sort(byKey).forEach((item, at) => (rank[item.id] = at));
      return rank;
    };
    const groups = this.#groupList;
    const combos = this.#comboList;
    const groupRank = ranks(groups);
    const comboRank = ranks(combos);
    const group = this.#group;
    const length = this.#length;
    const start = this.#start;
    const combo = this.#combo;
    const order = new Int32Array(this.#size).map((_, index) => index);
    order.sort(
      (a, b) =>
        (groupRank[group[a] ?? 0] ?? 0) - (groupRank[group[b] ?? 0] ?? 0) ||
        (length[a] ?? 0) - (length[b] ?? 0) ||
        (start[a] ?? 0) - (start[b] ?? 0) ||
        (comboRank[combo[a] ?? 0] ?? 0) - (comboRank[combo[b] ?? 0] ?? 0),
    );
    try {
      for (const index of order) {
        const receipts = this.#receipts[index] ?? 0;
        const amountCents = this.#bigCents.get(index) ?? BigInt(this.#cents[index] ?? 0);
        if (receipts === 0 && amountCents === 0n) continue;
        const held = groups[group[index] ?? 0];
        const key = combos[combo[index] ?? 0];
        if (held === undefined || key === undefined) continue;
        yield {
          accountId: this.accountId,
          placeId: held.placeId,
          eventKey: held.eventKey,
          slotMs: this.lengths[length[index] ?? 0] ?? 0,
          slotStart: start[index] ?? 0,
          paymentMethod: key.paymentMethod,
          branded: key.branded,
          brand: key.brand,
          receipts,
          amountCents,
        };
      }
    } finally {
      this.#clear();
    }
  }

  /** The deltas summed so far, as `drain` yields them; the sum is empty again afterwards. */
  take(): BucketDelta[] {
    return [...this.drain()];
  }

  #clear(): void {
    this.#groups.clear();
    this.#groupList.length = 0;
    this.#combos.clear();
    this.#comboList.length = 0;
    this.#bigCents.clear();
    this.#table.fill(0);
    this.#size = 0;
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
