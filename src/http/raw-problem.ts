import type { Socket } from 'node:net';
import { statusTitle, type Problem } from '../errors/problem.js';

/**
 * A problem as a whole HTTP/1.1 response, for the refusals written straight on a connection, before or
 * outside any request a listener handles (a request its parser cannot read, a connection over the per-IP
 * limit). It carries what every answer of the service carries (problem+json, `X-Request-Id`,
 * `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`) and `Connection: close`: after such a
 * refusal nothing more can be read on the connection.
 */
export function rawProblemResponse(problem: Problem, requestId: string): string {
  const body = JSON.stringify(problem.toJSON());
  const headers: Record<string, string> = {
    date: new Date().toUTCString(),
    'content-type': 'application/problem+json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...problem.headers,
    connection: 'close',
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${problem.status} ${statusTitle(problem.status)}\r\n${head}\r\n${body}`;
}

/**
 * True when a response can still be written on the socket: it is open for writing and no answer of a
 * request in flight has begun (Node's own rule before it writes a refusal, so that the client never
 * reads two answers run together).
 */
export function canAnswerOn(socket: Socket): boolean {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  return socket.writable && inFlight?.headersSent !== true;
}
