import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { BlockList, isIPv6, type Socket } from 'node:net';
import { Problem } from '../errors/problem.js';
import { ipBlockKey } from '../lib/ip-key.js';
import { closeLingering, LINGERING_CLOSE } from './lingering-close.js';
import { rawProblemResponse } from './raw-problem.js';

/** What the per-IP connection limit of a listener is built from. */
export interface ConnectionLimitOptions {
  /** Connections one client address (IPv6: one /64, as the IP limits count) may hold open. */
  maxPerIp: number;
  /** Addresses and CIDRs of trusted proxies (TRUST_PROXY): every client comes through them, uncounted. */
  exempt: readonly string[];
  /** Called for each connection refused, with the key of its address. */
  onRefused(key: string, requestId: string): void;
}

/** The trusted proxies as a list Node matches addresses against (IPv4-mapped IPv6 included). */
function addressList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', bits] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(bits), family);
  }
  return list;
}

/**
 * Bounds the connections one client address holds open on the server. A request counts toward the IP
 * block only once it completes, so a client that opens connections and never finishes a request was
 * bounded by nothing: 1,100 of them left a partner with a valid key no answer at all. A connection over
 * the limit is refused at once, before Node's HTTP server reads anything from it: it is answered 429
 * `rate_limited` with `Retry-After` and `Connection: close`, then closed.
 *
 * Node's HTTP server takes every accepted socket in its own `connection` listener and starts reading it
 * there; so that a refused socket never reaches it, that listener is called only for the admitted ones.
 */
export function limitConnectionsPerIp(server: Server, options: ConnectionLimitOptions): void {
  const exempt = addressList(options.exempt);
  const open = new Map<string, number>();
  const refusal = (requestId: string) =>
    rawProblemResponse(
      Problem.of(
        'rate_limited',
        {
          detail: `Too many open connections from this address (at most ${options.maxPerIp}). Reuse or close the open ones, and retry after the time in the Retry-After header.`,
        },
        // The limit frees as soon as one of the address's connections closes; no window to wait out.
        { 'retry-after': '1' },
      ),
      requestId,
    );

  const admitted = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    const counted = address !== undefined && !exempt.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
    if (counted) {
      const key = ipBlockKey(address);
      const held = open.get(key) ?? 0;
      if (held >= options.maxPerIp) {
        const requestId = randomUUID();
        refuse(socket, refusal(requestId));
        options.onRefused(key, requestId);
        return;
      }
      open.set(key, held + 1);
      socket.once('close', () => {
        const left = (open.get(key) ?? 1) - 1;
        if (left === 0) open.delete(key);
        else open.set(key, left);
      });
    }
    for (const listener of admitted) listener.call(server, socket);
  });
}

/**
 * Answers a refused connection and closes it. The answer may reach the client before its request is
 * sent: an HTTP/1.1 client reads it as the answer to that request. The close is staged, as after every
 * early answer (lingering-close.ts): what the client sends is read and dropped until it closes, so that
 * the close does not reset the connection before the answer is read.
 */
function refuse(socket: Socket, response: string): void {
  socket.write(response);
  closeLingering(socket, LINGERING_CLOSE);
}
