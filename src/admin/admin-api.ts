import { randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { presentedBearerToken } from '../http/bearer-token.js';
import { isClientGone } from '../http/client-gone.js';
import { Problem } from '../errors/problem.js';
import { sendProblem } from '../http/send-problem.js';
import type { LoggerOptions } from '../http/logger-options.js';
import type { Services } from '../services.js';
import type { AdminAccess } from './admin-route.js';
import { adminRoutes } from './admin-routes.js';
import { registerAdminRoutes } from './register-admin-routes.js';
import { originForm } from '../http/request-target.js';
import { addSecurityHeaders } from '../http/security-headers.js';

/** Who is calling the back office: the operator (everything) or support (list and revoke). */
export type AdminRole = 'operator' | 'support';

declare module 'fastify' {
  interface FastifyRequest {
    adminRole: AdminRole;
  }
  interface FastifyContextConfig {
    /** Who may call the route (its table's `access`); absent (no such route): the operator only. */
    adminAccess?: AdminAccess;
  }
}

/** What the back office is built from: the service layer, and the logger it shares with the app. */
export interface AdminDeps {
  services: Services;
  logger: LoggerOptions;
}

function sameSecret(presented: string, expected: string | null): boolean {
  if (expected === null) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** NDJSON receipts: any length, so the stream is handed over unread (no body limit) and read by line. */
export const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/**
 * The largest JSON body the listener reads whole: every route's body is a few kilobytes. Uploads
 * (receipts) read their own bodies as streams, with limits of their own (register-admin-routes.ts).
 */
const ADMIN_BODY_LIMIT_BYTES = 1024 * 1024;

/** The back office (admin-api.md): its own Fastify instance, listening on ADMIN_HOST:ADMIN_PORT. */
export function createAdminApi(config: Config, deps: AdminDeps): FastifyInstance {
  const app = Fastify({
    ...deps.logger,
    genReqId: () => randomUUID(),
    rewriteUrl: (request) => originForm(request.url ?? '/'),
    bodyLimit: ADMIN_BODY_LIMIT_BYTES,
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

  app.addContentTypeParser(NDJSON_MEDIA_TYPE, (_request, payload, done) => {
    done(null, payload);
  });

  app.decorateRequest('adminRole', 'support');
  addSecurityHeaders(app);
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const access = request.routeOptions.config.adminAccess ?? 'operator';
    if (access === 'open') {
      done();
      return;
    }
    const token = presentedBearerToken(request);
    if (token !== null && sameSecret(token, config.adminToken)) {
      request.adminRole = 'operator';
      done();
      return;
    }
    if (token !== null && sameSecret(token, config.supportToken)) {
      request.adminRole = 'support';
      done(access === 'support' ? undefined : Problem.of('forbidden'));
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
    // Before the 400 below: Fastify's body reader marks an aborted upload 400, but nobody is left to
    // answer. Count it, and write nothing back.
    if (isClientGone(error, request)) {
      deps.services.metrics.clientGone('admin');
      request.log.info({ err: error }, 'client went away before the answer');
      return;
    }
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

  registerAdminRoutes(app, adminRoutes, deps.services);
  return app;
}
