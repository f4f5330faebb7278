import { daysFromCivil, isCalendarDay } from './calendar.js';

// Instants as the back office receives them (docs/pos-api.md, Conventions: the offset is mandatory).

const INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d\d):(\d\d))$/;

/**
 * Parses an ISO 8601 instant whose offset (`Z` or `±hh:mm`) is mandatory:
 * `2026-11-20T21:30:00-03:00`, `2026-11-21T00:30:00.250Z`. Seconds and fractions are optional; fractions
 * below the millisecond are dropped. Returns milliseconds since the epoch, or null.
 */
export function parseInstant(value: string): number | null {
  const match = INSTANT.exec(value);
  if (match === null) return null;
  const [, y, mo, d, h, mi, s = '0', fraction = '', sign, oh = '0', om = '0'] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (!isCalendarDay(year, month, day) || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'));
  return (
    (daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + millis - offset
  );
}
