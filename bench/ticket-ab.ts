import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildService } from './build-service.js';
import {
  cpuPerRequest,
  failures,
  load,
  type Load,
  PING_URL,
  setUpMerchantKey,
  statCpuMs,
  threadCpuMs,
  TICKET_BODY,
  TICKET_URL,
  unansweredOr5xx,
} from './ticket-path.js';
import { fleetEnv, setUpTicketSystem } from '../test/fleet/fleet-fixtures.js';
import { createProcessDatabase, type ProcessDatabase } from '../test/support/process-database.js';
import { startServer, type ServerProcess } from '../test/support/server-process.js';

// `npm run bench:ab -- <revision>`: the ticket POST (or the POS ping) at 50 connections, this checkout
// against another version of the service, both built and served at once (`node dist/server.js`,
// NODE_ENV=production), loaded in turns of a few seconds (A B, B A, A B…), so that a machine whose
// speed drifts within minutes weighs on both alike. A change of a few percent is lost in the scatter of
// two runs taken minutes apart (`npm run bench` on a shared 2-core machine: the bare route alone moved
// 1.5x within the hour); turns side by side show it. Prints the requests a second and the CPU a call of
// each (and, on PostgreSQL running on this machine, the database's), and their ratios.
//
//   npm run bench:ab -- 84f10dd                      SQLite file, 16 turns of 2 s each way
//   npm run bench:ab -- 84f10dd --database postgres  PostgreSQL (TEST_DATABASE_URL)
//   npm run bench:ab -- HEAD --turns 24 --seconds 3
//   npm run bench:ab -- --same                       this checkout on both sides: the method's own scatter
//   npm run bench:ab -- --same --node-options=--max-semi-space-size=64
//                                                     this checkout's "after" side under other Node.js flags
//   npm run bench:ab -- 257a88a --load ping          the POS ping, most of its calls refused 429 past
//                                                     the key's limit (the limit checks are what it measures)
//   npm run bench:ab -- --same --load ping --store redis
//                                                     the same with the limits in Redis (TEST_REDIS_URL)
//
// The other version is checked out into a temporary git worktree (removed after), sharing this
// checkout's node_modules, and built there. Not part of `npm run bench` or of the tests' pass/fail.

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    database: { type: 'string', default: 'sqlite' },
    turns: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '2' },
    same: { type: 'boolean', default: false },
    'node-options': { type: 'string', default: '' },
    load: { type: 'string', default: 'ticket' },
    store: { type: 'string', default: 'memory' },
  },
});
const kind = values.database === 'postgres' ? 'postgres' : 'sqlite';
const turns = Number(values.turns);
const seconds = Number(values.seconds);
const revision = positionals[0];
const ping = values.load === 'ping';
const redisUrl = values.store === 'redis' ? process.env.TEST_REDIS_URL : undefined;
if (
  (revision === undefined) === !values.same ||
  !(turns > 0) ||
  !(seconds > 0) ||
  !['ticket', 'ping'].includes(values.load) ||
  !['memory', 'redis'].includes(values.store) ||
  (values.store === 'redis' && redisUrl === undefined)
) {
  console.error(
    'usage: npm run bench:ab -- <revision> | --same [--database sqlite|postgres] [--turns N] [--seconds S]\n' +
      '         [--load ticket|ping] [--store memory|redis (TEST_REDIS_URL)] [--node-options=…]',
  );
  process.exit(2);
}
/** What one call is, in the table's words. */
const unit = ping ? 'ping' : 'ticket';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();

/** A worktree of `revision`, built, with this checkout's dependencies; `remove` deletes it. */
function checkout(rev: string): { root: string; commit: string; remove: () => void } {
  const commit = git('rev-parse', '--verify', `${rev}^{commit}`);
  const root = join(mkdtempSync(join(tmpdir(), 'ticket-ab-')), 'service');
  git('worktree', 'add', '--detach', root, commit);
  const remove = () => {
    git('worktree', 'remove', '--force', root);
    rmSync(join(root, '..'), { recursive: true, force: true });
  };
  try {
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  } catch (error) {
    remove();
    throw error;
  }
  return { root, commit, remove };
}

/**
 * CPU time (ms) of this machine's PostgreSQL processes so far (0 when it runs elsewhere): both sides share
 * the server, and only the side under load in a turn keeps it busy.
 */
function postgresCpuMs(): number {
  let ms = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) ms += statCpuMs(stat);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ms;
}

interface Side {
  name: string;
  server: ServerProcess;
  database: ProcessDatabase;
  key: string;
  requests: number[];
  answered: number;
  failed: number;
  cpu: { main: number; others: number; database: number };
}

async function serve(name: string, root: string | undefined, nodeOptions = ''): Promise<Side> {
  const database = await createProcessDatabase(kind);
  const env = fleetEnv(database.url, {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    IP_BLOCK_THRESHOLD: '1000000',
    ...(nodeOptions === '' ? {} : { NODE_OPTIONS: nodeOptions }),
    ...(redisUrl === undefined
      ? {}
      : { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `bench:${randomBytes(4).toString('hex')}:` }),
  });
  const server = await startServer(env, { built: true, ...(root === undefined ? {} : { root }) });
  await server.waitUntilListening();
  const key = ping
    ? await setUpMerchantKey(server)
    : await setUpTicketSystem(server, { rateLimitPerMinute: 1_000_000 });
  return {
    name,
    server,
    database,
    key,
    requests: [],
    answered: 0,
    failed: 0,
    cpu: { main: 0, others: 0, database: 0 },
  };
}

/** The load of a turn on a side: the ticket POST, or the POS ping. */
function callsOf(side: Side): Omit<Load, 'port' | 'connections' | 'seconds'> {
  if (ping) return { url: PING_URL, headers: { authorization: `Bearer ${side.key}` } };
  return {
    url: TICKET_URL,
    method: 'POST',
    headers: { authorization: `Bearer ${side.key}`, 'content-type': 'application/json' },
    body: TICKET_BODY,
  };
}

/** One turn of load on a side: its requests a second, and its CPU added up by the call. */
async function turn(side: Side, turnSeconds: number): Promise<number> {
  const pid = side.server.child.pid;
  const before = threadCpuMs(pid);
  const databaseBefore = kind === 'postgres' ? postgresCpuMs() : 0;
  const result = await load({
    ...callsOf(side),
    port: side.server.port,
    connections: 50,
    seconds: turnSeconds,
  });
  const spent = cpuPerRequest(pid, before, result.requests.total);
  side.cpu.main += spent.main * result.requests.total;
  side.cpu.others += spent.others * result.requests.total;
  if (kind === 'postgres') side.cpu.database += (postgresCpuMs() - databaseBefore) * 1000;
  side.answered += result.requests.total;
  // A ping past the key's limit is answered 429 by design: only a call left unanswered or a 5xx failed.
  side.failed += ping ? unansweredOr5xx(result) : failures(result);
  return result.requests.average;
}

const mean = (list: readonly number[]) => list.reduce((sum, x) => sum + x, 0) / list.length;
const median = (list: readonly number[]) =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? Number.NaN;
const fmt = (value: number, digits = 0) => value.toFixed(digits).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

await buildService();
const other = values.same ? undefined : checkout(revision ?? 'HEAD');
const sides: Side[] = [];
try {
  const before = await serve(other === undefined ? 'this checkout' : other.commit.slice(0, 7), other?.root);
  sides.push(before);
  const nodeOptions = values['node-options'];
  const after = await serve(
    nodeOptions === '' ? 'this checkout' : `this checkout, ${nodeOptions}`,
    undefined,
    nodeOptions,
  );
  sides.push(after);
  // Warm-up, not counted: the JIT, the statement caches, the pool.
  for (const side of sides) {
    await turn(side, 2);
    Object.assign(side, { answered: 0, failed: 0, cpu: { main: 0, others: 0, database: 0 } });
  }
  const ratios: number[] = [];
  for (let i = 0; i < turns; i += 1) {
    // A B, then B A: each side goes first as often, so neither gains from the order.
    const order = i % 2 === 0 ? [before, after] : [after, before];
    const [first, second] = [await turn(order[0] ?? before, seconds), await turn(order[1] ?? after, seconds)];
    const [b, a] = i % 2 === 0 ? [first, second] : [second, first];
    before.requests.push(b);
    after.requests.push(a);
    ratios.push(a / b);
  }
  const perTicket = (side: Side, part: 'main' | 'others' | 'database') => side.cpu[part] / side.answered;
  const rows = [
    [
      'requests a second, mean of the turns',
      fmt(mean(before.requests)),
      fmt(mean(after.requests)),
      (mean(after.requests) / mean(before.requests)).toFixed(3),
    ],
    ['requests a second, median of the turns side by side', '', '', median(ratios).toFixed(3)],
    [
      `event loop CPU a ${unit} (µs)`,
      fmt(perTicket(before, 'main'), 1),
      fmt(perTicket(after, 'main'), 1),
      (perTicket(after, 'main') / perTicket(before, 'main')).toFixed(3),
    ],
    [
      `other threads CPU a ${unit} (µs)`,
      fmt(perTicket(before, 'others'), 1),
      fmt(perTicket(after, 'others'), 1),
      (perTicket(after, 'others') / perTicket(before, 'others')).toFixed(3),
    ],
    ...(kind === 'postgres' && perTicket(before, 'database') > 0
      ? [
          [
            `PostgreSQL's CPU a ${unit}, its processes on this machine (µs)`,
            fmt(perTicket(before, 'database'), 1),
            fmt(perTicket(after, 'database'), 1),
            (perTicket(after, 'database') / perTicket(before, 'database')).toFixed(3),
          ],
        ]
      : []),
    [
      ping ? 'calls unanswered or answered 5xx' : 'answers that were not 201',
      fmt(before.failed),
      fmt(after.failed),
      '-',
    ],
  ];
  const header = [
    `${ping ? 'POS ping' : 'ticket POST'}, 50 connections, ${kind}${redisUrl === undefined ? '' : ', limits in Redis'}`,
    `before (${before.name})`,
    `after (${after.name})`,
    'after ÷ before',
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(`\n${turns} turns of ${seconds} s each way, alternated`);
  console.log(line(header));
  console.log(line(widths.map((w) => '-'.repeat(w))));
  for (const row of rows) console.log(line(row));
  console.log(
    `turns side by side, after ÷ before: ${[...ratios]
      .sort((a, b) => a - b)
      .map((r) => r.toFixed(2))
      .join(' ')}`,
  );
} finally {
  for (const side of sides) {
    await side.server.stop();
    await side.database.drop();
  }
  other?.remove();
}
