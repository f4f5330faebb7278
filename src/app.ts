import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { createAdminApi } from './admin/admin-api.js';
import type { Config } from './config.js';
import { registerDocs } from './docs/docs-routes.js';
import { createTicketApiHandler } from './helpdesk/ticket-api.js';
import { ticketClosingRefusal } from './helpdesk/ticket-closing-refusal.js';
import { Problem } from './errors/problem.js';
import { isClientGone } from './http/client-gone.js';
import { limitConnectionsPerIp } from './http/connection-limit.js';
import { refusedAtEdge } from './http/edge-refusals.js';
import { edgeOptions, installEdge } from './http/listener-edge.js';
import { sendProblem } from './http/send-problem.js';
import { loggerOptions } from './observability/logger-options.js';
import { originForm } from './http/request-target.js';
import { addSecurityHeaders } from './http/security-headers.js';
import { guardClosing } from './lifecycle/closing-guard.js';
import { refusalByApi } from './lifecycle/closing-refusals.js';
import { API_LOOKING_PATH, POS_API, TICKET_API, isUnder } from './lib/api-registry.js';
import { OneLinePerRequest } from './observability/request-log-controller.js';
import { createRequestObserver } from './observability/request-observer.js';
import { registerPanel } from './panel/panel-routes.js';
import { registerConsole } from './console/console.js';
import { createPosApiHandler } from './pos/api/pos-api.js';
import { posClosingRefusal } from './pos/api/pos-closing-refusal.js';
import type { Services } from './services.js';
import { answerFrameworkErrorOnFace } from './web/face-refusals.js';

/** What the app is built from besides its configuration; tests build their own services. */
export interface AppDeps {
  /** The service layer (`createServices`): the app answers from it and builds no service itself. */
  services: Services;
  /** A logger instance to share (the entry point's), or Fastify's logger option; default: config level. */
  logger?: FastifyBaseLogger | boolean;
}

/** The two listeners of the service, built but not listening. */
export interface App {
  /** Both public APIs on one port. */
  public: FastifyInstance;
  /** The operator's back office on its own port. */
  admin: FastifyInstance;
  /** Closes both instances and the services' rate-limit store (not the database, which the caller opened). */
  close(): Promise<void>;
}

const HTML_NOT_FOUND =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Not Found</title></head>' +
  '<body><h1>Not Found</h1><p>There is nothing at this address.</p></body></html>';

function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '';
}

/**
 * Builds the two listeners over the services. Never listens: `server.ts` (or a test) decides what to do
 * with the instances.
 */
export function buildApp(config: Config, deps: AppDeps): App {
  const { services } = deps;
  const { clock, rateLimits, metrics } = services;
  const logger = deps.logger ?? { level: config.logLevel };

  const publicEdge = { listener: 'public', metrics } as const;
  const publicApp = Fastify({
    ...loggerOptions(logger),
    ...edgeOptions(config.http, publicEdge),
    genReqId: () => randomUUID(),
    // One line per request, written when it is answered (request-observer.ts), not Fastify's two.
    logController: new OneLinePerRequest(),
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
    // A closing listener answers each API's own 503 (guardClosing), not Fastify's.
    return503OnClosing: false,
    rewriteUrl: (request) => originForm(request.url ?? '/'),
    // Bodies are read by the APIs' own gates, so that 413, 415 and invalid_body come in the documented
    // order; Fastify only hands the stream over.
    frameworkErrors: (error, request, reply) => {
      if (answerFrameworkErrorOnFace(publicApp, error, request, reply)) return;
      if (API_LOOKING_PATH.test(pathOf(request))) {
        void sendProblem(reply.header('x-request-id', request.id), Problem.of('not_found'));
      } else {
        void (reply as FastifyReply).code(400).type('text/plain').send('Bad Request');
      }
      request.log.info({ err: error }, 'request refused by the framework');
    },
  });
  // Each public API answers its own 503 while the process closes; elsewhere a plain one.
  const publicClosingRefusal = refusalByApi([
    { api: TICKET_API, refuse: ticketClosingRefusal },
    { api: POS_API, refuse: posClosingRefusal },
  ]);
  const closing = guardClosing(publicApp, { lifecycle: services.lifecycle, refusal: publicClosingRefusal });
  installEdge(publicApp, publicEdge);
  limitConnectionsPerIp(publicApp.server, {
    maxPerIp: config.http.maxConnectionsPerIp,
    exempt: config.trustProxy,
    onRefused(key, requestId) {
      metrics.connectionOverIpLimit();
      // Counted in the metric; one line per refusal only at debug, since a flood would flood the log.
      publicApp.log.debug(
        { reqId: requestId, ip: key },
        'connection refused: too many open from its address',
      );
    },
  });
  publicApp.removeAllContentTypeParsers();
  const handOver = (_request: unknown, _payload: unknown, done: (error: null) => void) => {
    done(null);
  };
  // Every type is handed over alike. JSON, the APIs' own type, is named as well: Fastify remembers the
  // parser it found for a named type, while the catch-all is looked up again, its header parsed anew,
  // on every request.
  publicApp.addContentTypeParser('application/json', handOver);
  publicApp.addContentTypeParser('*', handOver);

  const ticketApi = createTicketApiHandler(services);

  const posApi = createPosApiHandler({
    merchantKeys: services.merchantKeys,
    queries: services.posQueries,
    clock,
    limits: services.limits,
    sales: services.sales,
    keyUse: services.keyUse,
  });

  const answerNotFound = (request: FastifyRequest, reply: FastifyReply) => {
    const path = pathOf(request);
    if (isUnder(TICKET_API, path)) return ticketApi(request, reply);
    if (isUnder(POS_API, path)) return posApi(request, reply);
    if (API_LOOKING_PATH.test(path)) {
      return sendProblem(reply.header('x-request-id', request.id), Problem.of('not_found'));
    }
    return reply.code(404).type('text/html; charset=utf-8').send(HTML_NOT_FOUND);
  };

  publicApp.all(`${TICKET_API.prefix}*`, ticketApi);
  publicApp.all(`${POS_API.prefix}*`, posApi);
  publicApp.setNotFoundHandler(closing.track(answerNotFound));
  registerDocs(publicApp, {
    limits: services.limits,
    publicBaseUrl: config.publicBaseUrl,
    clock,
    notFound: answerNotFound,
    env: config.env,
  });
  // The merchant panel (issue 13): its own scope under /panel, with its sessions, forms and pages; none
  // of the APIs' gates apply there, and nothing of it under the APIs' prefixes.
  if (config.panel) registerPanel(publicApp, { services });
  publicApp.setErrorHandler((error, request, reply) => {
    // Fastify refuses a malformed Content-Type (and QUERY without one) before any route runs; the APIs
    // judge method and type themselves, in their documented order of problems.
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE') {
      return answerNotFound(request, reply);
    }
    if (isClientGone(error, request)) {
      // Nobody is left to answer: count it, and write nothing back. A connection the edge refused (a
      // malformed body, a time limit) was answered and counted there.
      if (refusedAtEdge(request)) return;
      metrics.clientGone('public');
      request.log.info({ err: error }, 'client went away before the answer');
      return;
    }
    request.log.error({ err: error }, 'unexpected error');
    return sendProblem(reply.header('x-request-id', request.id), Problem.of('internal_error'));
  });
  addSecurityHeaders(publicApp);
  const observe = createRequestObserver({
    metrics,
    refusals: services.refusals,
    traffic: services.traffic,
  });
  publicApp.addHook('onResponse', (request, reply, done) => {
    observe('public', request, reply);
    done();
  });

  const admin = createAdminApi(config, { services, logger: loggerOptions(logger) });
  if (config.console) registerConsole(admin, { services });

  return {
    public: publicApp,
    admin,
    async close() {
      await Promise.all([publicApp.close(), admin.close()]);
      await rateLimits.close();
      await services.notices.close();
    },
  };
}
