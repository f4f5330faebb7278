import type { FastifyInstance, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { Actor } from '../audit/actor.js';
import type { Services } from '../services.js';
import type { FaceKit, FaceUser, SignedInContext } from '../web/face.js';
import { guardedPages, type GuardedHandler } from '../web/guarded-pages.js';
import type { StaffRole } from '../staff/staff-user-input.js';
import { can, type ConsoleAbility } from './console-gate.js';
import type { ConsoleMessage } from './console-messages.js';

// What every page of the back-office console is written with: the face's kit (send a page, redirect,
// flash), a route declared with the ability it needs (the web kit's guarded pages: the gate runs before
// the handler, for pages and form posts alike), the staff user as the audit trail's actor, and the
// back-office action log.

/** A staff user, as the console sees them. */
export interface ConsoleStaff extends FaceUser {
  readonly email: string;
  readonly role: StaffRole;
}

/** A page's context: the signed-in staff user, who they are to the audit trail, and what they may do. */
export interface StaffContext extends SignedInContext<ConsoleStaff, ConsoleMessage> {
  /** Role `staff`, channel `console`, the user's id and name, the client's address. */
  readonly actor: Actor;
  /** Whether the user may do this: a page shows a link or a button only when it is true. */
  can(ability: ConsoleAbility): boolean;
}

/** A console route's handler, once the user is signed in and allowed. */
type ConsoleHandler<RG extends RouteGenericInterface> = GuardedHandler<StaffContext, RG>;

/** What one change of the console is, for the back-office action log. */
interface ConsoleActionEntry {
  /** What was done: the admin API's operation id for the same change (`putHelpDeskCompany`). */
  action: string;
  /** What it was done to: its path under /admin/v1/ (`helpdesk/categories/7`), as the admin API's. */
  target: string;
  /** What changed, never a secret. */
  details?: Record<string, unknown>;
}

/** The kit a console page module registers its routes with. */
export interface ConsoleKit extends FaceKit<ConsoleStaff, ConsoleMessage> {
  readonly services: Services;
  /** A page (GET) for users with this ability. */
  page<RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    ability: ConsoleAbility,
    handler: ConsoleHandler<RG>,
  ): void;
  /** A form post (CSRF checked first, then the gate) for users with this ability. */
  action<RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    ability: ConsoleAbility,
    handler: ConsoleHandler<RG>,
  ): void;
  /** Writes a change to the back-office action log, with the staff user as actor. */
  record(ctx: StaffContext, entry: ConsoleActionEntry): Promise<void>;
  /**
   * Registers routes in a context of their own that `setup` prepares first (the receipts upload adds
   * body parsers that hand the body over as a stream), so that every other route keeps reading forms only.
   */
  encapsulated(setup: (scope: FastifyInstance) => void, register: (kit: ConsoleKit) => void): void;
}

/** The actor of a console change: the staff user, channel `console`. */
export function staffActor(user: ConsoleStaff, request: FastifyRequest): Actor {
  return { role: 'staff', userId: user.id, displayName: user.name, channel: 'console', ip: request.ip };
}

/** Builds the console's kit over the face's, in the console's scope. */
export function consoleKit(
  scope: FastifyInstance,
  face: FaceKit<ConsoleStaff, ConsoleMessage>,
  services: Services,
): ConsoleKit {
  const routes = guardedPages(scope, face.csrf, async (request, reply, ability: ConsoleAbility) => {
    const signed = await face.signedIn(request, reply);
    if (signed === null) return null;
    const ctx: StaffContext = {
      ...signed,
      actor: staffActor(signed.user, request),
      can: (wanted) => can(signed.user.role, wanted),
    };
    if (ctx.can(ability)) return ctx;
    const t = ctx.t;
    void face.send(
      request,
      reply,
      ctx,
      t('roleForbiddenTitle'),
      face.message(
        ctx,
        t('roleForbiddenTitle'),
        t('roleForbiddenText', { role: t(`role_${ctx.user.role}`) }),
      ),
      { status: 403 },
    );
    return null;
  });
  return {
    ...face,
    services,
    page: routes.page,
    action: routes.action,
    encapsulated(setup, register) {
      void scope.register((child: FastifyInstance, _options, done) => {
        setup(child);
        register(consoleKit(child, face, services));
        done();
      });
    },
    async record(ctx, entry) {
      await services.backOfficeLog.append(ctx.actor, {
        action: entry.action,
        target: entry.target,
        details: entry.details ?? {},
      });
    },
  };
}
