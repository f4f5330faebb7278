import type { FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { Actor } from '../audit/actor.js';
import type { MerchantUser } from '../pos/users/merchant-user-service.js';
import type { Services } from '../services.js';
import type { FaceKit, SignedInContext } from '../web/face.js';
import { guardedPages, type GuardedHandler } from '../web/guarded-pages.js';
import type { PanelMessage } from './panel-messages.js';

// What every page of the merchant panel is written with: the face's kit (send a page, redirect, flash),
// a page or form post for a signed-in merchant user (the web kit's guarded pages), the user as the audit
// trail's actor, and the services the pages are thin over.

export const PANEL_PREFIX = '/panel';

/** The services the panel's pages use. */
export type PanelServices = Pick<
  Services,
  | 'sessionsOf'
  | 'clock'
  | 'rateLimits'
  | 'merchantKeys'
  | 'merchantUsers'
  | 'posData'
  | 'sales'
  | 'config'
  | 'keyAudit'
  | 'refusals'
  | 'metrics'
>;

/** A page's context: the signed-in merchant user and who they are to the audit trail. */
export interface PanelContext extends SignedInContext<MerchantUser, PanelMessage> {
  /** Role `merchant_user`, channel `panel`, the user's id and name, the client's address. */
  readonly actor: Actor;
}

/** A panel route's handler, once the user is signed in. */
type PanelHandler<RG extends RouteGenericInterface> = GuardedHandler<PanelContext, RG>;

/** The kit a panel page module registers its routes with. */
export interface PanelKit extends FaceKit<MerchantUser, PanelMessage> {
  readonly services: PanelServices;
  /** A page (GET) for a signed-in user. */
  page<RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    handler: PanelHandler<RG>,
  ): void;
  /** A form post (CSRF checked first, then the sign-in) for a signed-in user. */
  action<RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    handler: PanelHandler<RG>,
  ): void;
}

/** The audit trail's actor of a panel action: the signed-in merchant user, channel `panel`. */
function merchantActor(user: MerchantUser, request: FastifyRequest): Actor {
  return { role: 'merchant_user', userId: user.id, displayName: user.name, channel: 'panel', ip: request.ip };
}

/** Builds the panel's kit over the face's, in the panel's scope. */
export function panelKit(
  scope: FastifyInstance,
  face: FaceKit<MerchantUser, PanelMessage>,
  services: PanelServices,
): PanelKit {
  const routes = guardedPages(scope, face.csrf, async (request, reply, _need: null) => {
    const signed = await face.signedIn(request, reply);
    if (signed === null) return null;
    const ctx: PanelContext = { ...signed, actor: merchantActor(signed.user, request) };
    return ctx;
  });
  return {
    ...face,
    services,
    page: (path, handler) => {
      routes.page(path, null, handler);
    },
    action: (path, handler) => {
      routes.action(path, null, handler);
    },
  };
}
