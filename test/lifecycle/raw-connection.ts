import { connect, type Socket } from 'node:net';
import type { IncomingHttpHeaders } from 'node:http';
import type { HttpResponse } from '../support/server-process.js';

// One TCP connection written by hand: a request can be sent in pieces (headers now, the end later), so
// that a test decides exactly when the server sees it, and several requests share the connection.

/** A connection to a listener, with the answers it received read one at a time. */
export interface RawConnection {
  /** Sends bytes as they are. */
  write(data: string): void;
  /** The next complete answer (Content-Length bodies only, as both listeners send them). */
  response(timeoutMs?: number): Promise<HttpResponse>;
  /** Resolves when the server closed the connection. */
  ended: Promise<void>;
  destroy(): void;
}

/** Splits one answer off the front of `buffer`; undefined while it is incomplete. */
function parseResponse(buffer: Buffer): { response: HttpResponse; rest: Buffer } | undefined {
  const headEnd = buffer.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const bodyStart = headEnd + 4;
  if (buffer.length < bodyStart + length) return undefined;
  const text = buffer.subarray(bodyStart, bodyStart + length).toString('utf8');
  let json: unknown;
  if (/^application\/(?:[\w.-]+\+)?json\b/.test(headers['content-type'] ?? '')) json = JSON.parse(text);
  const status = Number(statusLine.split(' ')[1]);
  return { response: { status, headers, text, json }, rest: buffer.subarray(bodyStart + length) };
}

/** Opens a connection to 127.0.0.1:`port`. */
export function openConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect({ port, host: '127.0.0.1' });
    let buffer: Buffer = Buffer.alloc(0);
    let wake: (() => void) | undefined;
    let closed = false;
    const ended = new Promise<void>((resolveEnded) => {
      socket.on('close', () => {
        closed = true;
        wake?.();
        resolveEnded();
      });
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      wake?.();
    });
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.off('error', reject);
      // Later errors (a reset) end the connection; `response` then reports it.
      socket.on('error', () => undefined);
      resolve({
        write: (data) => {
          socket.write(data);
        },
        response: (timeoutMs = 20_000) =>
          new Promise((resolveResponse, rejectResponse) => {
            const timer = setTimeout(() => {
              wake = undefined;
              rejectResponse(new Error(`no complete answer in ${timeoutMs} ms: ${buffer.toString()}`));
            }, timeoutMs);
            const check = () => {
              const parsed = parseResponse(buffer);
              if (parsed !== undefined) {
                buffer = parsed.rest;
                clearTimeout(timer);
                wake = undefined;
                resolveResponse(parsed.response);
              } else if (closed) {
                clearTimeout(timer);
                wake = undefined;
                rejectResponse(new Error(`connection closed before a complete answer: ${buffer.toString()}`));
              }
            };
            wake = check;
            check();
          }),
        ended,
        destroy: () => socket.destroy(),
      });
    });
  });
}
