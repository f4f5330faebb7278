import { Problem } from '../../errors/problem.js';
import { daysFromCivil, daysInMonth } from '../../lib/calendar.js';
import { hasInvisible } from '../../lib/unicode-text.js';
import { POS_IDENTIFIER } from '../pos-identifier.js';
import { QUERY_LIMITS, type ParamSpec } from './query-routes.js';

// The readers of one query parameter's value, by its kind: identifiers, place lists, instants, limit,
// search and cursor. Step 4 of the order of problems written in query-params.ts.

/** A known parameter as sent: its decoded value (null: not decodable) and whether it came as `name[]`. */
export interface Sent {
  value: string | null;
  listForm: boolean;
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const digits = /^[0-9]+$/;
/**
 * `YYYY-MM-DDThh:mm:ss[.fraction]` then `Z`, `±hh:mm`, nothing (no offset) or ` hh:mm` (a raw `+`
 * decoded to a space). Linear: no two adjacent parts can take the same characters.
 */
const instantShape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+\- ]\d{2}:\d{2})?$/;

/** A 422 `invalid_parameter` naming the parameter. */
export function refuse(param: string, detail: string): { ok: false; problem: Problem } {
  return { ok: false, problem: Problem.of('invalid_parameter', { param, detail }) };
}

/** Reads the value of a known parameter that was sent once. */
export function readValue(param: ParamSpec, given: Sent): Outcome<unknown> {
  const { name } = param;
  if (given.listForm) return refuse(name, listFormDetail(param));
  if (given.value === null) return refuse(name, `"${name}" is not correctly percent-encoded (UTF-8).`);
  const value = given.value;
  switch (param.kind) {
    case 'place':
    case 'event': {
      if (value.includes(',')) {
        return refuse(
          name,
          param.kind === 'place'
            ? '"place" must be one place identifier, not a list; call once per place.'
            : '"event" must be one event identifier, not a list.',
        );
      }
      return POS_IDENTIFIER.test(value) ? { ok: true, value } : refuse(name, identifierDetail(param));
    }
    case 'placeList':
      return readPlaceList(name, value);
    case 'instant':
      return readInstant(name, value);
    case 'limit': {
      const number = digits.test(value) ? Number(value) : NaN;
      return number >= QUERY_LIMITS.pageSizeMin && number <= QUERY_LIMITS.pageSizeMax
        ? { ok: true, value: number }
        : refuse(
            name,
            `"${name}" must be an integer from ${QUERY_LIMITS.pageSizeMin} to ${QUERY_LIMITS.pageSizeMax}.`,
          );
    }
    case 'search':
      return readSearch(name, value);
    case 'cursor':
      return value === ''
        ? refuse(name, `"${name}" must not be empty; leave it out for the first page.`)
        : { ok: true, value };
  }
}

/** The detail of a list form sent once (`place[]=A`): for place, the text "Errors" quotes. */
function listFormDetail(param: ParamSpec): string {
  switch (param.kind) {
    case 'place':
    case 'placeList':
    case 'event':
      return identifierDetail(param);
    default:
      return `"${param.name}" must be sent once as ${param.name}=<value>, not as a list.`;
  }
}

function identifierDetail(param: ParamSpec): string {
  return param.kind === 'event'
    ? '"event" must be an event identifier.'
    : '"place" must be a place identifier.';
}

/** Comma-separated place identifiers of the planned routes: 1 to 100, each valid, none repeated. */
function readPlaceList(name: string, value: string): Outcome<readonly string[]> {
  const ids = value.split(',');
  if (!ids.every((id) => POS_IDENTIFIER.test(id))) {
    return refuse(
      name,
      `"${name}" must be a comma-separated list of 1 to ${QUERY_LIMITS.placeListLength} place identifiers.`,
    );
  }
  if (ids.length > QUERY_LIMITS.placeListLength) {
    return refuse(name, `"${name}" must list at most ${QUERY_LIMITS.placeListLength} place identifiers.`);
  }
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return refuse(name, `"${name}" lists "${id}" more than once.`);
    seen.add(id);
  }
  return { ok: true, value: ids };
}

/** `search`: 1 to 100 code points, kept as sent (not trimmed), no control or invisible character. */
function readSearch(name: string, value: string): Outcome<string> {
  if (value === '') return refuse(name, `"${name}" must not be empty; leave it out to list every event.`);
  if (Array.from(value).length > QUERY_LIMITS.searchLength) {
    return refuse(name, `"${name}" must be at most ${QUERY_LIMITS.searchLength} characters.`);
  }
  if (hasInvisible(value)) return refuse(name, `"${name}" must not contain control or invisible characters.`);
  return { ok: true, value };
}

/**
 * An instant ("Conventions"): `YYYY-MM-DDThh:mm:ss[.fraction]` followed by `Z` or `±hh:mm` (offset up
 * to ±23:59), a real calendar date, seconds 00 to 59. Milliseconds since the epoch, a fraction of a
 * second rounded up to the next whole second ("Receipts-by-payment-method response": from, to).
 */
function readInstant(name: string, value: string): Outcome<number> {
  const match = instantShape.exec(value);
  if (match === null) {
    return refuse(
      name,
      `"${name}" must be an ISO 8601 date and time with an offset, shaped YYYY-MM-DDThh:mm:ss-03:00 or YYYY-MM-DDThh:mm:ssZ.`,
    );
  }
  const [, year, month, day, hour, minute, second, fraction, offset] = match;
  if (offset === undefined) {
    return refuse(name, `"${name}" must include a time zone offset or Z, as in 2026-10-01T00:00:00-03:00.`);
  }
  if (offset.startsWith(' ')) {
    return refuse(name, `"${name}" has a space where its offset's sign should be: send "+" as %2B.`);
  }
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const h = Number(hour);
  const min = Number(minute);
  const s = Number(second);
  const offsetHours = Number(offset.slice(1, 3));
  const offsetMinutes = Number(offset.slice(4, 6));
  if (
    m < 1 ||
    m > 12 ||
    d < 1 ||
    d > daysInMonth(y, m) ||
    h > 23 ||
    min > 59 ||
    s > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  ) {
    return refuse(name, `"${name}" is not a valid date and time.`);
  }
  const offsetSeconds =
    offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  const roundUp = fraction !== undefined && /[1-9]/.test(fraction) ? 1 : 0;
  const seconds = daysFromCivil(y, m, d) * 86_400 + h * 3600 + min * 60 + s - offsetSeconds + roundUp;
  return { ok: true, value: seconds * 1000 };
}
