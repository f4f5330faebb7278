import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import type { Metrics } from '../observability/metrics.js';
import { closeLingering, isLingering, LINGERING_CLOSE } from './lingering-close.js';
import { canAnswerOn, rawProblemResponse } from './raw-problem.js';
import { sendProblem } from './send-problem.js';

// Requests refused at the HTTP edge, before any API reads them: those Node's HTTP parser cannot read,
// those past a time limit, an Expect header that cannot be met, an HTTP/1.1 request without Host. Left to
// Node and Fastify they are answered `{"error":"Bad Request","message":"Client Error"}`, or a bare 400,
// 408, 417 or 431, without X-Request-Id; here they get the problem+json shape of every other refusal,
// with a code of the catalogue, and the connection is closed.

/** Which listener refused: the public one (both APIs) or the admin one. */
export type Listener = 'public' | 'admin';

/** What the edge's refusals report to: the listener's logger and the service's metrics. */
export interface EdgeRefusalDeps {
  listener: Listener;
  metrics: Pick<Metrics, 'edgeRefusal'>;
}

/** An error of Node's HTTP server about a connection (a parser error carries llhttp's `reason`). */
interface ClientError extends Error {
  code?: string;
  reason?: string;
}

/** Connections on which the edge answered (and closed) while a request was in flight. */
const answeredAtEdge = new WeakSet<Socket>();

/**
 * True when the edge refused the request's connection (a malformed body, a time limit): the request's
 * own reading then fails, and that failure is not a client going away.
 */
export function refusedAtEdge(request: FastifyRequest): boolean {
  return answeredAtEdge.has(request.raw.socket);
}

/** The problem for an error of Node's HTTP server about a request it could not take. */
function clientErrorProblem(error: ClientError): Problem {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return Problem.of('request_timeout');
    case 'HPE_HEADER_OVERFLOW':
      return Problem.of('headers_too_large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return Problem.of('payload_too_large', { detail: 'The chunk extensions of the body are too large.' });
    default: {
      // llhttp's reasons are fixed texts ("Invalid method encountered"), never the client's bytes.
      const reason = typeof error.reason === 'string' && error.reason !== '' ? `: ${error.reason}` : '';
      return Problem.of('malformed_request', {
        detail: `The request is not valid HTTP/1.1 and could not be read${reason}. Fix the request before resending it.`,
      });
    }
  }
}

/**
 * Writes the refusal on the connection when it still allows an answer, then closes it in stages, so
 * that a client still sending reads the answer (lingering-close.ts); at once when no answer can be
 * written (an answer already begun, a client that reads nothing). One refusal per connection. Logged at
 * info without the request's bytes (Node attaches them to a parser error, Authorization header included).
 */
export function refuseOnConnection(
  deps: EdgeRefusalDeps,
  log: FastifyBaseLogger,
  socket: Socket,
  problem: Problem,
  cause: string | undefined,
): void {
  if (answeredAtEdge.has(socket)) return;
  answeredAtEdge.add(socket);
  const requestId = randomUUID();
  if (canAnswerOn(socket)) {
    socket.write(rawProblemResponse(problem, requestId));
    closeLingering(socket, LINGERING_CLOSE);
  } else {
    socket.destroy();
  }
  deps.metrics.edgeRefusal(deps.listener, problem.code ?? String(problem.status));
  log.info({ reqId: requestId, code: problem.code, cause }, 'request refused at the HTTP edge');
}

/**
 * Errors that say the client went away: reset, or closed its side before its request was whole (an
 * upload aborted mid-body). Nobody is left to answer; the request in flight, if any, counts it as a
 * client gone (client-gone.ts).
 */
const CLIENT_LEFT: ReadonlySet<string | undefined> = new Set([
  'ECONNRESET',
  'EPIPE',
  'HPE_INVALID_EOF_STATE',
]);

/**
 * Fastify's `clientErrorHandler` (called with the instance as `this`): a request Node's HTTP server
 * could not take, answered as a problem.
 */
export function createClientErrorHandler(deps: EdgeRefusalDeps) {
  return function answerClientError(this: { log: FastifyBaseLogger }, error: ClientError, socket: Socket) {
    // A connection already answered and closing in stages: its bounds end it, nothing more is answered.
    if (socket.destroyed || isLingering(socket)) return;
    if (CLIENT_LEFT.has(error.code)) {
      socket.destroy();
      return;
    }
    refuseOnConnection(deps, this.log, socket, clientErrorProblem(error), error.code);
  };
}

/**
 * The `checkExpectation` listener of a listener's server: an `Expect` other than `100-continue` (RFC 9110,
 * 10.1.1) gets 417 `expectation_failed` instead of Node's bare 417, and the connection is closed, since
 * the body the client holds back is never read.
 */
export function createExpectationRefusal(deps: EdgeRefusalDeps, log: FastifyBaseLogger) {
  return (_request: IncomingMessage, response: ServerResponse): void => {
    const requestId = randomUUID();
    const problem = Problem.of('expectation_failed');
    const body = JSON.stringify(problem.toJSON());
    response.writeHead(problem.status, {
      'content-type': 'application/problem+json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(body);
    deps.metrics.edgeRefusal(deps.listener, 'expectation_failed');
    log.info({ reqId: requestId, code: problem.code }, 'request refused at the HTTP edge');
  };
}

/**
 * An `onRequest` hook: an HTTP/1.1 request without Host is 400 `malformed_request` (RFC 9112, 3.2: a
 * server MUST refuse it), which Node would answer with a bare 400. Registered first, before any API's
 * checks, where Node's refusal stood.
 */
export function createMissingHostRefusal(deps: EdgeRefusalDeps) {
  return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void => {
    const raw = request.raw;
    if (raw.httpVersionMajor !== 1 || raw.httpVersionMinor !== 1 || raw.headers.host !== undefined) {
      done();
      return;
    }
    deps.metrics.edgeRefusal(deps.listener, 'malformed_request');
    request.log.info({ code: 'malformed_request' }, 'request refused at the HTTP edge: no Host header');
    void sendProblem(
      reply.header('x-request-id', request.id).header('connection', 'close'),
      Problem.of('malformed_request', { detail: 'An HTTP/1.1 request must carry a Host header.' }),
    );
  };
}
