import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Problem } from '../errors/problem.js';
import { redactKeys } from '../lib/redact-keys.js';
import { sendProblem } from '../http/send-problem.js';
import { CLOSING_RETRY_AFTER_SECONDS } from './closing-refusals.js';
import type { Lifecycle } from './lifecycle.js';

// A listener's part in the shutdown (docs/operations.md, Running a fleet: Shutdown). Fastify's own answer to a
// request that reaches a closing instance (`return503OnClosing`) is a JSON body without `code`,
// `Retry-After` or `X-Request-Id`; the instances turn it off and this guard answers instead.

/** A listener's answer to a request it can no longer take: a problem, or null for a plain 503. */
export type ClosingRefusal = (request: FastifyRequest) => Problem | null;

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;

/** What the guard gives back: `track` for a handler that no route registers (the not-found handler). */
export interface ClosingGuard {
  /** The handler, its run counted as work in progress. */
  track<H extends Handler>(handler: H): H;
}

/** What the shutdown's log calls a request's work in progress: method, URL (keys redacted) and kind. */
const describe = (request: FastifyRequest, kind: 'request' | 'handler') => () =>
  `${request.method} ${redactKeys(request.url)} (${kind})`;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Installs the shutdown's rules on a listener; call it right after creating the instance, before any
 * other hook or route, so that its refusal comes before every other check:
 * - while closing, a request is refused with the listener's 503 before anything of it is read;
 * - a request admitted before counts as work in progress until its answer is written or its client
 *   gone, and every route handler until it returns (a handler may still use the database after its
 *   client left), so that the stores close only after them;
 * - once draining, every answer carries `Connection: close`, so that kept-alive clients (a balancer's
 *   pool) open their next connection elsewhere.
 */
export function guardClosing(
  app: FastifyInstance,
  deps: {
    lifecycle: Lifecycle;
    refusal: ClosingRefusal;
    /** Requests still served while closing (the health checks, which report the shutdown themselves). */
    servedWhileClosing?: (request: FastifyRequest) => boolean;
  },
): ClosingGuard {
  const { lifecycle, refusal, servedWhileClosing = () => false } = deps;

  const track = <H extends Handler>(handler: H): H => {
    const tracked = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const end = lifecycle.begin(describe(request, 'handler'));
      let result: unknown;
      try {
        result = handler.call(this, request, reply);
      } catch (error) {
        end();
        throw error;
      }
      if (!isThenable(result)) {
        end();
        return result;
      }
      return Promise.resolve(result).finally(end);
    };
    return tracked as H;
  };

  app.addHook('onRoute', (route) => {
    route.handler = track(route.handler as Handler);
  });

  app.addHook('onRequest', (request, reply, done) => {
    if (lifecycle.phase() !== 'closing' || servedWhileClosing(request)) {
      reply.raw.once('close', lifecycle.begin(describe(request, 'request')));
      done();
      return;
    }
    const problem = refusal(request);
    reply.header('connection', 'close');
    if (problem !== null) {
      void sendProblem(reply, problem);
      return;
    }
    void reply
      .code(503)
      .header('retry-after', String(CLOSING_RETRY_AFTER_SECONDS))
      .type('text/plain; charset=utf-8')
      .send('Service Unavailable');
  });

  app.addHook('onSend', (_request, reply, payload, done) => {
    if (lifecycle.phase() !== 'serving') reply.header('connection', 'close');
    done(null, payload);
  });

  return { track };
}
