import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  preHandlerHookHandler,
  RouteGenericInterface,
} from 'fastify';

// How every web face declares its pages: a page (GET) or a form post (CSRF checked first), each with
// what it needs, and a guard that runs before the handler for pages and form posts alike. The guard
// either hands the handler the page's context (the signed-in user, who they are to the audit trail) or
// answers itself (a redirect to the sign-in page, a refusal for a role that may not).

/** A page's handler, once the guard let the request through. */
export type GuardedHandler<C, RG extends RouteGenericInterface = RouteGenericInterface> = (
  request: FastifyRequest<RG>,
  reply: FastifyReply,
  ctx: C,
) => Promise<FastifyReply>;

/** The page's context for a request that may go on, or null once the guard has answered. */
export type PageGuard<C, N> = (request: FastifyRequest, reply: FastifyReply, need: N) => Promise<C | null>;

/** Declares a face's pages and form posts, each with what it needs (an ability, or nothing). */
export interface GuardedPages<C, N> {
  /** A page (GET). */
  readonly page: <RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    need: N,
    handler: GuardedHandler<C, RG>,
  ) => void;
  /** A form post: the CSRF check first, then the guard. */
  readonly action: <RG extends RouteGenericInterface = RouteGenericInterface>(
    path: string,
    need: N,
    handler: GuardedHandler<C, RG>,
  ) => void;
}

/** Pages and form posts in `scope`, behind `guard`. */
export function guardedPages<C, N>(
  scope: FastifyInstance,
  csrf: preHandlerHookHandler,
  guard: PageGuard<C, N>,
): GuardedPages<C, N> {
  const guarded =
    <RG extends RouteGenericInterface>(need: N, handler: GuardedHandler<C, RG>) =>
    async (request: FastifyRequest<RG>, reply: FastifyReply): Promise<FastifyReply> => {
      const ctx = await guard(request, reply, need);
      if (ctx === null) return reply;
      return handler(request, reply, ctx);
    };
  return {
    page(path, need, handler) {
      const run = guarded(need, handler);
      scope.get(path, async (request, reply) => {
        await run(request as FastifyRequest<never>, reply);
      });
    },
    action(path, need, handler) {
      const run = guarded(need, handler);
      scope.post(path, { preHandler: csrf }, async (request, reply) => {
        await run(request as FastifyRequest<never>, reply);
      });
    },
  };
}
