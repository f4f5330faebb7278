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
