// The time slots of the pre-aggregated sales buckets, and how a period is read from them: whole slots
// from the buckets, largest first, and the raw receipts only inside the partial slots at the two edges.
//
// Slots are aligned on the Unix epoch in UTC and every length is a whole number of hours, each a multiple
// of the one below it. Most UTC offsets in use are whole hours (-03:00, +01:00), so a period bounded at
// local midnights or hours there is read from buckets alone; in an offset of half or quarter hours
// (+05:30, +05:45, -03:30), and for a bound inside an hour (at :30, say), the receipts of the partial
// hour at each edge come from the raw receipts (at most two hours' worth, through the receipts' period
// index). No slot is shorter than an hour: a 15-minute slot of a busy place holds about one receipt, so
// it cost a bucket row written per receipt (more with an event) for reads that an hour of raw receipts
// answers as well (measured: BENCHMARKS.md, NDJSON ingestion (issue 23)).

const HOUR = 3_600_000;

/**
 * Slot lengths in milliseconds, smallest first; each divides the next. Each length is four times the one
 * below it, so a period reads at most six slots of a length (three at each edge) below the largest, and
 * the number of buckets read levels off as receipts grow, whatever the offset of the bounds. The largest,
 * 1024 hours (about 43 days), fits twice in the longest period without an event (120 days); a larger one
 * never would, and would only cost writes (measured against other layouts by `npm run bench:layouts`,
 * bench/sales-layouts.ts). The smallest is an hour: a quarter-hour of a busy place held about one
 * receipt, a bucket row written per receipt for reads that the partial hours' raw receipts answer as
 * well (BENCHMARKS.md, NDJSON ingestion (issue 23)). A counted receipt is in one bucket of each length
 * (twice with an event).
 */
export const SLOT_LENGTHS: readonly number[] = [
  HOUR,
  4 * HOUR,
  16 * HOUR,
  64 * HOUR,
  256 * HOUR,
  1024 * HOUR,
];

/** The smallest slot length (an hour): the one every larger length is summed from. */
export const SMALLEST_SLOT = HOUR;

/** The start of the slot of `length` that holds the instant `ms` (floor, also before 1970). */
export function slotStart(ms: number, length: number): number {
  return ms - (((ms % length) + length) % length);
}

/** Consecutive slots of one length: those whose start is in [from, to). */
interface SlotRun {
  length: number;
  from: number;
  to: number;
}

/** An instant range [from, to) read from the raw receipts. */
interface RawRange {
  from: number;
  to: number;
}

/** How a period is read: whole slots from the buckets, and raw receipts in the partial edge slots. */
export interface PeriodReading {
  /** At most two runs a slot length (one at each edge; the largest may be one run in the middle). */
  slots: SlotRun[];
  /** At most two ranges, each inside one smallest slot: the edges the slots do not cover whole. */
  raw: RawRange[];
}

/**
 * Splits the period [from, to) (ms; from included, to excluded) into runs of whole slots, largest first,
 * and the raw ranges at its edges. The runs and ranges are disjoint and cover the period exactly; an
 * empty or reversed period reads nothing.
 */
export function periodReading(
  from: number,
  to: number,
  lengths: readonly number[] = SLOT_LENGTHS,
): PeriodReading {
  if (!(from < to)) return { slots: [], raw: [] };
  const smallest = lengths[0];
  if (smallest === undefined) return { slots: [], raw: [{ from, to }] };
  const start = from === slotStart(from, smallest) ? from : slotStart(from, smallest) + smallest;
  const end = slotStart(to, smallest);
  if (start >= end) return { slots: [], raw: [{ from, to }] };
  const raw: RawRange[] = [];
  if (from < start) raw.push({ from, to: start });
  if (end < to) raw.push({ from: end, to });
  const slots: SlotRun[] = [];
  cover(start, end, lengths.length - 1, lengths, slots);
  slots.sort((a, b) => b.length - a.length || a.from - b.from);
  return { slots, raw };
}

/** Covers [from, to), both on smallest-slot boundaries, with the largest whole slots, recursively. */
function cover(from: number, to: number, level: number, lengths: readonly number[], into: SlotRun[]): void {
  const length = lengths[level];
  if (from >= to || length === undefined) return;
  if (level === 0) {
    into.push({ length, from, to });
    return;
  }
  const first = from === slotStart(from, length) ? from : slotStart(from, length) + length;
  const last = slotStart(to, length);
  if (first >= last) {
    cover(from, to, level - 1, lengths, into);
    return;
  }
  cover(from, first, level - 1, lengths, into);
  into.push({ length, from: first, to: last });
  cover(last, to, level - 1, lengths, into);
}
