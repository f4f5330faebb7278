import type { KeyUse } from '../audit/key-use.js';
import type { Clock } from '../clock.js';
import type { Problem } from '../errors/problem.js';
import type { Answer } from '../http/gate.js';
import type { RouteSpec } from '../http/route-spec.js';
import type { CallWithBody } from '../http/shared-gates.js';
import type { IpBlock } from '../rate-limit/ip-block.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { CatalogService } from './catalog-service.js';
import type { MaintenanceSwitch } from './maintenance-switch.js';
import type { Scope } from './system-scopes.js';
import type { SystemWithKeys } from './system-repository.js';
import type { SystemService } from './system-service.js';
import type { TicketService } from './ticket-service.js';

// What a call through the ticket API carries as it passes the gates, and what a route of its table is.

/** Everything the ticket API needs from the rest of the service. */
export interface TicketApiDeps {
  clock: Clock;
  /** Verifies presented keys. */
  systems: Pick<SystemService, 'verifyKey'>;
  rateLimits: RateLimitStore;
  ipBlock: IpBlock;
  maintenance: MaintenanceSwitch;
  tickets: TicketService;
  /** The ticket options a system sees. */
  catalog: Pick<CatalogService, 'ticketOptions'>;
  /** Where an accepted key's use is marked (in memory; flushed about once a minute). */
  keyUse: Pick<KeyUse, 'mark'>;
}

/** A route of the ticket API (docs/ticket-api.md, the table of operations). */
export interface TicketRoute extends RouteSpec {
  readonly method: 'GET' | 'POST';
  /** The scope the key must hold (403 `forbidden_scope` after the rate check). */
  readonly scope: Scope;
  /** `json`: 415 and `invalid_body` before the key; `webhook`: any type, shape after the key. */
  readonly body: 'none' | 'json' | 'webhook';
  handle(call: AuthenticatedTicketCall): Promise<Problem | Answer>;
}

/** A call through the ticket API, filled in as it passes the gates. */
export interface TicketCall extends CallWithBody {
  deps: TicketApiDeps;
  ipBlock: IpBlock;
  route?: TicketRoute;
  /** `{system}` of the webhook path. */
  pathSystem?: string;
  /** The body text, once it is known to be a JSON object. */
  json?: string;
  system?: SystemWithKeys;
}

/** A call that passed every gate. */
export type AuthenticatedTicketCall = TicketCall & {
  route: TicketRoute;
  system: SystemWithKeys;
  json?: string;
};
