import type { IncomingMessage, Server } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

// An answer given before the request's body was read to its end (413 for a body over the limit, a
// refused token, an edge refusal) closes the connection while the client is still sending. Closed at
// once, the connection is reset by the client's next bytes, and the reset reaches the client before it
// has read the answer: its write fails (EPIPE, ECONNRESET) and the answer is lost. Measured before, with
// Node's HTTP client against a server process: an 8 MiB ticket body got its 413 in 16 to 25 of 40
// tries. RFC 9112, 9.6 (Tear-down) gives the staged close used here instead: after the answer the
// server closes its writing side only, goes on reading (and dropping) what the client sends, and closes
// the connection once the client has closed its side, or has sent what it meant to, or a bound below is
// reached.

/** How long and how much a connection is read, and dropped, after its answer closed it. */
export interface LingerBounds {
  /** Longest time from the answer to the close, however steadily the client sends. */
  totalMs: number;
  /** Longest time the client may send nothing before the connection is closed. */
  idleMs: number;
  /** Most bytes read after the answer; past them the connection is closed at once. */
  maxBytes: number;
}

/**
 * The bounds of every listener (docs/operations.md, Connections and time limits). The answer arrives before the
 * linger starts, and a client reads it within milliseconds; the bounds only keep a client that goes on
 * sending from holding the connection: 5 s at most, 1 s of silence (the per-IP limit's refusals had
 * that), 16 MiB read (an 8 MiB body sent whole fits twice).
 */
export const LINGERING_CLOSE: LingerBounds = Object.freeze({
  totalMs: 5000,
  idleMs: 1000,
  maxBytes: 16 * 1024 * 1024,
});

/** Connections being read after their answer; none of their requests is served any more. */
const lingering = new WeakSet<Socket>();

/**
 * True once the connection's answer closed it and what the client still sends is only dropped: a
 * request found on it afterwards is not served (RFC 9112, 9.6: after a close, no further request).
 */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Closes the connection in stages (RFC 9112, 9.6): the writing side at once, after what was written
 * (the answer); then what the client sends is read and dropped until it closes its side, or has sent
 * the whole of `body` when one is given, or a bound is reached. The connection is then closed, reset
 * when a bound cut the client while it was still sending. `body` is the request whose rest arrives
 * through Node's HTTP parser; without one (a connection the parser never saw, or could not read) the
 * bytes are dropped as they come.
 */
export function closeLingering(socket: Socket, bounds: LingerBounds, body?: Readable): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const start = socket.bytesRead;
  let seen = start;
  let quietSince = performance.now();

  // Bytes are counted on the socket (`bytesRead`), also when Node's parser reads it: the parser only
  // hands the body on, and nothing after a malformed byte.
  const check = (): void => {
    const read = socket.bytesRead;
    if (read - start > bounds.maxBytes) {
      cut();
      return;
    }
    if (read !== seen) {
      seen = read;
      quietSince = performance.now();
    } else if (performance.now() - quietSince >= bounds.idleMs) {
      cut();
    }
  };
  const poll = setInterval(check, Math.max(10, Math.min(250, Math.floor(bounds.idleMs / 10))));
  const total = setTimeout(cut, bounds.totalMs);
  poll.unref();
  total.unref();

  function stop(): void {
    clearInterval(poll);
    clearTimeout(total);
  }
  function cut(): void {
    stop();
    socket.destroy();
  }
  // The client has sent all it will: nothing is left to reset the connection, which closes once the
  // answer is written (still within the total bound, for a client that does not read it).
  function sent(): void {
    clearInterval(poll);
    if (socket.writableFinished) socket.destroy();
    else socket.once('finish', () => socket.destroy());
  }

  socket.once('close', stop);
  socket.on('error', () => socket.destroy());
  socket.once('end', sent);
  socket.on('data', check);
  if (body !== undefined && !body.destroyed) {
    // What `IncomingMessage`'s own dump does: no reader is left, every chunk is dropped.
    body.unpipe();
    body.removeAllListeners('data');
    body.on('data', check);
    body.once('end', sent);
    body.resume();
  }
  socket.resume();
  if (socket.writable) socket.end();
}

/**
 * Makes every answer that closes a connection of the server before its request was read to its end
 * close it in stages (`closeLingering`). Node's HTTP server closes a connection after its last answer
 * with `socket.destroySoon()`, which resets it when unread bytes are left; each connection's own
 * `destroySoon` lingers instead when its request is not whole. A connection whose request was read to
 * its end closes as before.
 */
export function lingerAfterEarlyAnswers(server: Server, bounds: LingerBounds): void {
  const current = new WeakMap<Socket, IncomingMessage>();
  const track = (request: IncomingMessage): void => {
    const socket = request.socket;
    if (!current.has(socket)) {
      socket.destroySoon = function lingerOrClose(this: Socket): void {
        const last = current.get(this);
        if (last?.complete === true) Socket.prototype.destroySoon.call(this);
        else closeLingering(this, bounds, last);
      };
    }
    current.set(socket, request);
  };
  // First, so that the request is known before any answer to it can be written.
  server.prependListener('request', track);
  server.prependListener('checkExpectation', track);
}
