import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy in front of PostgreSQL or Redis, so that a fault test can break the path to the shared
// server for one process under test without touching the server itself (other test files use it at the
// same time). Point the process at `proxy.url(TEST_DATABASE_URL)` and break or mend the path at will.

/** What the proxy does with connections. */
type Mode = 'forward' | 'frozen' | 'blackhole' | 'refused' | 'closed';

/** A forwarded connection: the client's side and the proxy's own connection to the target. */
interface Pair {
  client: Socket;
  upstream: Socket;
}

/** A proxy on 127.0.0.1 whose port stays the same across refuse/restore. */
export interface TcpProxy {
  readonly port: number;
  /** The URL with its host and port replaced by the proxy's (credentials, path and query kept). */
  url(base: string): string;
  /** Drops every open connection (both sides) and stops listening: new connections get ECONNREFUSED. */
  refuse(): Promise<void>;
  /**
   * Drops every open connection; new ones are accepted but never forwarded nor answered, as when a
   * firewall swallows packets. Only while listening: after `refuse()`, `restore()` first.
   */
  blackhole(): void;
  /**
   * A server that stopped answering without closing anything, as a Redis or PostgreSQL process paused
   * with SIGSTOP: open connections stay open but nothing passes either way, and new ones are accepted
   * (and opened to the target, as the stopped process's kernel still would) and held the same way. What
   * either side sends meanwhile is held, not lost nor forwarded, until `restore()` passes it on in order,
   * as the process continuing. Only while listening: after `refuse()`, `restore()` first.
   */
  freeze(): void;
  /**
   * Forwards normally again, listening on the same port if it had stopped. Connections accepted while
   * blackholed are dropped: what their clients sent went nowhere. Connections held while frozen carry on:
   * what was held passes now, in order.
   */
  restore(): Promise<void>;
  /** Drops every connection and stops listening for good; nothing is left open. */
  close(): Promise<void>;
}

const LISTEN_HOST = '127.0.0.1';

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, LISTEN_HOST);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => {
      resolve();
    });
  });
}

/** Starts a proxy on a free port of 127.0.0.1 that forwards to `targetHost:targetPort`. */
export async function startTcpProxy(target: { targetHost: string; targetPort: number }): Promise<TcpProxy> {
  let mode: Mode = 'forward';
  /** Every socket the proxy holds, client and upstream sides alike. */
  const sockets = new Set<Socket>();
  /** Every forwarded connection, piped both ways unless frozen. */
  const pairs = new Set<Pair>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A peer's reset is expected here; it only ends the pair.
    socket.on('error', () => socket.destroy());
  };
  const dropAll = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    pairs.clear();
  };
  /** Passes data both ways; what was held while frozen goes first. */
  const flow = ({ client, upstream }: Pair) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  /** Stops passing data both ways; what arrives stays in the sockets (and the kernel) until `flow`. */
  const hold = ({ client, upstream }: Pair) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    if (mode === 'refused' || mode === 'closed') {
      client.destroy(); // accepted in the instant before the listener closed
      return;
    }
    track(client);
    if (mode === 'blackhole') return; // held, never read, never answered
    const upstream = connect({ host: target.targetHost, port: target.targetPort });
    track(upstream);
    const pair = { client, upstream };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      upstream.destroy();
    });
    upstream.on('close', () => {
      pairs.delete(pair);
      client.destroy();
    });
    // The client is paused (pauseOnConnect); the upstream must not start reading either while frozen.
    if (mode === 'frozen') hold(pair);
    else flow(pair);
  });

  await listen(server, 0);
  const address = server.address();
  if (address === null || typeof address !== 'object') throw new Error('the proxy has no port');
  const port = address.port;

  return {
    port,
    url(base) {
      const url = new URL(base);
      url.hostname = LISTEN_HOST;
      url.port = String(port);
      return url.toString();
    },
    async refuse() {
      if (mode === 'closed') throw new Error('the proxy is closed');
      mode = 'refused';
      dropAll();
      await closeServer(server);
    },
    blackhole() {
      if (mode === 'closed' || mode === 'refused') {
        throw new Error(`the proxy is ${mode}: restore() it before blackhole()`);
      }
      mode = 'blackhole';
      dropAll();
    },
    freeze() {
      if (mode === 'closed' || mode === 'refused') {
        throw new Error(`the proxy is ${mode}: restore() it before freeze()`);
      }
      if (mode === 'frozen') return;
      if (mode === 'blackhole') dropAll();
      mode = 'frozen';
      pairs.forEach(hold);
    },
    async restore() {
      if (mode === 'closed') throw new Error('the proxy is closed');
      if (mode === 'blackhole') dropAll();
      if (mode === 'frozen') pairs.forEach(flow);
      mode = 'forward';
      if (server.listening) return;
      // The port was just released; the kernel may hold it a moment longer.
      for (let attempt = 1; ; attempt++) {
        try {
          await listen(server, port);
          return;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    },
    async close() {
      mode = 'closed';
      dropAll();
      await closeServer(server);
    },
  };
}
