import type { ProblemCode } from '../../errors/problem-catalogue.js';
import { Problem } from '../../errors/problem.js';
import { POS_API } from '../../lib/api-registry.js';
import { wireTime } from '../../lib/wire-time.js';
import { cursorProblem } from '../places/cursor.js';
import { keyPlaces } from '../keys/place-reach.js';
import { eventsBody, pingBody, placesBody, salesByPaymentMethodBody } from './pos-api-schemas.js';
import { queryOf, queryTimeoutProblem, refuseByLimit } from './pos-api-gates.js';
import type { PosRouteDef } from './pos-call.js';
import { POS_KEY_QUOTA, type PosRouteClass } from './pos-limits.js';

// The route table of the point-of-sale data API (docs/pos-api.md, the routes in service and the planned
// routes): every operation once, as data. The gates of pos-api.ts read it (route class, permission,
// parameter table), the OpenAPI document is generated from it, and the tests hold every answer to its
// schemas and codes.

/** Path prefix of the point-of-sale data API, as the registry gives it. */
export const POS_API_PREFIX = POS_API.prefix;

/** Problems every route can answer, from the gates (docs/pos-api.md, Authentication, Errors, Limits). */
const GATE_PROBLEMS: readonly ProblemCode[] = [
  'conflicting_credentials',
  'method_not_allowed',
  'not_found',
  'rate_limited',
  'invalid_token',
  'invalid_parameter',
  'internal_error',
  // The sales routes' store outage (Limits), and on every route a process that is shutting down.
  'temporarily_unavailable',
];

/** The 415 of a GET with a non-JSON body has no `code` (Errors). */
const UNCODED: readonly number[] = [415];

const placeNotFound = () =>
  Problem.of('not_found', { detail: 'There is no such place for this key.', param: 'place' });

/** Planned routes: documented parameters validated, places outside the key refused, then 501. */
function plannedRoute(
  route: PosRouteDef['route'],
  routeClass: PosRouteClass,
  operationId: string,
  summary: string,
): PosRouteDef {
  return {
    operationId,
    method: 'GET',
    path: `${POS_API_PREFIX}${route}`,
    summary,
    planned: true,
    route,
    routeClass,
    permission: null,
    responses: {},
    problems: [...GATE_PROBLEMS, 'not_implemented'],
    uncodedStatuses: UNCODED,
    handle: async (call) => {
      const values = call.query as { places?: readonly string[] | null };
      for (const placeId of values.places ?? []) {
        if (!(await call.deps.queries.reaches(call.key, placeId))) return placeNotFound();
      }
      return Problem.of('not_implemented', { detail: 'This route is planned and not available yet.' });
    },
  };
}

export const posRoutes: readonly PosRouteDef[] = [
  {
    operationId: 'ping',
    method: 'GET',
    path: `${POS_API_PREFIX}ping`,
    summary: 'The key, its account and its limits: a check that the integration is set up.',
    route: 'ping',
    routeClass: 'default',
    permission: null,
    responses: { 200: pingBody },
    problems: GATE_PROBLEMS,
    uncodedStatuses: UNCODED,
    handle: async (call) => {
      const { key, quota } = call;
      const accountName = await call.deps.queries.accountName(key.account_id);
      const superseded = call.reply.getHeader('deprecation') !== undefined;
      return {
        status: 200,
        body: {
          credential: {
            id: key.id,
            name: key.name,
            permissions: key.permissions,
            expires_at: wireTime(key.expires_at),
            superseded,
            superseded_until:
              superseded && key.previous_valid_until !== null ? wireTime(key.previous_valid_until) : null,
          },
          account: { id: key.account_id, name: accountName },
          rate_limit: quota.measured
            ? { default_per_minute: POS_KEY_QUOTA.default, heavy_per_minute: POS_KEY_QUOTA.heavy }
            : null,
          server_time: wireTime(call.now),
          api_version: 'v1',
        },
      };
    },
  },
  {
    operationId: 'listPlaces',
    method: 'GET',
    path: `${POS_API_PREFIX}places`,
    summary: 'The places the key reaches.',
    route: 'places',
    routeClass: 'default',
    permission: null,
    responses: { 200: placesBody },
    problems: GATE_PROBLEMS,
    uncodedStatuses: UNCODED,
    handle: async (call) => {
      const places = await call.deps.queries.reachedPlaces(call.key);
      const data = places.map((place) => ({
        id: place.id,
        name: place.name,
        timezone: place.timezone,
        active: place.active,
      }));
      return { status: 200, body: { all: keyPlaces(call.key) === null, data } };
    },
  },
  {
    operationId: 'listEvents',
    method: 'GET',
    path: `${POS_API_PREFIX}events`,
    summary: 'The events of a place, most recently registered first, searchable by name, in cursor pages.',
    description:
      'The next page is the same call with `cursor=<next_cursor>`; null means no more. Keep `place` and `search` unchanged while paging (with another `search` the result is undefined). Time limit of the list: 3 seconds, then 503 `temporarily_unavailable` with `Retry-After` 60.',
    route: 'events',
    routeClass: 'default',
    permission: 'event.view',
    responses: { 200: eventsBody },
    problems: [...GATE_PROBLEMS, 'forbidden_permission'],
    uncodedStatuses: UNCODED,
    handle: async (call) => {
      const query = queryOf(call, 'events');
      const page = await call.deps.queries.events({
        reach: call.key,
        placeId: query.place,
        search: query.search,
        limit: query.limit,
        cursor: query.cursor,
      });
      if (!page.ok) {
        switch (page.reason) {
          case 'unknown_place':
            return placeNotFound();
          case 'bad_cursor':
            return cursorProblem(page.cursor);
          case 'timed_out':
            return queryTimeoutProblem();
        }
      }
      return {
        status: 200,
        body: {
          place: query.place,
          search: query.search,
          data: page.data,
          next_cursor: page.nextCursor,
        },
      };
    },
  },
  {
    operationId: 'getSalesByPaymentMethod',
    method: 'GET',
    path: `${POS_API_PREFIX}sales/by-payment-method`,
    summary: 'Receipts of a place (optionally one event) in a period, by payment method and card brand.',
    description:
      'One place per call; for several places call once per place and sum `amount` as decimals and `count` as integers, never `share`. The query filters by the time the receipt happened on the store’s device: sales made offline enter the period when they happened, so re-query the last 3 days and replace stored values. With `event`, only receipts recorded with that event count. Do not fire sales queries in parallel: at most 2 per account run at once (429 with `Retry-After` 5 beyond). Query time limit 15 seconds, then 503 `temporarily_unavailable` with `Retry-After` 60; reduce the period if it persists.',
    route: 'sales/by-payment-method',
    routeClass: 'heavy',
    permission: 'sale-by-payment-method.view',
    responses: { 200: salesByPaymentMethodBody },
    problems: [...GATE_PROBLEMS, 'forbidden_permission'],
    uncodedStatuses: UNCODED,
    handle: async (call) => {
      const query = queryOf(call, 'sales/by-payment-method');
      const outcome = await call.deps.sales.byPaymentMethod({
        reach: call.key,
        placeId: query.place,
        eventId: query.event,
        from: query.from,
        to: query.to,
        quota: call.quota,
      });
      if (outcome.ok) return { status: 200, body: outcome.figures };
      switch (outcome.reason) {
        case 'unknown_place':
          return placeNotFound();
        case 'unknown_event':
          return Problem.of('not_found', { detail: 'There is no such event in this place.', param: 'event' });
        case 'limited':
          return refuseByLimit(call, outcome.refusal);
        case 'timed_out':
          return queryTimeoutProblem();
      }
    },
  },
  plannedRoute('sales/summary', 'heavy', 'getSalesSummary', 'Planned: a summary of sales by place.'),
  plannedRoute('sales/by-day', 'heavy', 'getSalesByDay', 'Planned: sales day by day.'),
  plannedRoute('sales/by-product', 'heavy', 'getSalesByProduct', 'Planned: sales by product.'),
  plannedRoute('sales/by-place', 'heavy', 'getSalesByPlace', 'Planned: sales by place.'),
  plannedRoute('orders', 'default', 'listOrders', 'Planned: orders in a period.'),
  plannedRoute('orders/{order_id}', 'default', 'getOrder', 'Planned: one order.'),
  plannedRoute('products', 'default', 'listProducts', 'Planned: the products of the places.'),
];
