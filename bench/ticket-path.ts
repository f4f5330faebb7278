import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildService } from './build-service.js';
import { openLoop, quantile } from './open-loop.js';
import { FLEET_ADMIN_TOKEN, fleetEnv, setUpTicketSystem } from '../test/fleet/fleet-fixtures.js';
import {
  createProcessDatabase,
  postgresTestUrl,
  type ProcessDatabase,
} from '../test/support/process-database.js';
import { adminCall, freePort, startServer, type ServerProcess } from '../test/support/server-process.js';

// `npm run bench` (and `-- --quick`): the ticket path on real listening servers (the built service,
// `node dist/server.js` with NODE_ENV=production, on 127.0.0.1, loaded with autocannon from this process), each figure against a baseline measured in the
// same run (issue 10, "Fast where it counts"):
// - ticket POST with 50 connections, requests per second, against a bare Fastify route (its own process)
//   parsing the same body; beside it, the server's CPU a request and how long its threads and the load
//   generator waited for a core (the 2-core machine's limit, with the bare route's as a baseline);
// - ticket POST at 1,000 requests per second offered: p99 latency, beside the bare route's under the
//   same offered load, twice: with autocannon (whose rate comes as a burst at each second's start) and
//   with an evenly paced open loop (bench/open-loop.ts), the reading of "offered" that the target means,
//   measured after a lead-in of 6 s at the same pace;
// - POS ping with 50 connections, the Redis store against the in-process store, in alternated turns of
//   a second (needs TEST_REDIS_URL);
// - the server's peak resident memory (VmHWM) over the run.
// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set, Redis when TEST_REDIS_URL (or
// BENCH_REDIS_URL) is.

/** One line of the table: a figure, its baseline of the same run, and the target it is held to. */
export interface BenchRow {
  figure: string;
  database: string;
  measured: string;
  baseline: string;
  ratio: string;
  /** The target and whether it was met, in words: `>= 40% NOT met`. */
  target: string;
  /** Whether the target was met (undefined: a figure without a target). */
  met?: boolean;
}

export const TICKET_URL = '/v1/api-external-system/help-desk-ticket';
export const PING_URL = '/v1/api-public/ping';
/** `[<id>]` is replaced by autocannon with a fresh id per request: every POST opens a new ticket. */
export const TICKET_BODY = JSON.stringify({
  external_id: 'bench-[<id>]',
  company: 'acme',
  description: 'Printer jams on receipt 3.',
  category: 10,
});

export interface Load {
  url: string;
  port: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
  /** Requests per second offered over all connections; unset: as fast as answers come. */
  rate?: number;
}

export async function load(options: Load): Promise<autocannon.Result> {
  return autocannon({
    url: `http://127.0.0.1:${options.port}${options.url}`,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body, idReplacement: true }),
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate === undefined ? {} : { overallRate: options.rate }),
  });
}

/** What one server of an alternated load answered: requests a second, and the calls that failed. */
interface TurnsServed {
  perSecond: number;
  failed: number;
}

/** One server of an alternated load, and what it answered so far. */
interface Side {
  port: number;
  requests: number;
  failed: number;
}

/**
 * The same load on two servers in alternated turns of a second (first, second; then second, first…),
 * `turns` each: a machine whose speed drifts within seconds weighs on both alike, where two runs one
 * after the other put the drift into their ratio. A call fails when it is left unanswered or answered
 * with a 5xx; a refusal is an answer (past the key's limit most pings are 429 `rate_limited`, by design:
 * the limit checks are what the ping row compares).
 */
async function alternated(
  options: Omit<Load, 'port' | 'seconds'>,
  ports: [number, number],
  turns: number,
): Promise<[TurnsServed, TurnsServed]> {
  const sides: [Side, Side] = [
    { port: ports[0], requests: 0, failed: 0 },
    { port: ports[1], requests: 0, failed: 0 },
  ];
  for (let turn = 0; turn < turns; turn += 1) {
    for (const side of turn % 2 === 0 ? sides : [sides[1], sides[0]]) {
      const result = await load({ ...options, port: side.port, seconds: 1 });
      side.requests += result.requests.total;
      side.failed += unansweredOr5xx(result);
    }
  }
  const served = (side: Side) => ({ perSecond: side.requests / turns, failed: side.failed });
  return [served(sides[0]), served(sides[1])];
}

/** Answers that are not the route's success: errors, timeouts, non-2xx. */
export const failures = (result: autocannon.Result) => result.errors + result.timeouts + result.non2xx;

/** Calls left unanswered (errors, timeouts) or answered 5xx: a refusal such as a 429 is an answer. */
export const unansweredOr5xx = (result: autocannon.Result) => result.errors + result.timeouts + result['5xx'];

/** The bare baseline: Fastify with one POST route that parses the JSON body, in a process of its own. */
async function startBareServer(): Promise<{ port: number; pid: number | undefined; stop: () => void }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/ticket-path.ts', '--bare-server'], {
    env: { PATH: process.env.PATH ?? '', BARE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => {
      resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`bare server exited ${code}`));
    });
  });
  return { port, pid: child.pid, stop: () => child.kill('SIGTERM') };
}

async function serveBare(): Promise<void> {
  const app = Fastify();
  app.post(TICKET_URL, (request, reply) =>
    reply.code(201).send({ ok: true, body: typeof request.body === 'object' }),
  );
  await app.listen({ port: Number(process.env.BARE_PORT), host: '127.0.0.1' });
  process.stdout.write('listening\n');
}

/** CPU time (ms) in a Linux `stat` line of /proc: utime and stime, in clock ticks (100 a second). */
export function statCpuMs(stat: string): number {
  // The fields after the command's closing parenthesis (the command may hold spaces).
  const fields = stat.split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU time (ms) each thread of a process spent so far, by thread id (Linux `/proc/<pid>/task`). */
export function threadCpuMs(pid: number | undefined): Map<string, number> {
  const ms = new Map<string, number>();
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    ms.set(thread, statCpuMs(readFileSync(`/proc/${pid}/task/${thread}/stat`, 'utf8')));
  }
  return ms;
}

/** CPU time (µs a request) of a process between two readings: its main thread, and its other threads. */
export function cpuPerRequest(pid: number | undefined, before: Map<string, number>, requests: number) {
  const after = threadCpuMs(pid);
  let main = 0;
  let others = 0;
  for (const [thread, ms] of after) {
    const spent = ms - (before.get(thread) ?? 0);
    if (thread === String(pid)) main += spent;
    else others += spent;
  }
  return { main: (main * 1000) / requests, others: (others * 1000) / requests };
}

/** Time (ms) each thread of a process ran, and waited runnable for a core, so far (Linux schedstat). */
function threadSchedMs(pid: number | undefined): Map<string, { ran: number; waited: number }> {
  const ms = new Map<string, { ran: number; waited: number }>();
  for (const thread of readdirSync(`/proc/${pid}/task`)) {
    const [ran, waited] = readFileSync(`/proc/${pid}/task/${thread}/schedstat`, 'utf8')
      .split(' ')
      .map(Number);
    ms.set(thread, { ran: (ran ?? 0) / 1e6, waited: (waited ?? 0) / 1e6 });
  }
  return ms;
}

/** The machine's CPU times so far, from the first line of /proc/stat (clock ticks): idle, and all. */
function machineTicks(): { idle: number; all: number } {
  const fields =
    readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), all: fields.reduce((sum, n) => sum + n, 0) };
}

/**
 * How long threads waited for a core between two readings, for each ms they ran: a process's main thread
 * and its other threads, and this process (the load generator). Two cores shared by the event loop, the
 * SQLite writer thread, the collector's helpers and the client queue for each other even when the machine
 * is not busy all the time: `machineIdle` says how much of both cores went unused meanwhile.
 */
function coreWaits(pid: number | undefined) {
  type Sched = Map<string, { ran: number; waited: number }>;
  const server = threadSchedMs(pid);
  const client = threadSchedMs(process.pid);
  const machine = machineTicks();
  /** Waited for each ms run by the threads of `after` that `keep` names, since `before`. */
  const waitedPerRun = (before: Sched, after: Sched, keep: (thread: string) => boolean) => {
    let ran = 0;
    let waited = 0;
    for (const [thread, now] of after) {
      if (!keep(thread)) continue;
      const then = before.get(thread) ?? { ran: 0, waited: 0 };
      ran += now.ran - then.ran;
      waited += now.waited - then.waited;
    }
    return ran === 0 ? 0 : waited / ran;
  };
  return () => {
    const serverAfter = threadSchedMs(pid);
    const machineAfter = machineTicks();
    return {
      main: waitedPerRun(server, serverAfter, (thread) => thread === String(pid)),
      others: waitedPerRun(server, serverAfter, (thread) => thread !== String(pid)),
      client: waitedPerRun(client, threadSchedMs(process.pid), () => true),
      machineIdle: (machineAfter.idle - machine.idle) / Math.max(1, machineAfter.all - machine.all),
    };
  };
}

/** Peak resident memory of a process (Linux VmHWM), in MB. */
function peakRssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await adminCall(server.adminPort, FLEET_ADMIN_TOKEN, method, path, body);
  if (response.status >= 300) throw new Error(`admin ${method} ${path}: ${response.status} ${response.text}`);
  return response;
}

/** A merchant account and a key for ping (docs/pos-api.md, GET ping). */
export async function setUpMerchantKey(server: ServerProcess): Promise<string> {
  await admin(server, 'PUT', '/admin/v1/pos/accounts/bench', { name: 'Bench Bares' });
  const created = await admin(server, 'POST', '/admin/v1/pos/accounts/bench/keys', {
    name: 'bench',
    permissions: ['event.view'],
  });
  return (created.json as { key: string }).key;
}

/**
 * The open loop's lead-in before its measured seconds: on a 2-core machine, the first two 3-second
 * windows of a new load were the slow ones (bench/open-loop.ts), for the bare route as for the service.
 */
const OPEN_LOOP_LEAD_IN_SECONDS = 6;

/** The fewest alternated turns of a second each way for the ping row (`--quick` has 3-second loads). */
const PING_TURNS_AT_LEAST = 8;

const fmt = (value: number, digits = 0) => value.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

async function ticketPath(
  kind: ProcessDatabase['kind'],
  options: { seconds: number; redisUrl: string | undefined },
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const database = await createProcessDatabase(kind);
  const env = fleetEnv(database.url, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    IP_BLOCK_THRESHOLD: '1000000',
  });
  // As production runs it: the built service, `node dist/server.js` (the development loader that runs
  // the TypeScript sources held some 50 MB more, and is not what serves partners).
  const server = await startServer(env, { built: true });
  const bare = await startBareServer();
  try {
    await server.waitUntilListening();
    const key = await setUpTicketSystem(server, { rateLimitPerMinute: 1_000_000 });
    const ticketLoad = {
      url: TICKET_URL,
      method: 'POST' as const,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: TICKET_BODY,
    };
    // Warm-up: the JIT, the statement caches and the pool, not measured.
    await load({ ...ticketLoad, port: server.port, connections: 10, seconds: 1 });
    await load({ ...ticketLoad, port: bare.port, connections: 10, seconds: 1 });

    const bareCpu = threadCpuMs(bare.pid);
    const bareWaits = coreWaits(bare.pid);
    const bareRun = await load({ ...ticketLoad, port: bare.port, connections: 50, seconds: options.seconds });
    const bareSpent = cpuPerRequest(bare.pid, bareCpu, bareRun.requests.total);
    const bareWaited = bareWaits();
    const serverCpu = threadCpuMs(server.child.pid);
    const ticketWaits = coreWaits(server.child.pid);
    const ticketRun = await load({
      ...ticketLoad,
      port: server.port,
      connections: 50,
      seconds: options.seconds,
    });
    const ticketSpent = cpuPerRequest(server.child.pid, serverCpu, ticketRun.requests.total);
    const ticketWaited = ticketWaits();
    const ratio = ticketRun.requests.average / bareRun.requests.average;
    rows.push({
      figure: 'ticket POST, 50 connections (req/s)',
      database: kind,
      measured: fmt(ticketRun.requests.average),
      baseline: `${fmt(bareRun.requests.average)} (bare Fastify)`,
      ratio: pct(ratio),
      target: `>= 40% ${ratio >= 0.4 ? 'met' : 'NOT met'}${failures(ticketRun) > 0 ? ` (${failures(ticketRun)} failed)` : ''}`,
      met: ratio >= 0.4 && failures(ticketRun) === 0,
    });
    // Where the share goes: the server's CPU a request, its event loop's thread apart from the others
    // (the SQLite writer thread, the garbage collector's helpers, libuv's pool). The ratio is the bare
    // route's event-loop time over the ticket's: the share the event loop alone would allow.
    rows.push({
      figure: 'ticket POST, 50 connections: server CPU a request (µs)',
      database: kind,
      measured: `${fmt(ticketSpent.main + ticketSpent.others)} (main thread ${fmt(ticketSpent.main)}, others ${fmt(ticketSpent.others)})`,
      baseline: `${fmt(bareSpent.main + bareSpent.others)} (bare Fastify; main thread ${fmt(bareSpent.main)})`,
      ratio: pct(bareSpent.main / ticketSpent.main),
      target: '-',
    });
    // And what holds the rest: the threads queue for the two cores (Linux schedstat), each answer waking
    // another thread, while part of the machine goes unused.
    const waits = (w: typeof ticketWaited) =>
      `main thread ${pct(w.main)}, others ${pct(w.others)}, load generator ${pct(w.client)}; cores idle ${pct(w.machineIdle)}`;
    rows.push({
      figure: 'ticket POST, 50 connections: time waiting for a core, share of time run',
      database: kind,
      measured: waits(ticketWaited),
      baseline: `bare Fastify: ${waits(bareWaited)}`,
      ratio: '-',
      target: '-',
    });

    const offered = await load({
      ...ticketLoad,
      port: server.port,
      connections: 50,
      seconds: options.seconds,
      rate: 1000,
    });
    // The same offered load on the bare route: the latency the load generator and the machine add by
    // themselves (autocannon's paced connections, the scheduler of 2 cores), which no server goes below.
    const bareOffered = await load({
      ...ticketLoad,
      port: bare.port,
      connections: 50,
      seconds: options.seconds,
      rate: 1000,
    });
    const achieved = offered.requests.total / options.seconds;
    const latencyMet = offered.latency.p99 < 10 && achieved >= 950 && failures(offered) === 0;
    rows.push({
      figure: 'ticket POST at 1,000 req/s offered, autocannon (bursts): p99 (ms)',
      database: kind,
      measured: `${fmt(offered.latency.p99)} (p50 ${fmt(offered.latency.p50)}, ${fmt(achieved)} req/s served)`,
      baseline: `bare Fastify at 1,000 req/s: p99 ${fmt(bareOffered.latency.p99)} (p50 ${fmt(bareOffered.latency.p50)})`,
      ratio: pct(achieved / 1000),
      target: `< 10 ms ${latencyMet ? 'met' : 'NOT met'}`,
      met: latencyMet,
    });

    // The same offered rate, evenly paced (bench/open-loop.ts): each request sent when due, timed from then,
    // after a lead-in at the same pace (the first seconds of a new load are the JIT's; their p99 is
    // printed beside).
    const paced = {
      path: TICKET_URL,
      headers: ticketLoad.headers,
      rate: 1000,
      seconds: options.seconds,
      leadInSeconds: OPEN_LOOP_LEAD_IN_SECONDS,
    };
    const pacedBody = (prefix: string) => (i: number) => TICKET_BODY.replace('[<id>]', `${prefix}-${i}`);
    const open = await openLoop({ ...paced, port: server.port, body: pacedBody(`open-${kind}`) });
    const bareOpen = await openLoop({ ...paced, port: bare.port, body: pacedBody('bare') });
    const ms = (sorted: readonly number[], q: number) => quantile(sorted, q).toFixed(1);
    const openP99 = quantile(open.latencies, 0.99);
    const openMet = openP99 < 10 && open.failures === 0;
    rows.push({
      figure: 'ticket POST at 1,000 req/s offered, open loop (even pace): p99 (ms)',
      database: kind,
      measured: `${openP99.toFixed(1)} (p50 ${ms(open.latencies, 0.5)}, p99.9 ${ms(open.latencies, 0.999)}; client late by ${open.worstSendLagMs.toFixed(1)} at worst; lead-in's p99 ${ms(open.leadIn, 0.99)})`,
      baseline: `bare Fastify, same load: p99 ${ms(bareOpen.latencies, 0.99)} (p50 ${ms(bareOpen.latencies, 0.5)}; lead-in's p99 ${ms(bareOpen.leadIn, 0.99)})`,
      ratio: '-',
      target: `< 10 ms ${openMet ? 'met' : 'NOT met'}${open.failures > 0 ? ` (${open.failures} failed)` : ''}`,
      met: openMet,
    });

    if (options.redisUrl !== undefined) {
      const merchantKey = await setUpMerchantKey(server);
      const pingLoad = {
        url: PING_URL,
        headers: { authorization: `Bearer ${merchantKey}` },
        connections: 50,
        seconds: options.seconds,
      };
      await load({ ...pingLoad, port: server.port, seconds: 1 });
      // The same database, served by a process whose limits live in Redis.
      const redisServer = await startServer(
        {
          ...env,
          REDIS_URL: options.redisUrl,
          REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:`,
          PORT: String(await freePort()),
          ADMIN_PORT: String(await freePort()),
        },
        { built: true },
      );
      try {
        await redisServer.waitUntilListening();
        await load({ ...pingLoad, port: redisServer.port, seconds: 1 });
        // Single turns of a second scatter widely here (0.6–1.6 side by side): never fewer than 8 each way.
        const pingTurns = Math.max(PING_TURNS_AT_LEAST, options.seconds);
        const [memory, redis] = await alternated(pingLoad, [server.port, redisServer.port], pingTurns);
        const pingRatio = redis.perSecond / memory.perSecond;
        const failed = memory.failed + redis.failed;
        rows.push({
          figure: 'POS ping, 50 connections, Redis store (req/s)',
          database: kind,
          measured: fmt(redis.perSecond),
          baseline: `${fmt(memory.perSecond)} (in-process store; alternated turns of 1 s, ${pingTurns} each)`,
          ratio: pct(pingRatio),
          target: `>= 85% ${pingRatio >= 0.85 && failed === 0 ? 'met' : 'NOT met'}${failed > 0 ? ` (${failed} failed)` : ''}`,
          met: pingRatio >= 0.85 && failed === 0,
        });
      } finally {
        await redisServer.stop();
      }
    }

    const peak = peakRssMb(server.child.pid);
    rows.push({
      figure: 'server peak RSS over the run (MB)',
      database: kind,
      measured: fmt(peak),
      baseline: '-',
      ratio: '-',
      target: `< 300 MB ${peak < 300 ? 'met' : 'NOT met'}`,
      met: peak < 300,
    });
  } finally {
    bare.stop();
    await server.stop();
    await database.drop();
  }
  return rows;
}

/** Prints rows as one Markdown table. */
export function printTable(title: string, rows: readonly BenchRow[]): void {
  const header = ['figure', 'database', 'measured', 'baseline (same run)', 'ratio', 'target'];
  const lines = rows.map((r) => [r.figure, r.database, r.measured, r.baseline, r.ratio, r.target]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]?.length ?? 0)));
  const row = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(row(header));
  console.log(row(widths.map((w) => '-'.repeat(w))));
  for (const line of lines) console.log(row(line));
}

/** The ticket path's rows: SQLite, then PostgreSQL when its URL is set. */
export async function benchTicketPath(options: { quick: boolean }): Promise<BenchRow[]> {
  const seconds = options.quick ? 3 : 10;
  await buildService();
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  const rows = await ticketPath('sqlite', { seconds, redisUrl });
  if (postgresTestUrl !== undefined) {
    rows.push(...(await ticketPath('postgres', { seconds, redisUrl })));
  }
  return rows;
}

if (process.argv.includes('--bare-server')) {
  await serveBare();
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await benchTicketPath({ quick: process.argv.includes('--quick') });
  printTable('ticket path on real listeners (autocannon)', rows);
  // The machine's load beside the figures: absolute figures move with it, ratios far less.
  console.log(
    `load average (1, 5, 15 min): ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
}
