import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { bearerToken } from '../http/bearer-token.js';
import { Problem } from '../errors/problem.js';
import { sendProblem } from '../http/send-problem.js';
import type { Metrics } from '../metrics.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import type { LoggerOptions } from '../http/logger-options.js';
import type { MaintenanceSwitch } from '../helpdesk/maintenance-switch.js';
import { registerHelpdeskAdminRoutes } from './helpdesk-routes.js';
import { registerPosKeyRoutes } from './pos-key-routes.js';
import { registerPosAdminRoutes } from './pos-routes.js';

/** Who is calling the back office: the operator (everything) or support (list and revoke). */
export type AdminRole = 'operator' | 'support';

declare module 'fastify' {
  interface FastifyRequest {
    adminRole: AdminRole;
  }
  interface FastifyContextConfig {
    /** The route is open to support staff too (admin-api.md: list systems, keys, tickets; revoke keys). */
    support?: boolean;
    /** The route needs no token (health checks). */
    open?: boolean;
  }
}

export interface AdminDeps {
  db: Db;
  clock: Clock;
  maintenance: MaintenanceSwitch;
  metrics: Metrics;
  rateLimits: RateLimitStore;
  logger: LoggerOptions;
}

function sameSecret(presented: string, expected: string | null): boolean {
  if (expected === null) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Parses a request part with a schema, or throws a 422 that names the field to fix
 * (`body.name: must not be empty`).
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  value: unknown,
  part: 'body' | 'query' | 'path',
): z.infer<S> {
  const parsed = schema.safeParse(value ?? (part === 'body' ? undefined : {}));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = [part, ...(issue?.path ?? []).map(String)].join('.');
  const message =
    issue?.code === 'unrecognized_keys'
      ? `unknown field(s) ${issue.keys.join(', ')}`
      : (issue?.message ?? 'invalid');
  throw Problem.of('validation_failed', { detail: `${where}: ${message}`, param: where });
}

/** The back office (admin-api.md): its own Fastify instance, listening on ADMIN_HOST:ADMIN_PORT. */
export function createAdminApi(config: Config, deps: AdminDeps): FastifyInstance {
  const app = Fastify({
    ...deps.logger,
    genReqId: () => randomUUID(),
    bodyLimit: 50 * 1024 * 1024,
    // A path that cannot be decoded (`%ff`) is refused by the router before any hook; without this it
    // would get Fastify's own JSON error instead of the problem+json with a code that every error has.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ err: error }, 'request refused by the framework');
      void sendProblem(reply, Problem.of('not_found', { detail: 'The path is not a valid URL.' }));
    },
  });

  // Fastify refuses an empty body sent with a JSON type; the bodiless POSTs (rotate, pause, revoke…)
  // are often sent that way by clients that set the type on every call, so empty JSON means no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        Object.assign(error instanceof Error ? error : new Error(String(error)), { statusCode: 400 }),
        undefined,
      );
    }
  });

  app.decorateRequest('adminRole', 'support');
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const routeConfig = request.routeOptions.config;
    if (routeConfig.open === true) {
      done();
      return;
    }
    const token = bearerToken(request.headers.authorization);
    if (token !== null && sameSecret(token, config.adminToken)) {
      request.adminRole = 'operator';
      done();
      return;
    }
    if (token !== null && sameSecret(token, config.supportToken)) {
      request.adminRole = 'support';
      done(routeConfig.support === true ? undefined : Problem.of('forbidden'));
      return;
    }
    done(
      Problem.of(
        'unauthorized',
        { detail: 'Send Authorization: Bearer <ADMIN_TOKEN>.' },
        { 'www-authenticate': 'Bearer' },
      ),
    );
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof Problem) return sendProblem(reply, error);
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 400)
      return sendProblem(
        reply,
        Problem.of('malformed_json', {
          detail: `The request body is not valid JSON: ${error instanceof Error ? error.message : ''}`,
        }),
      );
    if (status === 413)
      return sendProblem(
        reply,
        Problem.of('payload_too_large', { detail: 'The request body is too large.' }),
      );
    if (status === 415)
      return sendProblem(
        reply,
        Problem.of('unsupported_media_type', { detail: 'Send JSON with Content-Type: application/json.' }),
      );
    request.log.error({ err: error }, 'unexpected error');
    return sendProblem(reply, Problem.of('internal_error'));
  });
  app.setNotFoundHandler((_request, reply) => sendProblem(reply, Problem.of('not_found')));

  app.get('/healthz', { config: { open: true } }, () => ({ status: 'ok' }));
  // Ready when the database and the shared store answer; a load balancer takes the process out of
  // rotation while either does not (the process itself goes on and recovers on its own).
  app.get('/readyz', { config: { open: true } }, async (_request, reply) => {
    const [database, store] = await Promise.all([
      sql`select 1`.execute(deps.db).then(
        () => 'ok' as const,
        (error: unknown) => {
          app.log.warn({ err: error }, 'database not reachable');
          return 'unreachable' as const;
        },
      ),
      deps.rateLimits.ping().then(
        () => 'ok' as const,
        (error: unknown) => {
          app.log.warn({ err: error }, 'shared store not reachable');
          return 'unreachable' as const;
        },
      ),
    ]);
    const ready = database === 'ok' && store === 'ok';
    const body = { status: ready ? 'ready' : 'not ready', database, shared_store: store };
    return reply.code(ready ? 200 : 503).send(body);
  });
  app.get('/metrics', async (_request, reply) =>
    reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()),
  );

  registerHelpdeskAdminRoutes(app, deps);
  registerPosAdminRoutes(app, deps);
  registerPosKeyRoutes(app, { ...deps, rotationGraceSeconds: config.posRotationGraceSeconds });
  return app;
}
