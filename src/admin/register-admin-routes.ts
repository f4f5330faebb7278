import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withDeadlines } from '../http/body-deadline.js';
import type { Services } from '../services.js';
import type { AdminAnswer, AdminInput, AdminRoute, UploadBody } from './admin-route.js';
import { adminActor } from './admin-actor.js';
import { parseInput } from './parse-input.js';

// Registers the route tables on the admin listener: each route's path, its access level (read by the
// listener's onRequest hook), and one handler that parses the call's parts in the order path → body →
// query and sends what the route's handler answers.

/** The Fastify form of a table path: `/accounts/{account}/keys` → `/accounts/:account/keys`. */
export function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** The media types of an upload (a `json-or-ndjson` body), each handed over as a stream. */
const UPLOAD_MEDIA_TYPES = { 'application/json': 'json', 'application/x-ndjson': 'ndjson' } as const;

/** What an upload's parser leaves as `request.body`: its form and the unread stream. */
class UnreadUpload {
  constructor(
    readonly kind: UploadBody['kind'],
    readonly stream: Readable,
  ) {}
}

/** Parses the path, then the body (JSON, or an upload's stream as it is), then the query. */
function inputOf(
  route: AdminRoute,
  request: FastifyRequest,
  log: FastifyBaseLogger,
  upload?: UploadBody,
): AdminInput {
  const params = route.params === undefined ? undefined : parseInput(route.params, request.params, 'path');
  let body: unknown;
  if (upload !== undefined) body = upload;
  else if (route.body?.kind === 'json')
    body = parseInput(route.body.schema, request.body ?? route.body.absent, 'body');
  const query = route.query === undefined ? undefined : parseInput(route.query, request.query, 'query');
  return { params, query, body, log, actor: adminActor(request) };
}

async function answer(
  route: AdminRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  log: FastifyBaseLogger,
): Promise<AdminAnswer> {
  if (route.body?.kind !== 'json-or-ndjson') return route.handle(inputOf(route, request, log), services);
  // A POST without a body has no type and no parser: it is read as an empty JSON body.
  const unread =
    request.body instanceof UnreadUpload ? request.body : new UnreadUpload('json', Readable.from([]));
  const upload: UploadBody = {
    kind: unread.kind,
    stream: withDeadlines(unread.stream, {
      idleMs: services.config.uploadIdleTimeoutMs,
      totalMs: services.config.uploadTimeoutMs,
    }),
    declaredLength: request.headers['content-length'],
  };
  try {
    return await route.handle(inputOf(route, request, log, upload), services);
  } catch (error) {
    // The rest of the body is not read: discard it and close the connection after the answer.
    reply.header('connection', 'close');
    upload.stream.destroy();
    unread.stream.resume();
    throw error;
  }
}

function registerRoute(app: FastifyInstance, route: AdminRoute, services: Services): void {
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    config: { adminAccess: route.access, operationId: route.operationId },
    handler: async (request, reply) => {
      const { status, body, type } = await answer(route, request, reply, services, app.log);
      reply.code(status);
      if (type !== undefined) reply.type(type);
      return reply.send(body);
    },
  });
}

/** Registers every route of the tables on the admin listener, answering from `services`. */
export function registerAdminRoutes(
  app: FastifyInstance,
  routes: readonly AdminRoute[],
  services: Services,
): void {
  const uploads = routes.filter((route) => route.body?.kind === 'json-or-ndjson');
  for (const route of routes) if (!uploads.includes(route)) registerRoute(app, route, services);
  // Uploads get a context of their own whose parsers hand the body over unread, whatever its length:
  // the listener's JSON parser reads a body whole, within the listener's small body limit.
  void app.register((uploadContext: FastifyInstance, _options, done) => {
    uploadContext.removeContentTypeParser(Object.keys(UPLOAD_MEDIA_TYPES));
    for (const [mediaType, kind] of Object.entries(UPLOAD_MEDIA_TYPES)) {
      uploadContext.addContentTypeParser(mediaType, (_request, payload, parsed) => {
        parsed(null, new UnreadUpload(kind, payload));
      });
    }
    for (const route of uploads) registerRoute(uploadContext, route, services);
    done();
  });
}
