import { spawn, type ChildProcess } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

// Real server processes for the tests that need what `inject` cannot give: sockets, signals, a process
// that dies. The entry point runs as `node --import tsx src/server.ts`, one process: the `tsx` binary
// forks the real server as a grandchild, so a SIGKILL sent to it would leave the server running.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** True when `port` can be listened on at 127.0.0.1 now. */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => {
      resolve(false);
    });
    server.listen(port, '127.0.0.1', () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/** The kernel's choice of a free port on 127.0.0.1 (one of its ephemeral ports). */
function kernelPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** The lowest of the kernel's ephemeral ports, which outgoing connections take their local port from. */
export function lowestEphemeralPort(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) || 32768;
  } catch {
    return 32768;
  }
}

/** Below the ephemeral ports and above the well-known services' (PostgreSQL, Redis, RabbitMQ…). */
const LOWEST_TEST_PORT = 20000;
/** The test ports are shared out among this many slices, one for each Vitest worker (by its pool id). */
const WORKER_SLICES = 8;

/** The ports this process picks from: its Vitest worker's slice, or all of them outside Vitest. */
function testPorts(): { from: number; to: number } {
  const to = lowestEphemeralPort();
  const worker = Number(process.env.VITEST_POOL_ID);
  if (!(worker > 0)) return { from: LOWEST_TEST_PORT, to };
  const size = Math.floor((to - LOWEST_TEST_PORT) / WORKER_SLICES);
  const from = LOWEST_TEST_PORT + ((worker - 1) % WORKER_SLICES) * size;
  return { from, to: from + size };
}

/** The next port this process tries (from a random start, then one after the other). */
let nextPort: number | undefined;

/**
 * A port free a moment ago on 127.0.0.1, for a server a test starts a little later. It is picked below
 * the kernel's ephemeral ports: a port the kernel chose (`listen(0)`) could be handed, meanwhile, to an
 * outgoing connection of another test (to PostgreSQL, Redis, a server) as its local port, and the
 * server's listen then failed with EADDRINUSE (seen once, a harness seeding demo data between the two).
 * Each Vitest worker picks from a slice of its own, and one after the other within it, so that neither
 * another worker nor the next call (a harness takes two ports before it listens on either) is given the
 * same port. Where the ephemeral range leaves no room below it, the kernel's choice.
 */
export async function freePort(): Promise<number> {
  const { from, to } = testPorts();
  if (to - from >= 100) {
    for (let attempt = 0; attempt < 50; attempt += 1) {
      const port =
        nextPort !== undefined && nextPort >= from && nextPort < to
          ? nextPort
          : from + Math.floor(Math.random() * (to - from));
      nextPort = port + 1 < to ? port + 1 : from;
      if (await canListen(port)) return port;
    }
  }
  return kernelPort();
}

/** A running (or exited) server process. */
export interface ServerProcess {
  child: ChildProcess;
  /** Public listener (`PORT`). */
  port: number;
  /** Admin listener (`ADMIN_PORT`). */
  adminPort: number;
  /** Everything the process wrote so far, stdout and stderr interleaved. */
  output(): string;
  /**
   * Resolves with the exit code once the process and its pipes closed; null when a signal ended it
   * (`child.signalCode` says which).
   */
  exited: Promise<number | null>;
  /** Waits until the output matches; fails with the output when time runs out or the process ends. */
  waitForOutput(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /**
   * Waits until the public port accepts connections, and the admin port too when an admin listener is
   * expected (an ADMIN_TOKEN, or not production). Fails with the output if the process ends first.
   */
  waitUntilListening(options?: { ms?: number; admin?: boolean }): Promise<void>;
  /** Sends a signal unless the process already ended. */
  kill(signal?: NodeJS.Signals): void;
  /** SIGTERM, then SIGKILL after `ms`; resolves when the process is gone. Safe to call any number of times. */
  stop(ms?: number): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where to reach a listener bound to `host`: a wildcard address is reached on loopback. */
function reachableHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '::1';
  return host;
}

function canConnect(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * Starts `src/server.ts` with only the given environment (plus PATH): nothing leaks in from the test
 * runner's own variables. PORT and ADMIN_PORT are free ports and HOST is 127.0.0.1 unless `env` says
 * otherwise; `LOG_LEVEL` defaults to `info` so that `waitForOutput` has something to read, and
 * `SHUTDOWN_DRAIN_MS` to 0: no balancer watches a test's process, so a stop need not wait for one.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: {
    /** Run the built service, `node dist/server.js`, as production does (docs/operations.md, Running a fleet). */
    built?: boolean;
    /** The checkout to run the service of: this one unless given (bench/ticket-ab.ts runs another version's). */
    root?: string;
  } = {},
): Promise<ServerProcess> {
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    LOG_LEVEL: 'info',
    SHUTDOWN_DRAIN_MS: '0',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    ...env,
  };
  const port = Number(fullEnv.PORT);
  const adminPort = Number(fullEnv.ADMIN_PORT);
  const adminExpected = fullEnv.ADMIN_TOKEN !== undefined || fullEnv.NODE_ENV !== 'production';
  const listeners = [
    { port, host: reachableHost(fullEnv.HOST ?? '127.0.0.1') },
    { port: adminPort, host: reachableHost(fullEnv.ADMIN_HOST ?? '127.0.0.1') },
  ];

  const entry = options.built === true ? ['dist/server.js'] : ['--import', 'tsx', 'src/server.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: options.root ?? ROOT,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let ended = false;
  const watchers = new Set<() => void>();
  const notify = () => {
    for (const watcher of watchers) watcher();
  };
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    notify();
  };
  child.stdout.on('data', append);
  child.stderr.on('data', append);
  const exited = new Promise<number | null>((resolve) => {
    // 'close' rather than 'exit': the output is complete by then.
    child.once('close', (code) => {
      ended = true;
      notify();
      resolve(code);
    });
    // A process that could not be spawned emits 'error' and no 'close'.
    child.once('error', (error) => {
      text += `\n[spawn error] ${error.message}\n`;
      if (child.pid === undefined) {
        ended = true;
        notify();
        resolve(null);
      }
    });
  });

  const waitForOutput = (pattern: RegExp, ms = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(text);
        if (match !== null) {
          finish();
          resolve(match);
        } else if (ended) {
          finish();
          reject(new Error(`process ended before ${String(pattern)}:\n${text}`));
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out waiting for ${String(pattern)}; output:\n${text}`));
      }, ms);
      const finish = () => {
        clearTimeout(timer);
        watchers.delete(check);
      };
      watchers.add(check);
      check();
    });

  const waitUntilListening = async (options: { ms?: number; admin?: boolean } = {}) => {
    const deadline = Date.now() + (options.ms ?? 30_000);
    const wanted = (options.admin ?? adminExpected) ? listeners : listeners.slice(0, 1);
    for (const { port: target, host } of wanted) {
      for (;;) {
        if (ended) throw new Error(`process ended before listening on ${host}:${target}:\n${text}`);
        if (await canConnect(target, host)) break;
        if (Date.now() > deadline) {
          throw new Error(`not listening on ${host}:${target} in time; output:\n${text}`);
        }
        await sleep(50);
      }
    }
  };

  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (!ended && child.exitCode === null && child.signalCode === null) child.kill(signal);
  };

  const stop = async (ms = 5_000) => {
    if (ended) return;
    kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => {
        resolve('late');
      }, ms);
    });
    if ((await Promise.race([exited, late])) === 'late') {
      // SIGKILL cannot be refused; the pipes close with the process.
      child.kill('SIGKILL');
      await exited;
    }
    clearTimeout(timer);
  };

  return {
    child,
    port,
    adminPort,
    output: () => text,
    exited,
    waitForOutput,
    waitUntilListening,
    kill,
    stop,
  };
}

/** A response read to its end. */
export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as text. */
  text: string;
  /** The body parsed, when the response says it is JSON (`application/json`, `…+json`); else undefined. */
  json: unknown;
}

/** Options of one request. */
export interface HttpOptions {
  headers?: Record<string, string>;
  /** A string or Buffer is sent as is; anything else as JSON (with `content-type: application/json`). */
  body?: unknown;
  /** Sent one write each, without Content-Length (`Transfer-Encoding: chunked`); instead of `body`. */
  chunks?: readonly Buffer[];
  host?: string;
  /** The request fails when no complete answer came in this time (default 10 s). */
  timeoutMs?: number;
}

/** One HTTP request on a connection of its own (no keep-alive), read to its end. */
export function http(
  port: number,
  method: string,
  path: string,
  options: HttpOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let payload: string | Buffer | undefined;
  if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
    payload = options.body;
  } else if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = request(
      { host: options.host ?? '127.0.0.1', port, path, method, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          const type = res.headers['content-type'] ?? '';
          let json: unknown;
          if (/^application\/(?:[\w.-]+\+)?json\b/.test(type)) {
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.setTimeout(options.timeoutMs ?? 10_000, () => {
      req.destroy(new Error(`${method} ${path}: no answer in time`));
    });
    req.on('error', reject);
    for (const chunk of options.chunks ?? []) req.write(chunk);
    req.end(payload);
  });
}

/** A request to the admin listener with `Authorization: Bearer <token>`. */
export function adminCall(
  adminPort: number,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<HttpResponse> {
  return http(adminPort, method, path, { headers: { authorization: `Bearer ${token}` }, body });
}
