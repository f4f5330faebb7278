import type { FastifyInstance, FastifyReply, FastifyRequest, RouteGenericInterface } from 'fastify';
import type { Actor } from '../audit/actor.js';
import type { Services } from '../services.js';
import type { FaceKit, FaceUser, SignedInContext } from '../web/face.js';
import type { StaffRole } from '../staff/staff-user-input.js';
import { can, type ConsoleAbility } from './console-gate.js';
import type { ConsoleMessage } from './console-messages.js';

// What every page of the back-office console is written with: the face's kit (send a page, redirect,
// flash), a route declared with the ability it needs (the gate runs before the handler, for pages and
// form posts alike), the staff user as the audit trail's actor, and the back-office action log.

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
export type ConsoleHandler<RG extends RouteGenericInterface> = (
  request: FastifyRequest<RG>,
  reply: FastifyReply,
  ctx: StaffContext,
) => Promise<FastifyReply>;

/** What one change of the console is, for the back-office action log. */
export interface ConsoleActionEntry {
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
  const guarded =
    <RG extends RouteGenericInterface>(ability: ConsoleAbility, handler: ConsoleHandler<RG>) =>
    async (request: FastifyRequest<RG>, reply: FastifyReply): Promise<FastifyReply> => {
      const signed = await face.signedIn(request, reply);
      if (signed === null) return reply;
      const ctx: StaffContext = {
        ...signed,
        actor: staffActor(signed.user, request),
        can: (wanted) => can(signed.user.role, wanted),
      };
      if (!ctx.can(ability)) {
        const t = ctx.t;
        return face.send(
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
      }
      return handler(request, reply, ctx);
    };
  return {
    ...face,
    services,
    page(path, ability, handler) {
      const run = guarded(ability, handler);
      scope.get(path, async (request, reply) => {
        await run(request as FastifyRequest<never>, reply);
      });
    },
    action(path, ability, handler) {
      const run = guarded(ability, handler);
      scope.post(path, { preHandler: face.csrf }, async (request, reply) => {
        await run(request as FastifyRequest<never>, reply);
      });
    },
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
