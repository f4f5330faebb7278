import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyUse } from '../../audit/key-use.js';
import type { Clock } from '../../clock.js';
import type { Problem } from '../../errors/problem.js';
import type { Answer } from '../../http/gate.js';
import type { RouteSpec } from '../../http/route-spec.js';
import type { PosKeyRecord } from '../keys/key-repository.js';
import type { MerchantKeyService } from '../keys/merchant-key-service.js';
import type { PosQueryService } from '../places/pos-query-service.js';
import type { KeyCheck, LimitRefusal } from './limit-decision.js';
import type { PosLimits, PosQuota, PosRouteClass } from './pos-limits.js';
import type { PosPermission } from './pos-permissions.js';
import type { PosRoute } from './query-params.js';
import type { SalesService } from '../sales/sales-service.js';

// What a call through the point-of-sale data API carries as it passes the gates, and what a route of its
// table is.

/** Everything the POS API needs from the rest of the service. */
export interface PosApiDeps {
  /** Verifies presented keys on the primary database, so a rotation or a revocation holds at once. */
  merchantKeys: Pick<MerchantKeyService, 'verify'>;
  /**
   * The account, places and events the routes read: on a replica when one is configured
   * (`DATABASE_READ_URL`), else the primary.
   */
  queries: PosQueryService;
  clock: Clock;
  limits: PosLimits;
  /** The sales figures behind the sales route. */
  sales: SalesService;
  /** Where an accepted key's use is marked (in memory; flushed about once a minute). */
  keyUse: Pick<KeyUse, 'mark'>;
}

/** A route of the POS API (docs/pos-api.md, the routes in service and the planned routes). */
export interface PosRouteDef extends RouteSpec {
  readonly method: 'GET';
  /** The route's key in the parameter tables of query-params.ts. */
  readonly route: PosRoute;
  /** Which quotas and ceilings the call spends (Limits). */
  readonly routeClass: PosRouteClass;
  /** The permission the route requires; planned routes require none (docs/pos-api.md, Settled details). */
  readonly permission: PosPermission | null;
  handle(call: AuthenticatedPosCall): Promise<Problem | Answer>;
}

/** A call through the POS API, filled in as it passes the gates. */
export interface PosCall {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  readonly now: number;
  deps: PosApiDeps;
  route?: PosRouteDef;
  /** The key text of `Authorization: Bearer`, null when absent or not of that shape. */
  keyText?: string | null;
  keyCheck?: KeyCheck;
  /** What refused the call among the limits before the key (`rejectBlockedIp` asks them at once). */
  refusedBeforeKey?: LimitRefusal;
  key?: PosKeyRecord;
  /** The presented key's own balance: its credential and which of its key texts was used. */
  keyBucket?: string;
  quota?: PosQuota;
  query?: unknown;
}

/** A call that passed every gate. */
export type AuthenticatedPosCall = PosCall & { route: PosRouteDef; key: PosKeyRecord; quota: PosQuota };
