import type { FastifyReply, FastifyRequest } from 'fastify';
import { passGates, send, type Gate } from '../http/gate.js';
import { Problem } from '../errors/problem.js';
import { rejectConflictingCredentials } from '../http/shared-gates.js';
import { wireTime } from '../lib/wire-time.js';
import { findAccount } from './account-repository.js';
import { cursorProblem, verifyCursor } from './cursor.js';
import { findEvent } from './event-repository.js';
import { listEvents, nextCursor } from './event-listing.js';
import {
  authenticateKey,
  guardUnauthenticatedCalls,
  keyPlaces,
  limitAbsoluteCeiling,
  limitKeyRate,
  limitProblem,
  queryOf,
  queryTimeoutProblem,
  readQueryParameters,
  rejectBlockedIp,
  rejectNonJsonBody,
  rejectOtherVersionAccept,
  requireGet,
  requirePermission,
  withQueryTimeout,
  type AuthenticatedPosCall,
  type PosApiDeps,
  type PosCall,
  type PosRouteDef,
} from './pos-api-gates.js';
import { POS_KEY_QUOTA } from './pos-limits.js';
import { findPlace, listPlaces } from './place-repository.js';
import { salesByPaymentMethod } from './sales-query.js';

/** Path prefix of the point-of-sale data API. */
export const POS_API_PREFIX = '/v1/api-public/';

/** 404 `not_found` without `param`: the path begins with the prefix but names no route. */
function findRoute(call: PosCall): Problem | undefined {
  const path = (call.request.url.split('?')[0] ?? '').slice(POS_API_PREFIX.length);
  const route = routes.get(/^orders\/[^/]+$/.test(path) ? 'orders/{order_id}' : path);
  if (route === undefined) return Problem.of('not_found');
  call.route = route;
  return undefined;
}

/**
 * The order in which problems are answered (pos-data-api.md, Authentication, Errors and Limits): one
 * problem at a time. Nothing before `authenticateKey` reads the key, and only the key-related limits count
 * before it; `X-RateLimit-*` appear from `limitKeyRate` on, `Deprecation`/`Sunset` from `authenticateKey`.
 */
export const posApiGates: readonly Gate<PosCall>[] = [
  rejectConflictingCredentials, //   400 conflicting_credentials, not counted
  findRoute, //                      404 not_found (nonexistent address), neither counted nor blocked
  requireGet, //                     405 method_not_allowed, Allow: GET, not counted
  rejectOtherVersionAccept, //       404 not_found for a versioned Accept of another version
  rejectBlockedIp, //                429 IP blocked after wrong keys
  limitAbsoluteCeiling, //           429 absolute ceiling of the presented key text (refused calls count)
  guardUnauthenticatedCalls, //      429 too many unauthenticated calls from the IP
  authenticateKey, //                401 invalid_token (reason when the key worked before)
  limitKeyRate, //                   429 key quota / account ceiling; X-RateLimit-* from here on
  rejectNonJsonBody, //              415 without code: a GET with a non-JSON body
  requirePermission, //              403 forbidden_permission
  readQueryParameters, //            422 invalid_parameter
  // then the route itself: 404 place/event (param), 422 cursor, 429 concurrency, 503 time limit, 501
];

const placeNotFound = () =>
  Problem.of('not_found', { detail: 'There is no such place for this key.', param: 'place' });

/** The place if the key reaches it (a place removed from the key is the same as a wrong id). */
async function reachablePlace(call: AuthenticatedPosCall, placeId: string) {
  const reach = keyPlaces(call.key);
  if (reach !== null && !reach.includes(placeId)) return undefined;
  return findPlace(call.deps.readDb, call.key.account_id, placeId);
}

/** Planned routes: documented parameters validated, places outside the key refused, then 501. */
function plannedRoute(route: PosRouteDef['route'], routeClass: PosRouteDef['routeClass']): PosRouteDef {
  return {
    route,
    routeClass,
    permission: null,
    handle: async (call) => {
      const values = call.query as { places?: readonly string[] | null };
      for (const placeId of values.places ?? []) {
        if ((await reachablePlace(call, placeId)) === undefined) return placeNotFound();
      }
      return Problem.of('not_implemented', { detail: 'This route is planned and not available yet.' });
    },
  };
}

const routes = new Map<string, PosRouteDef>([
  [
    'ping',
    {
      route: 'ping',
      routeClass: 'default',
      permission: null,
      handle: async (call) => {
        const { key, quota } = call;
        const account = await findAccount(call.deps.readDb, key.account_id);
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
            account: { id: key.account_id, name: account?.name ?? '' },
            rate_limit: quota.measured
              ? { default_per_minute: POS_KEY_QUOTA.default, heavy_per_minute: POS_KEY_QUOTA.heavy }
              : null,
            server_time: wireTime(call.now),
            api_version: 'v1',
          },
        };
      },
    },
  ],
  [
    'places',
    {
      route: 'places',
      routeClass: 'default',
      permission: null,
      handle: async (call) => {
        const reach = keyPlaces(call.key);
        const places = await listPlaces(call.deps.readDb, call.key.account_id);
        const data = places
          .filter((place) => reach === null || reach.includes(place.id))
          .map((place) => ({
            id: place.id,
            name: place.name,
            timezone: place.timezone,
            active: place.active,
          }));
        return { status: 200, body: { all: reach === null, data } };
      },
    },
  ],
  [
    'events',
    {
      route: 'events',
      routeClass: 'default',
      permission: 'event.view',
      handle: async (call) => {
        const query = queryOf(call, 'events');
        if ((await reachablePlace(call, query.place)) === undefined) return placeNotFound();
        const scope = { accountId: call.key.account_id, placeId: query.place };
        let after = null;
        if (query.cursor !== null) {
          const checked = verifyCursor(call.deps.cursorSecret, query.cursor, scope);
          if (!checked.ok) return cursorProblem(checked.reason);
          after = checked.position;
        }
        const page = await withQueryTimeout(call.deps.readDb, call.deps.eventsQueryTimeoutMs, (db) =>
          listEvents(db, { ...scope, search: query.search, limit: query.limit, after }),
        );
        if (page === undefined) return queryTimeoutProblem();
        if (!page.ok) return cursorProblem('dangling');
        return {
          status: 200,
          body: {
            place: query.place,
            search: query.search,
            data: page.data,
            next_cursor: nextCursor(call.deps.cursorSecret, scope, page.nextPosition),
          },
        };
      },
    },
  ],
  [
    'sales/by-payment-method',
    {
      route: 'sales/by-payment-method',
      routeClass: 'heavy',
      permission: 'sale-by-payment-method.view',
      handle: async (call) => {
        const query = queryOf(call, 'sales/by-payment-method');
        // The place is checked first: with both place and event wrong, `place` is reported.
        if ((await reachablePlace(call, query.place)) === undefined) return placeNotFound();
        if (
          query.event !== null &&
          (await findEvent(call.deps.readDb, call.key.account_id, query.place, query.event)) === undefined
        ) {
          return Problem.of('not_found', { detail: 'There is no such event in this place.', param: 'event' });
        }
        const admitted = await call.deps.limits.beginSalesQuery(call.quota);
        if (!admitted.ok) return limitProblem(admitted);
        try {
          const figures = await withQueryTimeout(call.deps.readDb, call.deps.salesQueryTimeoutMs, (db) =>
            salesByPaymentMethod(db, {
              accountId: call.key.account_id,
              placeId: query.place,
              eventId: query.event,
              from: query.from,
              to: query.to,
            }),
          );
          return figures === undefined ? queryTimeoutProblem() : { status: 200, body: figures };
        } finally {
          await admitted.release();
        }
      },
    },
  ],
  ['sales/summary', plannedRoute('sales/summary', 'heavy')],
  ['sales/by-day', plannedRoute('sales/by-day', 'heavy')],
  ['sales/by-product', plannedRoute('sales/by-product', 'heavy')],
  ['sales/by-place', plannedRoute('sales/by-place', 'heavy')],
  ['orders', plannedRoute('orders', 'default')],
  ['orders/{order_id}', plannedRoute('orders/{order_id}', 'default')],
  ['products', plannedRoute('products', 'default')],
]);

/** Answers one request under the POS API's prefix: the gates in order, then the route. */
export function createPosApiHandler(deps: PosApiDeps) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    reply.header('x-request-id', request.id);
    const call: PosCall = { request, reply, now: deps.clock.now(), deps };
    try {
      if (await passGates(call, posApiGates)) {
        const authenticated = call as AuthenticatedPosCall;
        send(reply, await authenticated.route.handle(authenticated));
      }
    } finally {
      // A call refused before its key was known still ends its key check.
      await call.keyCheck?.end(false);
    }
    return reply;
  };
}
