import { connect, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

// A raw TCP client for the suites whose behaviour lives in Node's HTTP server (its parser, its time
// limits, the connections it accepts), which `inject` never reaches.

/** The first answer read on a connection, and when the server closed it. */
export interface RawAnswer {
  /** 0 when nothing was answered. */
  status: number;
  /** Header names in lowercase. */
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the connection to its close by the server (or the client's own end). */
  closedAfterMs: number;
}

/** An open connection: write to `socket`; `answer` settles when the connection closes. */
export interface RawConnection {
  socket: Socket;
  answer: Promise<RawAnswer>;
}

/** The port a listening instance was given. */
export function portOf(listener: FastifyInstance): number {
  return (listener.server.address() as { port: number }).port;
}

/** Parses the first HTTP/1.1 response of what was read. */
export function parseAnswer(text: string, closedAfterMs: number): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return { status: 0, headers: {}, body: '', closedAfterMs };
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  const body = Buffer.from(text.slice(end + 4), 'utf8')
    .subarray(0, length)
    .toString('utf8');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, body, closedAfterMs };
}

/** Opens a connection to 127.0.0.1 (from `localAddress`, when given) once it is established. */
export function openConnection(port: number, localAddress?: string): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect({
      port,
      host: '127.0.0.1',
      ...(localAddress === undefined ? {} : { localAddress }),
    });
    const chunks: Buffer[] = [];
    const answer = new Promise<RawAnswer>((settle) => {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('close', () => {
        settle(parseAnswer(Buffer.concat(chunks).toString('utf8'), Date.now() - started));
      });
    });
    socket.on('error', () => {
      // A reset after the answer is still an answer: `close` follows and settles it.
    });
    socket.once('connect', () => {
      resolve({ socket, answer });
    });
    socket.once('error', reject);
  });
}

/** Sends the bytes on a new connection and reads until the server closes it. */
export async function exchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  const { socket, answer } = await openConnection(port);
  socket.write(bytes);
  return answer;
}
