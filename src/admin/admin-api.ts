import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { presentedBearerToken } from '../http/bearer-token.js';
import { sameSecret } from '../lib/same-secret.js';
import { CONSOLE_PAGES, isUnder } from '../lib/api-registry.js';
import { isClientGone } from '../http/client-gone.js';
import { hasRequestBody, IDENTITY_ONLY, unsupportedContentCoding } from '../http/content-coding.js';
import { refusedAtEdge } from '../http/edge-refusals.js';
import { edgeOptions, installEdge } from '../http/listener-edge.js';
import { Problem } from '../errors/problem.js';
import { sendProblem } from '../http/send-problem.js';
import type { LoggerOptions } from '../observability/logger-options.js';
import type { Services } from '../services.js';
import { ADMIN_BODY_LIMIT_BYTES, type AdminAccess } from './admin-route.js';
import { adminRoutes } from './admin-routes.js';
import { registerAdminRoutes } from './register-admin-routes.js';
import { originForm } from '../http/request-target.js';
import { addSecurityHeaders } from '../http/security-headers.js';
import { guardClosing } from '../lifecycle/closing-guard.js';
import { adminClosingRefusal } from '../lifecycle/closing-refusals.js';
import { OneLinePerRequest } from '../observability/request-log-controller.js';
import { createRequestObserver } from '../observability/request-observer.js';
import { answerFrameworkErrorOnFace } from '../web/face-refusals.js';

/** Who is calling the back office: the operator (everything) or support (list and revoke). */
type AdminRole = 'operator' | 'support';

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

/** NDJSON receipts: any length, so the stream is handed over unread (no body limit) and read by line. */
const NDJSON_MEDIA_TYPE = 'application/x-ndjson';

/** JSON text must be UTF-8 (RFC 8259, 8.1); a BOM is kept, so that JSON.parse refuses it as before. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The back office (docs/admin-rules.md): its own Fastify instance, listening on ADMIN_HOST:ADMIN_PORT. */
export function createAdminApi(config: Config, deps: AdminDeps): FastifyInstance {
  const edge = { listener: 'admin', metrics: deps.services.metrics } as const;
  const app = Fastify({
    ...deps.logger,
    ...edgeOptions(config.http, edge),
    genReqId: () => randomUUID(),
    // One line per request, written when it is answered (request-observer.ts), not Fastify's two.
    logController: new OneLinePerRequest(),
    // As the public listener: behind the TLS proxies named in TRUST_PROXY, the client's address and the
    // protocol (the console's Secure cookies need HTTPS) come from their X-Forwarded-* headers.
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    rewriteUrl: (request) => originForm(request.url ?? '/'),
    // A closing listener answers its own problem+json 503 (guardClosing), not Fastify's.
    return503OnClosing: false,
    bodyLimit: ADMIN_BODY_LIMIT_BYTES,
    // A path that cannot be decoded (`%ff`) is refused by the router before any hook; without this it
    // would get Fastify's own JSON error instead of the problem+json with a code that every error has.
    frameworkErrors: (error, request, reply) => {
      // Under the console's prefix, the console's own page (face-refusals.ts).
      if (answerFrameworkErrorOnFace(app, error, request, reply)) return;
      request.log.info({ err: error }, 'request refused by the framework');
      void sendProblem(
        reply.header('x-request-id', request.id),
        Problem.of('not_found', { detail: 'The path is not a valid URL.' }),
      );
    },
  });
  // Every answer names its request, as the public APIs' do, so that support can find it in the logs.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  guardClosing(app, {
    lifecycle: deps.services.lifecycle,
    refusal: adminClosingRefusal,
    // /healthz and /readyz answer for themselves: a balancer reads "draining" in the readiness body.
    servedWhileClosing: (request) => request.routeOptions.config.adminAccess === 'open',
  });
  installEdge(app, edge);

  parseAdminBodies(app);

  app.decorateRequest('adminRole', 'support');
  const observe = createRequestObserver({
    metrics: deps.services.metrics,
    refusals: deps.services.refusals,
    traffic: deps.services.traffic,
  });
  app.addHook('onResponse', (request, reply, done) => {
    observe('admin', request, reply);
    done();
  });
  addSecurityHeaders(app);
  // An answer given before the request's body has arrived (a refused token, say) closes the connection:
  // this listener has no whole-request time limit, so the rest of a body sent slowly would hold it.
  app.addHook('onSend', (request, reply, payload, done) => {
    // False only on a real connection's request: an injected one (tests) has no `complete` at all.
    const complete = (request.raw as { complete?: boolean }).complete;
    if (complete === false) reply.header('connection', 'close');
    done(null, payload);
  });
  requireAdminToken(app, config);
  refuseContentCoding(app);
  answerAdminErrors(app, deps.services.metrics);

  registerAdminRoutes(app, adminRoutes, deps.services);
  return app;
}

/** The request bodies the admin API reads: JSON (strict UTF-8, empty meaning none) and NDJSON streams. */
function parseAdminBodies(app: FastifyInstance): void {
  // Fastify refuses an empty body sent with a JSON type; the bodiless POSTs (rotate, pause, revoke…)
  // are often sent that way by clients that set the type on every call, so empty JSON means no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    let text: string;
    try {
      // Decoding leniently would store U+FFFD in place of the bytes sent, where the public API refuses them.
      text = STRICT_UTF8.decode(typeof body === 'string' ? Buffer.from(body) : body);
    } catch {
      done(
        Problem.of('malformed_json', {
          detail: 'The request body is not valid UTF-8: send JSON text encoded in UTF-8.',
        }),
        undefined,
      );
      return;
    }
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
}

/** The bearer token of every route but the open ones and the console's pages: operator or support. */
function requireAdminToken(app: FastifyInstance, config: Config): void {
  app.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    const access = request.routeOptions.config.adminAccess ?? 'operator';
    // The console's pages sign their staff in with sessions of their own (src/console/), not the token.
    if (access === 'open' || (config.console && isUnder(CONSOLE_PAGES, request.url.split('?')[0] ?? ''))) {
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
}

/** Refuses a request body sent in a content coding, before it is parsed. */
function refuseContentCoding(app: FastifyInstance): void {
  // A body in a content coding (gzip, say) is refused before it is parsed, after the token: the API
  // decodes none, and reading one as plain text would store compressed bytes (RFC 9110, 15.5.16).
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const headers = request.headers;
    if (!hasRequestBody(headers) || unsupportedContentCoding(headers) === undefined) {
      done(null, payload);
      return;
    }
    done(
      Problem.of(
        'unsupported_media_type',
        {
          detail:
            'The body is sent in a content coding (Content-Encoding) that the admin API does not decode: send it as is, without Content-Encoding.',
        },
        IDENTITY_ONLY,
      ),
    );
  });
}

/** Every error as problem+json, Fastify's own translated; an aborted upload counted, not answered. */
function answerAdminErrors(app: FastifyInstance, metrics: Services['metrics']): void {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof Problem) return sendProblem(reply, error);
    // Before the 400 below: Fastify's body reader marks an aborted upload 400, but nobody is left to
    // answer. Count it, and write nothing back.
    if (isClientGone(error, request)) {
      // A connection the edge refused (a malformed body, a time limit) was answered and counted there.
      if (refusedAtEdge(request)) return;
      metrics.clientGone('admin');
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
}
