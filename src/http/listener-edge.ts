import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpEdgeConfig } from '../config.js';
import { Problem } from '../errors/problem.js';
import {
  createClientErrorHandler,
  createExpectationRefusal,
  createMissingHostRefusal,
  refuseOnConnection,
  type EdgeRefusalDeps,
} from './edge-refusals.js';
import { isLingering, lingerAfterEarlyAnswers, LINGERING_CLOSE } from './lingering-close.js';
import { cutSilentTransfers, slowClientOptions } from './slow-clients.js';

/**
 * The Fastify options of a listener's HTTP edge: its time limits (slow-clients.ts) and its answer to the
 * requests Node's HTTP server cannot take (edge-refusals.ts). Node's own answer to an HTTP/1.1 request
 * without Host is turned off: the edge's `onRequest` hook gives it in the problem shape.
 */
export function edgeOptions(http: HttpEdgeConfig, deps: EdgeRefusalDeps) {
  const slow = slowClientOptions(http, deps.listener);
  return {
    ...slow,
    http: { ...slow.http, requireHostHeader: false },
    clientErrorHandler: createClientErrorHandler(deps),
  };
}

/**
 * An `onRequest` hook: a request read on a connection that an answer has already closed (a client that
 * sent it after its over-limit body, say) is not served, nor answered (RFC 9112, 9.6: after the close,
 * no further request is processed); the connection's staged close ends it.
 */
function ignoreRequestsAfterClose(
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (isLingering(request.raw.socket)) reply.hijack();
  done();
}

/**
 * Installs the rest of the edge on a listener built with `edgeOptions`: the staged close after an
 * answer given before the request's body was read (lingering-close.ts) and, as the first `onRequest`
 * hooks after the closing guard (call this before adding any other), the refusal to serve anything
 * after it and the Host check; the answer to an `Expect` that cannot be met, and the cut of a silent
 * body or answer (408 `request_timeout` while one can still be written).
 */
export function installEdge(app: FastifyInstance, deps: EdgeRefusalDeps): void {
  lingerAfterEarlyAnswers(app.server, LINGERING_CLOSE);
  app.addHook('onRequest', ignoreRequestsAfterClose);
  app.addHook('onRequest', createMissingHostRefusal(deps));
  app.server.on('checkExpectation', createExpectationRefusal(deps, app.log));
  cutSilentTransfers(app.server, (socket) => {
    refuseOnConnection(deps, app.log, socket, Problem.of('request_timeout'), 'silence');
  });
}
