import { replaceInvisible } from '../../lib/unicode-text.js';
import {
  POS_QUERY_ROUTES,
  QUERY_LIMITS,
  type PosQueryValues,
  type PosRoute,
  type QueryResult,
  type RouteQuerySpec,
} from './query-routes.js';
import { readValue, refuse, type Sent } from './query-values.js';

// The query parameters of the point-of-sale data API (docs/pos-api.md, "Conventions", "Endpoints" with
// the parameter table of each route and the planned routes table, "Errors" with its `param` choice;
// docs/pos-api.md, Settled details), read from the raw query string: the text after `?`, undecoded, as
// Fastify leaves it in `request.url`. Pure: no HTTP, no database. Whether a place or event exists, and
// whether a cursor was issued for this query, is checked elsewhere (404s, src/pos/places/cursor.ts).
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

// The route tables are read by the gates and the route-table tests through this module.
export { POS_QUERY_ROUTES, type PosQueryValues, type PosRoute, type QueryResult } from './query-routes.js';

/** One `name=value` pair of the raw query; null where percent-decoding failed. */
interface RawPair {
  rawName: string;
  name: string | null;
  value: string | null;
}
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
