import { Problem } from '../../errors/problem.js';
import { daysFromCivil, daysInMonth } from '../../lib/calendar.js';
import { hasInvisible, replaceInvisible } from '../../lib/unicode-text.js';
import { POS_IDENTIFIER } from '../pos-identifier.js';

// The query parameters of the point-of-sale data API (pos-data-api.md, "Conventions", "Endpoints" with
// the parameter table of each route and the planned routes table, "Errors" with its `param` choice;
// DECISIONS, POS data API), read from the raw query string: the text after `?`, undecoded, as Fastify
// leaves it in `request.url`. Pure: no HTTP, no database. Whether a place or event exists, and whether a
// cursor was issued for this query, is checked elsewhere (404s, src/pos/places/cursor.ts).
//
// ORDER OF PROBLEMS. Every refusal is 422 `invalid_parameter` with a `param`; when several problems
// occur, the first of this order is answered:
//   1. Unknown parameters ("Endpoints": always refused, never ignored). `param` is the first unknown in
//      the order sent; the detail names at most 5 distinct unknowns, each cut to 40 characters.
//   2. A parameter sent more than once, `place[]` counting as `place` ("Endpoints"). `param` is the
//      parameter whose second occurrence comes first in the query.
//   3. Missing parameters, in the order of the route's table: a required parameter absent or sent empty;
//      one date of a pair sent without the other (the missing one is named); on /orders, neither pair
//      sent (`created_from` is named).
//   4. Invalid values, in the order of the route's table: list forms, identifiers, dates, limit, search,
//      cursor, place lists, percent-decoding errors. An empty value of an optional parameter is invalid
//      (leave the parameter out instead).
//   5. Periods, in the order of the route's table: `from` after `to` names `from`; a period above its
//      maximum names `to` (both judged on the rounded period, "Receipts-by-payment-method response").
//
// Decoding is the form decoding of a query (WHATWG application/x-www-form-urlencoded): pairs split on
// `&`, name and value on the first `=`, `+` is a space and `%XX` sequences are UTF-8 bytes. So a raw `+`
// in an offset becomes a space and the date is refused ("Conventions": send `%2B`), `%2C` is a comma, and
// a name is known after decoding (`pl%61ce` is `place`). Names are case-sensitive. Empty pairs (`a=1&&b=2`,
// a trailing `&`) are skipped; a pair without `=` has an empty value.

/** Limits of the query parameters (pos-data-api.md, Limits; planned routes table). */
export const QUERY_LIMITS = {
  /** `limit`: 1 to 100, default 50. */
  pageSizeMin: 1,
  pageSizeMax: 100,
  pageSizeDefault: 50,
  /** `search`: 1 to 100 characters (code points). */
  searchLength: 100,
  /** Place and event identifiers: `^[A-Za-z0-9]{1,64}$` (DECISIONS, POS data API). */
  identifierLength: 64,
  /** Comma-separated `place` of the planned routes: at most 100 identifiers. */
  placeListLength: 100,
  /** Unknown parameters named in the detail, and the characters shown of each ("Errors", param choice). */
  unknownNamesShown: 5,
  unknownNameLength: 40,
} as const;

/** How a parameter's value is read. */
export type ParamKind =
  /** Exactly one place identifier; a comma list or a list form is invalid. */
  | 'place'
  /** Exactly one event identifier; a comma list or a list form is invalid. */
  | 'event'
  /** Comma-separated place identifiers, 1 to 100, no repeats (planned routes). */
  | 'placeList'
  /** ISO 8601 date and time with a mandatory offset or `Z`, fractions rounded up to whole seconds. */
  | 'instant'
  /** Integer 1 to 100, digits only; default 50. */
  | 'limit'
  /** 1 to 100 characters without control or invisible characters. */
  | 'search'
  /** Any non-empty text; verified elsewhere. */
  | 'cursor';

/** One row of a route's parameter table. */
export interface ParamSpec {
  /** The name as sent in the query. */
  readonly name: string;
  /** The member of the typed result that carries the value. */
  readonly key: string;
  readonly kind: ParamKind;
  readonly required: boolean;
}

/** A pair of dates read as one period: `from` included, `to` excluded. */
export interface PeriodSpec {
  readonly from: string;
  readonly to: string;
  /** Longest period, in days, of the rounded bounds. */
  readonly maxDays: number;
  /** A parameter whose presence lifts the maximum (`event` on /sales/by-payment-method). */
  readonly unlimitedWith?: string;
}

/** The query parameters of one route, in the order of the document's table. */
export interface RouteQuerySpec {
  readonly params: readonly ParamSpec[];
  readonly periods: readonly PeriodSpec[];
  /** At least one of the periods must be sent (/orders: "at least one pair required"). */
  readonly onePeriodRequired: boolean;
}

const place = (required: boolean): ParamSpec => ({ name: 'place', key: 'place', kind: 'place', required });
const placeList: ParamSpec = { name: 'place', key: 'places', kind: 'placeList', required: false };
const instant = (name: string, key: string, required: boolean): ParamSpec => ({
  name,
  key,
  kind: 'instant',
  required,
});
const cursor: ParamSpec = { name: 'cursor', key: 'cursor', kind: 'cursor', required: false };
const limit: ParamSpec = { name: 'limit', key: 'limit', kind: 'limit', required: false };

const noQuery: RouteQuerySpec = { params: [], periods: [], onePeriodRequired: false };

/** Planned sales routes ("Planned routes" table): required period of at most 120 days, optional places. */
const plannedSales: RouteQuerySpec = {
  params: [instant('from', 'from', true), instant('to', 'to', true), placeList],
  periods: [{ from: 'from', to: 'to', maxDays: 120 }],
  onePeriodRequired: false,
};

/**
 * The parameter table of every route of the POS data API, keyed by its path after `/v1/api-public/`:
 * the routes in service ("Endpoints") and the planned routes, whose parameters are provisional but
 * validated (DECISIONS, POS data API).
 */
export const POS_QUERY_ROUTES = {
  ping: noQuery,
  places: noQuery,
  events: {
    params: [place(true), { name: 'search', key: 'search', kind: 'search', required: false }, limit, cursor],
    periods: [],
    onePeriodRequired: false,
  },
  'sales/by-payment-method': {
    params: [
      instant('from', 'from', true),
      instant('to', 'to', true),
      place(true),
      { name: 'event', key: 'event', kind: 'event', required: false },
    ],
    periods: [{ from: 'from', to: 'to', maxDays: 120, unlimitedWith: 'event' }],
    onePeriodRequired: false,
  },
  'sales/summary': plannedSales,
  'sales/by-day': plannedSales,
  'sales/by-product': plannedSales,
  'sales/by-place': plannedSales,
  orders: {
    params: [
      placeList,
      instant('created_from', 'createdFrom', false),
      instant('created_to', 'createdTo', false),
      instant('updated_from', 'updatedFrom', false),
      instant('updated_to', 'updatedTo', false),
      cursor,
      limit,
    ],
    periods: [
      { from: 'created_from', to: 'created_to', maxDays: 31 },
      { from: 'updated_from', to: 'updated_to', maxDays: 31 },
    ],
    onePeriodRequired: true,
  },
  'orders/{order_id}': noQuery,
  products: { params: [placeList, cursor, limit], periods: [], onePeriodRequired: false },
} as const satisfies Record<string, RouteQuerySpec>;

/** A route of the POS data API, as its path after `/v1/api-public/`. */
export type PosRoute = keyof typeof POS_QUERY_ROUTES;

/** Place identifiers of a planned route; null when `place` was left out (all places of the key). */
type PlaceList = readonly string[] | null;

/**
 * The typed values of each route's query. Instants are milliseconds since the epoch, whole seconds;
 * optional parameters left out are null, `limit` defaults to 50.
 */
export interface PosQueryValues {
  ping: Record<string, never>;
  places: Record<string, never>;
  events: { place: string; search: string | null; limit: number; cursor: string | null };
  'sales/by-payment-method': { from: number; to: number; place: string; event: string | null };
  'sales/summary': { from: number; to: number; places: PlaceList };
  'sales/by-day': { from: number; to: number; places: PlaceList };
  'sales/by-product': { from: number; to: number; places: PlaceList };
  'sales/by-place': { from: number; to: number; places: PlaceList };
  orders: {
    places: PlaceList;
    createdFrom: number | null;
    createdTo: number | null;
    updatedFrom: number | null;
    updatedTo: number | null;
    cursor: string | null;
    limit: number;
  };
  'orders/{order_id}': Record<string, never>;
  products: { places: PlaceList; cursor: string | null; limit: number };
}

/** The outcome of reading a query: the typed values, or the first problem (a 422 with `param`). */
export type QueryResult<R extends PosRoute> =
  { ok: true; values: PosQueryValues[R] } | { ok: false; problem: Problem };

/** One `name=value` pair of the raw query; null where percent-decoding failed. */
interface RawPair {
  rawName: string;
  name: string | null;
  value: string | null;
}

/** A known parameter as sent: its decoded value (null: not decodable) and whether it came as `name[]`. */
interface Sent {
  value: string | null;
  listForm: boolean;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; problem: Problem };

const digits = /^[0-9]+$/;
/**
 * `YYYY-MM-DDThh:mm:ss[.fraction]` then `Z`, `±hh:mm`, nothing (no offset) or ` hh:mm` (a raw `+`
 * decoded to a space). Linear: no two adjacent parts can take the same characters.
 */
const instantShape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+\- ]\d{2}:\d{2})?$/;

const DAY_MS = 86_400_000;

/**
 * Reads the raw query string of a route (the text after `?`, undecoded) into its typed values, or
 * returns the first problem in the order written at the top of this module. Never throws.
 */
export function readQuery<R extends PosRoute>(route: R, rawQuery: string): QueryResult<R> {
  const spec: RouteQuerySpec = POS_QUERY_ROUTES[route];
  const known = new Set(spec.params.map((param) => param.name));
  const pairs = splitQuery(rawQuery);

  // 1. Unknown parameters. A name that cannot be decoded is unknown, shown as sent.
  const unknown: string[] = [];
  for (const pair of pairs) {
    if (baseName(pair.name, known) === null) {
      const shown = pair.name ?? pair.rawName;
      if (!unknown.includes(shown)) unknown.push(shown);
    }
  }
  const firstUnknown = unknown[0];
  if (firstUnknown !== undefined) {
    return refuse(firstUnknown, unknownDetail(unknown, spec));
  }

  // 2. Repeated parameters (`place[]=A&place[]=B` and `place=A&place[]=B` are `place` twice).
  const sent = new Map<string, Sent>();
  for (const pair of pairs) {
    const name = pair.name ?? '';
    const base = baseName(name, known) ?? name;
    if (sent.has(base)) return refuse(base, `Parameter "${base}" was sent more than once.`);
    sent.set(base, { value: pair.value, listForm: base !== name });
  }

  // 3. Missing parameters, in the order of the table.
  const isSent = (name: string): boolean => sent.has(name);
  for (const param of spec.params) {
    const given = sent.get(param.name);
    if (param.required && given === undefined) return refuse(param.name, `"${param.name}" is required.`);
    if (param.required && given?.value === '' && !given.listForm) {
      return refuse(param.name, `"${param.name}" is required; it was sent empty.`);
    }
    const partner = pairPartner(spec, param.name);
    if (given === undefined && partner !== null && isSent(partner)) {
      return refuse(param.name, `"${param.name}" is required when "${partner}" is sent.`);
    }
  }
  const [firstPeriod] = spec.periods;
  if (spec.onePeriodRequired && firstPeriod !== undefined) {
    if (!spec.periods.some((period) => isSent(period.from) || isSent(period.to))) {
      const pairsText = spec.periods.map((period) => `"${period.from}" and "${period.to}"`).join(', or ');
      return refuse(firstPeriod.from, `At least one pair of dates is required: ${pairsText}.`);
    }
  }

  // 4. Invalid values, in the order of the table.
  const values: Record<string, unknown> = {};
  for (const param of spec.params) {
    const given = sent.get(param.name);
    if (given === undefined) {
      values[param.key] = param.kind === 'limit' ? QUERY_LIMITS.pageSizeDefault : null;
      continue;
    }
    const read = readValue(param, given);
    if (!read.ok) return read;
    values[param.key] = read.value;
  }

  // 5. Periods, in the order of the table: bounds already rounded up to whole seconds.
  for (const period of spec.periods) {
    const from = valueOf(values, spec, period.from);
    const to = valueOf(values, spec, period.to);
    if (from === null || to === null) continue;
    if (from > to) return refuse(period.from, `"${period.from}" must not be after "${period.to}".`);
    const unlimited = period.unlimitedWith !== undefined && isSent(period.unlimitedWith);
    if (!unlimited && to - from > period.maxDays * DAY_MS) {
      const unless = period.unlimitedWith === undefined ? '' : ` when "${period.unlimitedWith}" is not sent`;
      return refuse(
        period.to,
        `"${period.to}" must be at most ${period.maxDays} days after "${period.from}"${unless}.`,
      );
    }
  }

  return { ok: true, values: values as PosQueryValues[R] };
}

/** Splits the raw query into decoded pairs (form decoding; see the top of this module). */
function splitQuery(rawQuery: string): RawPair[] {
  const pairs: RawPair[] = [];
  for (const piece of rawQuery.split('&')) {
    if (piece === '') continue;
    const equals = piece.indexOf('=');
    const rawName = equals === -1 ? piece : piece.slice(0, equals);
    const rawValue = equals === -1 ? '' : piece.slice(equals + 1);
    pairs.push({ rawName, name: formDecode(rawName), value: formDecode(rawValue) });
  }
  return pairs;
}

/**
 * Form decoding of one name or value: `+` is a space, `%XX` sequences are UTF-8. Null when a `%` is not
 * followed by two hexadecimal digits, the bytes are not UTF-8, or the text is not well-formed (a lone
 * surrogate, which no percent-encoding can produce).
 */
function formDecode(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return null;
  }
  return decoded.isWellFormed() ? decoded : null;
}

/** The parameter a decoded name stands for: itself, or the base of its list form `name[]`; else null. */
function baseName(name: string | null, known: ReadonlySet<string>): string | null {
  if (name === null) return null;
  if (known.has(name)) return name;
  if (name.endsWith('[]') && known.has(name.slice(0, -2))) return name.slice(0, -2);
  return null;
}

/** The other date of the period a date parameter belongs to, or null. */
function pairPartner(spec: RouteQuerySpec, name: string): string | null {
  for (const period of spec.periods) {
    if (period.from === name) return period.to;
    if (period.to === name) return period.from;
  }
  return null;
}

function valueOf(values: Record<string, unknown>, spec: RouteQuerySpec, name: string): number | null {
  const key = spec.params.find((param) => param.name === name)?.key;
  const value = key === undefined ? null : values[key];
  return typeof value === 'number' ? value : null;
}

function refuse(param: string, detail: string): { ok: false; problem: Problem } {
  return { ok: false, problem: Problem.of('invalid_parameter', { param, detail }) };
}

/**
 * `Unknown parameter: "a".` or `Unknown parameters: "a", "b", "c", "d", "e" and 3 more.`, then what the
 * route accepts. Names are distinct, in the order sent, each cut to 40 characters and quoted as JSON
 * strings (quotes, controls and invisible characters escaped).
 */
function unknownDetail(unknown: readonly string[], spec: RouteQuerySpec): string {
  const shown = unknown.slice(0, QUERY_LIMITS.unknownNamesShown).map(quoteName).join(', ');
  const rest = unknown.length - QUERY_LIMITS.unknownNamesShown;
  const names = unknown.length === 1 ? `Unknown parameter: ${shown}` : `Unknown parameters: ${shown}`;
  const more = rest > 0 ? ` and ${rest} more` : '';
  const accepted =
    spec.params.length === 0
      ? 'This route accepts no query parameters.'
      : `This route accepts: ${spec.params.map((param) => `"${param.name}"`).join(', ')}.`;
  return `${names}${more}. ${accepted}`;
}

/** A name as the detail shows it: its first 40 code points, as a JSON string with invisibles escaped. */
function quoteName(name: string): string {
  const cut = Array.from(name).slice(0, QUERY_LIMITS.unknownNameLength).join('');
  return replaceInvisible(
    JSON.stringify(cut),
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Reads the value of a known parameter that was sent once. */
function readValue(param: ParamSpec, given: Sent): Outcome<unknown> {
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
