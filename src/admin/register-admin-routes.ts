import { Readable } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { withDeadlines } from '../http/body-deadline.js';
import type { BackOfficeEntry } from '../audit/back-office-log.js';
import type { Services } from '../services.js';
import type { AdminAnswer, AdminInput, AdminRoute, UploadBody } from './admin-route.js';
import { adminActor } from './admin-actor.js';
import { parseInput } from './parse-input.js';

// Registers the route tables on the admin listener: each route's path, its access level (read by the
// listener's onRequest hook), and one handler that parses the call's parts in the order path → body →
// query, writes a successful change to the back-office log, and sends what the route's handler answers.

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

/** A call's parts as its handler got them, and what the handler answered. */
export interface Answered {
  readonly input: AdminInput;
  readonly answer: AdminAnswer;
}

async function answer(
  route: AdminRoute,
  request: FastifyRequest,
  reply: FastifyReply,
  services: Services,
  log: FastifyBaseLogger,
): Promise<Answered> {
  if (route.body?.kind !== 'json-or-ndjson') {
    const input = inputOf(route, request, log);
    return { input, answer: await route.handle(input, services) };
  }
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
    const input = inputOf(route, request, log, upload);
    return { input, answer: await route.handle(input, services) };
  } catch (error) {
    // The rest of the body is not read: discard it and close the connection after the answer.
    reply.header('connection', 'close');
    upload.stream.destroy();
    unread.stream.resume();
    throw error;
  }
}

/** The longest JSON body (in characters) an action's details keep; of a longer one, only its length. */
const LOGGED_BODY_MAX_CHARS = 4096;

/**
 * What the back-office log keeps of a successful change: the operation, its target (the path under
 * /admin/v1/, parameters filled in), the status, the request id (the request's log line has the same),
 * the id of what it created, and the JSON body sent (never an upload's; the log hides members named like
 * secrets). Never the answer's body, which may hold a key shown once.
 */
export function backOfficeEntryOf(
  route: AdminRoute,
  request: Pick<FastifyRequest, 'params' | 'id'>,
  called: Answered,
): BackOfficeEntry {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const target = route.path
    .replace(/\{([^}]+)\}/g, (_, name: string) => params[name] ?? '')
    .replace(/^\/admin\/v1\//, '');
  const details: Record<string, unknown> = { status: called.answer.status, request_id: request.id };
  const answered: unknown = called.answer.body;
  if (typeof answered === 'object' && answered !== null && 'id' in answered) {
    const { id } = answered;
    if (typeof id === 'string' || typeof id === 'number') details.id = id;
  }
  if (route.body?.kind === 'json' && called.input.body !== undefined) {
    const text = JSON.stringify(called.input.body);
    if (text.length <= LOGGED_BODY_MAX_CHARS) details.body = JSON.parse(text);
    else details.body_chars = text.length;
  }
  return { action: route.operationId, target, details };
}

/**
 * Writes a successful change to the back-office log, after it was made: a failure to write is logged
 * and changes nothing of the answer (the change itself is done).
 */
async function recordAction(
  route: AdminRoute,
  request: FastifyRequest,
  called: Answered,
  services: Services,
): Promise<void> {
  try {
    await services.backOfficeLog.append(called.input.actor, backOfficeEntryOf(route, request, called));
  } catch (error) {
    request.log.error(
      { err: error, operationId: route.operationId },
      'back-office action not recorded: the change was made, the log misses it',
    );
  }
}

function registerRoute(app: FastifyInstance, route: AdminRoute, services: Services): void {
  app.route({
    method: route.method,
    url: fastifyPath(route.path),
    config: { adminAccess: route.access, operationId: route.operationId },
    handler: async (request, reply) => {
      const called = await answer(route, request, reply, services, app.log);
      if (route.method !== 'GET' && (route.loggedBy ?? 'registrar') === 'registrar') {
        await recordAction(route, request, called, services);
      }
      const { status, body, type } = called.answer;
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
