import type { Problem } from '../../errors/problem.js';

// The parameter table of each route of the point-of-sale data API, and the typed values a query reads
// into. How a query is read against these tables is in query-params.ts; each value's reader is in
// query-values.ts.

/** Limits of the query parameters (docs/pos-api.md, Limits; planned routes table). */
export const QUERY_LIMITS = {
  /** `limit`: 1 to 100, default 50. */
  pageSizeMin: 1,
  pageSizeMax: 100,
  pageSizeDefault: 50,
  /** `search`: 1 to 100 characters (code points). */
  searchLength: 100,
  /** Place and event identifiers: `^[A-Za-z0-9]{1,64}$` (docs/pos-api.md, Settled details). */
  identifierLength: 64,
  /** Comma-separated `place` of the planned routes: at most 100 identifiers. */
  placeListLength: 100,
  /** Unknown parameters named in the detail, and the characters shown of each ("Errors", param choice). */
  unknownNamesShown: 5,
  unknownNameLength: 40,
} as const;

/** How a parameter's value is read. */
type ParamKind =
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
interface PeriodSpec {
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
 * validated (docs/pos-api.md, Settled details).
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
