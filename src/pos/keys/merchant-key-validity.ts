import {
  addMonths,
  dayAt,
  formatDay,
  lastSecondOfDay,
  parseDay,
  type CalendarDay,
} from '../../lib/calendar.js';
import type { KeyRefusal } from './merchant-key-refusal.js';

// How long a merchant's key is valid (docs/admin-rules.md, Point of sale: POST keys `expires_on`;
// docs/pos-api.md, States and transitions): 12 months by default, at most 24, to the end of a day in
// UTC-03:00.

/** Validity: 12 months by default, at most 24. */
const DEFAULT_VALIDITY_MONTHS = 12;
export const MAX_VALIDITY_MONTHS = 24;
/** Key dates are days of UTC-03:00: validity ends at 23:59:59 of the date there. */
const KEY_DAY_OFFSET_MS = -3 * 3_600_000;

/** Today in UTC-03:00. */
export function today(now: number): CalendarDay {
  return dayAt(now, KEY_DAY_OFFSET_MS);
}

/** The last valid instant of a key valid until `day`: 23:59:59 there in UTC-03:00 (next day 02:59:59Z). */
function expiryInstant(day: CalendarDay): number {
  return lastSecondOfDay(day, KEY_DAY_OFFSET_MS);
}

/**
 * The last valid instant of a key valid until `text` (`expires_on`, YYYY-MM-DD): not in the past, at most
 * 24 months away; 12 months from today when not given. A day out of bounds is refused, naming `expires_on`.
 */
export function expiryOf(
  text: string | undefined,
  now: number,
): { ok: true; expiresAt: number } | KeyRefusal {
  const first = today(now);
  if (text === undefined)
    return { ok: true, expiresAt: expiryInstant(addMonths(first, DEFAULT_VALIDITY_MONTHS)) };
  const day = parseDay(text);
  if (day === null) return { ok: false, reason: 'expiry_not_a_day', param: 'expires_on' };
  const chosen = formatDay(day);
  if (chosen < formatDay(first))
    return { ok: false, reason: 'expiry_past', param: 'expires_on', today: formatDay(first) };
  const last = formatDay(addMonths(first, MAX_VALIDITY_MONTHS));
  if (chosen > last)
    return { ok: false, reason: 'expiry_too_far', param: 'expires_on', months: MAX_VALIDITY_MONTHS, last };
  return { ok: true, expiresAt: expiryInstant(day) };
}
