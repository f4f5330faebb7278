import type { FastifyInstance } from 'fastify';
import {
  createClientErrorHandler,
  createExpectationRefusal,
  createMissingHostRefusal,
  type EdgeRefusalDeps,
} from './edge-refusals.js';

/**
 * The Fastify options of a listener's HTTP edge: its answer to the requests Node's HTTP server cannot
 * take (edge-refusals.ts). Node's own answer to an HTTP/1.1 request without Host is turned off: the
 * edge's `onRequest` hook gives it in the problem shape.
 */
export function edgeOptions(deps: EdgeRefusalDeps) {
  return {
    http: { requireHostHeader: false },
    clientErrorHandler: createClientErrorHandler(deps),
  };
}

/**
 * Installs the rest of the edge on a listener built with `edgeOptions`: the Host check as its first
 * `onRequest` hook (call this before adding any other), and the answer to an `Expect` that cannot be met.
 */
export function installEdge(app: FastifyInstance, deps: EdgeRefusalDeps): void {
  app.addHook('onRequest', createMissingHostRefusal(deps));
  app.server.on('checkExpectation', createExpectationRefusal(deps, app.log));
}
