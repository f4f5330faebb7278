import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { HttpEdgeConfig } from '../config.js';
import type { Listener } from './edge-refusals.js';

/**
 * Fastify's server options that bound how long a client may hold a connection of the listener without
 * completing its part (HTTP_* variables). Without them Node waits 60 s for a request head (up to 90 s in
 * practice), and nothing bounds a body sent one byte at a time.
 *
 * - The head: `headersTimeout`, on both listeners, also for a connection that sends nothing.
 * - The whole request, head and body: `requestTimeout`, on the public listener only. The admin listener
 *   carries receipts uploads of any length, which a whole-request limit would cut however steadily they
 *   send; there a body is cut only by silence (below), and an upload's total time is bounded by the
 *   ingestion's own limit.
 * - The wait for the next request on a kept-alive connection: `keepAliveTimeout` (Node adds one second,
 *   so that the client, told the timeout, closes first).
 * - Silence while the client should be sending a body or reading an answer: `connectionTimeout`, with
 *   `cutSilentTransfers` deciding what a silence means.
 */
export function slowClientOptions(http: HttpEdgeConfig, listener: Listener) {
  const requestTimeout = listener === 'public' ? http.requestTimeoutMs : 0;
  return {
    requestTimeout,
    keepAliveTimeout: http.keepAliveTimeoutMs,
    connectionTimeout: http.idleTimeoutMs,
    http: {
      headersTimeout: http.headersTimeoutMs,
      requestTimeout,
      // Node looks for requests past their time once per interval (30 s by default); a tenth of the head's
      // limit (at most a second) keeps every cut within about a tenth of its limit.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(http.headersTimeoutMs / 10))),
    },
  };
}

/**
 * Decides what a silent connection means (Node asks the answer in flight first, through its `timeout`
 * event, and closes the connection only when nobody listens). The time the service spends working on an
 * answer is not the client's: a sales query may take longer than the idle limit. Any other silence is
 * the client's, a body that stopped arriving or an answer it stopped reading, and goes to `onSilence`,
 * which refuses and closes. A connection between requests is left to Node (`keepAliveTimeout`).
 */
export function cutSilentTransfers(server: Server, onSilence: (socket: Socket) => void): void {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.on('timeout', (socket: Socket) => {
      if (request.complete && !response.headersSent) return;
      onSilence(socket);
    });
  });
}
