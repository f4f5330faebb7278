import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonths,
  dayAt,
  daysInMonth,
  formatDay,
  lastSecondOfDay,
  parseDay,
  startOfDay,
} from '../../src/lib/calendar.js';
import { parseInstant } from '../../src/lib/instant.js';

// The calendar leaf module against the platform's own Date arithmetic, over years 1 to 9999.

const UTC_MINUS_3 = -3 * 3_600_000;
const day = fc
  .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }), day: fc.nat() })
  .map((d) => ({ ...d, day: 1 + (d.day % daysInMonth(d.year, d.month)) }));

function dateUtc(year: number, month: number, dayOfMonth: number): Date {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, dayOfMonth);
  return date;
}

describe('calendar', () => {
  it('days in a month agree with Date (leap years: every 4, not every 100, every 400)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(daysInMonth(year, month)).toBe(dateUtc(year, month + 1, 0).getUTCDate());
      }),
    );
    expect([daysInMonth(2024, 2), daysInMonth(1900, 2), daysInMonth(2000, 2)]).toEqual([29, 28, 29]);
  });

  it('a day is read back as it was written, and impossible days are refused', () => {
    fc.assert(
      fc.property(day, (d) => {
        expect(parseDay(formatDay(d))).toEqual(d);
      }),
    );
    for (const text of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-00-10', '26-01-01', '2026-1-01'])
      expect(parseDay(text)).toBeNull();
  });

  it('the first and last second of a day at UTC-03:00 are 03:00:00Z and the next day 02:59:59Z', () => {
    fc.assert(
      fc.property(day, (d) => {
        const start = dateUtc(d.year, d.month, d.day).getTime() + 3 * 3_600_000;
        expect(startOfDay(d, UTC_MINUS_3)).toBe(start);
        expect(lastSecondOfDay(d, UTC_MINUS_3)).toBe(start + 86_400_000 - 1000);
        expect(dayAt(start, UTC_MINUS_3)).toEqual(d);
        expect(dayAt(start - 1, UTC_MINUS_3)).not.toEqual(d);
      }),
    );
  });

  it('adding months keeps the day, or the last day of a shorter month', () => {
    expect(addMonths({ year: 2024, month: 2, day: 29 }, 12)).toEqual({ year: 2025, month: 2, day: 28 });
    expect(addMonths({ year: 2026, month: 1, day: 31 }, 1)).toEqual({ year: 2026, month: 2, day: 28 });
    expect(addMonths({ year: 2026, month: 11, day: 22 }, 24)).toEqual({ year: 2028, month: 11, day: 22 });
  });
});

describe('instants with a mandatory offset', () => {
  it('agree with Date.parse on every valid instant', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('0001-01-01T00:00:00Z'),
          max: new Date('9999-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (date, offsetMinutes) => {
          const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(parseInstant(`${local}${offset}`)).toBe(date.getTime());
        },
      ),
    );
  });

  it('refuses a missing offset, an impossible date and an out-of-range offset', () => {
    for (const text of [
      '2026-11-20T21:30:00',
      '2026-02-30T00:00:00Z',
      '2026-11-20T21:30:00+24:00',
      '2026-11-20',
    ])
      expect(parseInstant(text)).toBeNull();
    expect(parseInstant('2026-11-21T00:30:00.250Z')).toBe(Date.UTC(2026, 10, 21, 0, 30, 0, 250));
    expect(parseInstant('2026-11-20T21:30-03:00')).toBe(Date.UTC(2026, 10, 21, 0, 30));
  });
});
