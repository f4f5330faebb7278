import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';

/**
 * Codes of the errors with which Node ends a request stream whose client left. An aborted upload
 * surfaces (seen on Node 20, Fastify 5) as `Error("aborted")` with code `ECONNRESET`, thrown by the
 * body's reader; the others come from a socket reset or closed while it was read or written.
 */
const CONNECTION_LOST_CODES: ReadonlySet<unknown> = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * True when the error is the client going away (an upload aborted mid-body, a reset connection), not a
 * fault of the service. Both must hold: the error is a lost connection, and it is this request's own
 * connection that is gone, so that an ECONNRESET from the database or Redis stays an error.
 */
export function isClientGone(error: unknown, request: FastifyRequest): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (!CONNECTION_LOST_CODES.has(code) && error.message !== 'aborted') return false;
  const raw = request.raw;
  // `raw.aborted` is deprecated for `destroyed`. The socket is read defensively, as Fastify's own
  // `request.ip` does, though Node's types say it is always there.
  const socket = raw.socket as Socket | null | undefined;
  return raw.destroyed || socket?.destroyed === true;
}
