import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { periodReading, SLOT_LENGTHS, slotStart } from '../../src/pos/sales/sales-bucket-layout.js';

// How a period is read from the sales buckets (src/pos/sales/sales-bucket-layout.ts): whole slots, largest
// first, and raw receipts only in the partial hours at its two edges. The readings are checked
// here against the period itself, millisecond by millisecond in intervals, for any bounds.

const MINUTE = 60_000;
const QUARTER = 15 * MINUTE;
const HOUR = 60 * MINUTE;
const DAY = 86_400_000;

/** Any instant the back office accepts (years 0000 to 9999), and ones near the epoch and today. */
const anyInstant = fc.oneof(
  fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }),
  fc.integer({ min: -3 * DAY, max: 3 * DAY }),
  fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2027, 0, 1) }),
  fc
    .tuple(fc.integer({ min: -200_000, max: 200_000 }), fc.constantFrom(0, 1, -1, 30_000))
    .map(([quarters, delta]) => quarters * QUARTER + delta),
);
const period = fc.tuple(anyInstant, anyInstant).map(([a, b]): [number, number] => (a <= b ? [a, b] : [b, a]));

/** The reading as intervals [from, to), sorted. */
function intervals(from: number, to: number): [number, number][] {
  const reading = periodReading(from, to);
  return [
    ...reading.slots.map((run): [number, number] => [run.from, run.to]),
    ...reading.raw.map((range): [number, number] => [range.from, range.to]),
  ].sort((a, b) => a[0] - b[0]);
}

describe('sales bucket layout', () => {
  it('slot lengths: whole hours, each dividing the next, smallest first', () => {
    expect(SLOT_LENGTHS[0]).toBe(HOUR);
    for (const [index, length] of SLOT_LENGTHS.entries()) {
      expect(length % HOUR).toBe(0);
      if (index > 0) expect(length % SLOT_LENGTHS[index - 1]!).toBe(0);
    }
  });

  it('slotStart: the slot holding an instant starts on it or less than a length before, on a multiple of the length, before 1970 too', () => {
    expect(slotStart(-1, QUARTER)).toBe(-QUARTER);
    expect(slotStart(-QUARTER, QUARTER)).toBe(-QUARTER);
    expect(slotStart(0, QUARTER)).toBe(0);
    expect(slotStart(QUARTER - 1, QUARTER)).toBe(0);
    fc.assert(
      fc.property(anyInstant, fc.constantFrom(...SLOT_LENGTHS), (ms, length) => {
        const start = slotStart(ms, length);
        expect(start <= ms && ms - start < length).toBe(true);
        expect(Math.abs(start % length)).toBe(0);
      }),
    );
  });

  it('periodReading: whole slots and raw ranges cover the period exactly once, with neither gap nor overlap', () => {
    fc.assert(
      fc.property(period, ([from, to]) => {
        let covered = from;
        for (const [start, end] of intervals(from, to)) {
          expect(start).toBe(covered);
          expect(end).toBeGreaterThan(start);
          covered = end;
        }
        expect(covered).toBe(to);
      }),
      { numRuns: 500 },
    );
  });

  it('periodReading: runs are whole slots on multiples of their length, at most two runs a length, largest first', () => {
    fc.assert(
      fc.property(period, ([from, to]) => {
        const { slots } = periodReading(from, to);
        for (const run of slots) {
          expect(SLOT_LENGTHS).toContain(run.length);
          expect(slotStart(run.from, run.length)).toBe(run.from);
          expect(slotStart(run.to, run.length)).toBe(run.to);
        }
        for (const length of SLOT_LENGTHS) {
          expect(slots.filter((run) => run.length === length).length).toBeLessThanOrEqual(2);
        }
        expect(slots.map((run) => run.length)).toEqual(slots.map((run) => run.length).sort((a, b) => b - a));
      }),
      { numRuns: 500 },
    );
  });

  it('periodReading: raw receipts are read only inside the partial hours at the two edges', () => {
    fc.assert(
      fc.property(period, ([from, to]) => {
        const { raw } = periodReading(from, to);
        expect(raw.length).toBeLessThanOrEqual(2);
        // The hours holding the first and the last millisecond of the period.
        const first = slotStart(from, HOUR);
        const last = slotStart(to - 1, HOUR);
        for (const range of raw) {
          const inFirst = range.from >= first && range.to <= first + HOUR;
          const inLast = range.from >= last && range.to <= last + HOUR;
          // A period with no whole hour inside is read raw: at most its two partial ones.
          const inBoth = last <= first + HOUR && range.from === from && range.to === to;
          expect(inFirst || inLast || inBoth, JSON.stringify({ from, to, range })).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('periodReading: whole local days in an offset of whole hours (+14:00, -03:00, 0, -10:00) read no raw receipt', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(840, -180, 0, -600, 60),
        fc.integer({ min: -400, max: 400 }),
        fc.integer({ min: 1, max: 120 }),
        (offsetMinutes, day, days) => {
          const midnight = Date.UTC(2026, 10, 20) - offsetMinutes * MINUTE + day * DAY;
          expect(periodReading(midnight, midnight + days * DAY).raw).toEqual([]);
        },
      ),
    );
  });

  it('periodReading: whole local days in an offset of half or quarter hours (+05:45, -03:30, +05:30) read raw receipts only in the partial hour at each edge', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(345, -210, 330, -570),
        fc.integer({ min: -400, max: 400 }),
        fc.integer({ min: 1, max: 120 }),
        (offsetMinutes, day, days) => {
          const midnight = Date.UTC(2026, 10, 20) - offsetMinutes * MINUTE + day * DAY;
          const to = midnight + days * DAY;
          expect(periodReading(midnight, to).raw).toEqual([
            { from: midnight, to: slotStart(midnight, HOUR) + HOUR },
            { from: slotStart(to, HOUR), to },
          ]);
        },
      ),
    );
  });

  it('periodReading: 120 days with bounds at :30 in UTC-03:00 read raw receipts for 59.5 minutes and 30 seconds, and at most six slots a length below the largest', () => {
    const from = Date.parse('2026-06-01T00:00:30-03:00');
    const to = Date.parse('2026-09-29T00:00:30-03:00');
    const reading = periodReading(from, to);
    expect(reading.raw).toEqual([
      { from, to: Date.parse('2026-06-01T04:00:00Z') },
      { from: Date.parse('2026-09-29T03:00:00Z'), to },
    ]);
    const largest = SLOT_LENGTHS.at(-1)!;
    for (const length of SLOT_LENGTHS.filter((l) => l !== largest)) {
      const slots = reading.slots
        .filter((run) => run.length === length)
        .reduce((sum, run) => sum + (run.to - run.from) / length, 0);
      expect(slots, `slots of ${length / MINUTE} minutes`).toBeLessThanOrEqual(6);
    }
  });

  it('periodReading: an empty or reversed period reads nothing; one inside an hour only raw receipts', () => {
    expect(periodReading(1000, 1000)).toEqual({ slots: [], raw: [] });
    expect(periodReading(2000, 1000)).toEqual({ slots: [], raw: [] });
    expect(periodReading(HOUR + 1, 2 * HOUR - 1)).toEqual({
      slots: [],
      raw: [{ from: HOUR + 1, to: 2 * HOUR - 1 }],
    });
  });
});
