// Days of the proleptic Gregorian calendar, and the days of a fixed UTC offset. Pure arithmetic: no
// Date parsing, no time zone database.

/** A day of the calendar: year, month 1 to 12, day 1 to 31. */
export interface CalendarDay {
  year: number;
  month: number;
  day: number;
}

const DAY_MS = 86_400_000;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Days in the month (1 to 12) of the year. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True when the numbers name a real calendar day. */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil), years 0 to 9999. */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The day of `YYYY-MM-DD`, or null when it is not that shape or not a real calendar date. */
export function parseDay(text: string): CalendarDay | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match === null) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isCalendarDay(year, month, day) ? { year, month, day } : null;
}

/** `YYYY-MM-DD`; such texts sort as their days do. */
export function formatDay(day: CalendarDay): string {
  return `${String(day.year).padStart(4, '0')}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}`;
}

/** The same day `months` later; a day the target month lacks becomes its last day (Feb 29 → Feb 28). */
export function addMonths(day: CalendarDay, months: number): CalendarDay {
  const total = day.year * 12 + (day.month - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  return { year, month, day: Math.min(day.day, daysInMonth(year, month)) };
}

/** The day it is at instant `now` (ms) at a fixed offset from UTC (`offsetMs`, -3 h for UTC-03:00). */
export function dayAt(now: number, offsetMs: number): CalendarDay {
  const shifted = new Date(now + offsetMs);
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() };
}

/** The first instant (ms) of the day at a fixed offset from UTC. */
export function startOfDay(day: CalendarDay, offsetMs: number): number {
  return daysFromCivil(day.year, day.month, day.day) * DAY_MS - offsetMs;
}

/** The last whole second of the day at a fixed offset from UTC: 23:59:59 there. */
export function lastSecondOfDay(day: CalendarDay, offsetMs: number): number {
  return startOfDay(day, offsetMs) + DAY_MS - 1000;
}
