import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from './support/process-database.js';
import { http, startServer, type ServerProcess } from './support/server-process.js';

// The README and the guides of docs/ as working manuals: every `sh` block of them, document after document
// and top to bottom in one shell session, as a new user pastes them, against a freshly started demo (a real
// server process). A block the test cannot run says so in an HTML comment on the line before it, which the
// test reads:
//
//   <!-- readme-test: skip (why) -->                       not run; the test lists it with its reason
//   <!-- readme-test: KEY=demo-ticket-key -->              $KEY is the demo key the start printed
//   <!-- readme-test: KEY=demo-pos-key expect /lead=403 --> a call whose path ends so answers that status
//
// Every other call must answer 2xx, every curl must reach the server, every `npx` command (the CLI) must
// exit 0, and the session must end with status 0 (`set -u`: a variable used before it is set, such as a
// key's `$ID`, stops it). The session starts with the `export TICKET_KEY=… POS_KEY=…` lines the first start
// prints, as a reader pastes them. The documents must leave the demo as they found it: its catalog (the
// ticket options), its merchant account, places and keys read the same before and after. The blocks name localhost:8080 and localhost:8081; the test's server listens on
// free ports, put in their place (and the CLI finds the admin port in ADMIN_PORT, as in the shell that
// started the server). The session runs in an ignored folder of the checkout, where `npx partner-gateway`
// finds this package's command.

/** The documents whose examples run, in the order a reader meets them (docs/architecture.md says so). */
const DOCUMENTS = [
  'README.md',
  'docs/getting-started.md',
  'docs/back-office.md',
  'docs/operations.md',
  'docs/architecture.md',
] as const;
const SESSIONS = fileURLToPath(new URL('../test-results/readme-sessions', import.meta.url));

/** One `sh` block of a document and what its comment says about it. */
interface ShellBlock {
  /** The document and the 1-based line of the opening fence: `docs/operations.md:287`. */
  where: string;
  text: string;
  skip: string | null;
  key: 'demo-ticket-key' | 'demo-pos-key' | null;
  /** Path suffix → the status that call answers instead of a 2xx. */
  expect: ReadonlyMap<string, number>;
}

/** The `sh` blocks of a Markdown document, with their `readme-test` comments. */
function shellBlocks(document: string, markdown: string): ShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: ShellBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index]?.trim() !== '```sh') continue;
    const start = index;
    const body: string[] = [];
    for (index += 1; index < lines.length && lines[index]?.trim() !== '```'; index += 1) {
      body.push(lines[index] ?? '');
    }
    let before = start - 1;
    while (before >= 0 && lines[before]?.trim() === '') before -= 1;
    const comment = /^<!--\s*readme-test:\s*(.*?)\s*-->$/.exec(lines[before]?.trim() ?? '')?.[1] ?? '';
    const skip = /^skip\s*\((.*)\)$/.exec(comment)?.[1] ?? null;
    const key = /\bKEY=(demo-ticket-key|demo-pos-key)\b/.exec(comment)?.[1] as ShellBlock['key'] | undefined;
    const expectations = new Map<string, number>();
    for (const match of comment.matchAll(/\bexpect\s+((?:\S+=\d{3}\s*)+)/g)) {
      for (const pair of (match[1] ?? '').trim().split(/\s+/)) {
        const [path = '', status = ''] = pair.split('=');
        expectations.set(path, Number(status));
      }
    }
    if (comment !== '' && skip === null && key === undefined && expectations.size === 0) {
      throw new Error(`${document}:${before + 1}: a readme-test comment this test cannot read: ${comment}`);
    }
    blocks.push({
      where: `${document}:${start + 1}`,
      text: body.join('\n'),
      skip,
      key: key ?? null,
      expect: expectations,
    });
  }
  return blocks;
}

/** What the session reported about one call (curl's write-out, on stderr). */
interface Call {
  block: number;
  status: number;
  method: string;
  url: string;
}

const CURL_WRAPPER = String.raw`
curl() {
  command curl -w '%{stderr}::call %{http_code} %{method} %{url_effective}\n' "$@"
  local code=$?
  [ "$code" -eq 0 ] || echo "::curl-failed $code $*" >&2
  return "$code"
}
npx() {
  command npx "$@"
  local code=$?
  if [ "$code" -eq 0 ]; then echo "::command npx $*" >&2; else echo "::command-failed $code npx $*" >&2; fi
  return "$code"
}
`;

/** Runs the session; resolves with its exit code and both outputs. */
function runBash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-u'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 360_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(script);
  });
}

/**
 * What the documents must leave as they found it: the demo's catalog as its partner system reads it, its
 * merchant account and places, and its merchant's keys (their names, permissions and states).
 */
async function demoSnapshot(
  server: ServerProcess,
  keys: Record<'demo-ticket-key' | 'demo-pos-key', string>,
  adminToken: string,
): Promise<unknown> {
  const read = async (port: number, path: string, token: string) => {
    const answer = await http(port, 'GET', path, { headers: { authorization: `Bearer ${token}` } });
    return { status: answer.status, body: JSON.parse(answer.text) as unknown };
  };
  const account = '/admin/v1/pos/accounts/demo';
  const keyList = await read(server.adminPort, `${account}/keys`, adminToken);
  const body = keyList.body as Record<string, unknown>[] | { data?: Record<string, unknown>[] };
  const rows = Array.isArray(body) ? body : (body.data ?? []);
  return {
    options: await read(
      server.port,
      '/v1/api-external-system/help-desk-ticket-options',
      keys['demo-ticket-key'],
    ),
    account: await read(server.adminPort, account, adminToken),
    places: await read(server.adminPort, `${account}/places`, adminToken),
    keys: rows.map(({ id, name, permissions, places, state }) => ({ id, name, permissions, places, state })),
  };
}

/** `after`'s catalog (the ticket options) cut to the entries `before` had: those the documents added are theirs. */
function demoEntriesOnly(after: unknown, before: unknown): unknown {
  interface Entry {
    id?: unknown;
    identifier?: unknown;
  }
  interface Snapshot {
    options: { body: Record<string, unknown> };
  }
  const { options } = after as Snapshot;
  const known = (before as Snapshot).options.body;
  const body = Object.fromEntries(
    Object.entries(options.body).map(([name, value]) => {
      const had = known[name];
      if (!Array.isArray(value) || !Array.isArray(had)) return [name, value];
      const ids = new Set((had as Entry[]).map((entry) => JSON.stringify([entry.id, entry.identifier])));
      return [
        name,
        (value as Entry[]).filter((entry) => ids.has(JSON.stringify([entry.id, entry.identifier]))),
      ];
    }),
  );
  return { ...(after as Snapshot), options: { ...options, body } };
}

const blocks = DOCUMENTS.flatMap((document) =>
  shellBlocks(document, readFileSync(new URL(`../${document}`, import.meta.url), 'utf8')),
);

it('the README and the guides have shell blocks, and every one the test does not run says why', () => {
  expect(blocks.filter((block) => block.where.startsWith('README.md:')).length).toBeGreaterThan(1);
  expect(blocks.length).toBeGreaterThan(5);
  for (const block of blocks) if (block.skip !== null) expect(block.skip.length).toBeGreaterThan(10);
});

describeEachProcessDatabase('README and guides: shell blocks, top to bottom, on a fresh demo', (kind) => {
  let database: ProcessDatabase;
  let server: ServerProcess;
  let keys: Record<'demo-ticket-key' | 'demo-pos-key', string>;
  let dir: string;
  const adminToken = 'readme-admin-token-0123456789';

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
    // Inside the checkout (an ignored folder), as a reader in the repository: `npx partner-gateway`
    // finds this package's own command there.
    mkdirSync(SESSIONS, { recursive: true });
    dir = mkdtempSync(join(SESSIONS, 'readme-'));
    const started = performance.now();
    server = await startServer({ DATABASE_URL: database.url, DEMO: 'true', ADMIN_TOKEN: adminToken });
    // The banner, printed once both listeners are up after the demo's 200,000 receipts (a loaded machine).
    const ticket =
      (await server.waitForOutput(/export TICKET_KEY=(gtes_[A-Za-z0-9_-]{43})\n/, 300_000))[1] ?? '';
    const pos = (await server.waitForOutput(/export POS_KEY=(gtpk_[A-Za-z0-9_-]{43})\n/, 10_000))[1] ?? '';
    await server.waitUntilListening({ ms: 60_000 });
    keys = { 'demo-ticket-key': ticket, 'demo-pos-key': pos };
    console.log(
      `[${kind}] the demo server listened ${((performance.now() - started) / 1000).toFixed(1)} s after its start`,
    );
  }, 360_000);

  afterAll(async () => {
    await server.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every block runs, every call answers what its document says', async () => {
    const skipped = blocks.filter((block) => block.skip !== null);
    console.log(
      `Blocks skipped (${skipped.length} of ${blocks.length}):\n` +
        skipped.map((block) => `  ${block.where}: ${block.skip}`).join('\n'),
    );
    const ports = (text: string) =>
      text
        .replaceAll('localhost:8080', `localhost:${server.port}`)
        .replaceAll('localhost:8081', `localhost:${server.adminPort}`);
    const before = await demoSnapshot(server, keys, adminToken);
    const script = [
      CURL_WRAPPER,
      // What the first start's banner tells the reader to paste.
      `export TICKET_KEY='${keys['demo-ticket-key']}' POS_KEY='${keys['demo-pos-key']}'`,
      ...blocks.flatMap((block, index) =>
        block.skip !== null
          ? []
          : [
              `echo "::block ${index}" >&2`,
              ...(block.key === null ? [] : [`KEY='${keys[block.key]}'`]),
              ports(block.text),
            ],
      ),
      'echo "::end" >&2',
    ].join('\n');

    const session = await runBash(script, dir, {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      // The shell that started the server: its admin token and port (the CLI's default admin URL).
      ADMIN_TOKEN: adminToken,
      ADMIN_PORT: String(server.adminPort),
    });
    const report = `stderr:\n${session.stderr}\nstdout:\n${session.stdout.slice(-4000)}`;

    const calls: Call[] = [];
    const commandBlocks = new Set<number>(); // blocks in which a command (the CLI) ran and succeeded
    const problems: string[] = [];
    let block = -1;
    for (const line of session.stderr.split('\n')) {
      const marker = /^::block (\d+)$/.exec(line);
      if (marker !== null) block = Number(marker[1]);
      const call = /^::call (\d{3}) (\S+) (.*)$/.exec(line);
      if (call !== null)
        calls.push({ block, status: Number(call[1]), method: call[2] ?? '', url: call[3] ?? '' });
      if (line.startsWith('::command ')) commandBlocks.add(block);
      if (line.startsWith('::curl-failed') || line.startsWith('::command-failed'))
        problems.push(`block at ${blocks[block]?.where}: ${line}`);
    }
    if (!session.stderr.includes('::end')) {
      const last = session.stderr.trim().split('\n').at(-1);
      problems.push(`the session stopped in the block at ${blocks[block]?.where}: ${last}`);
    }
    if (session.code !== 0) problems.push(`the session ended with status ${session.code}`);

    for (const [index, current] of blocks.entries()) {
      if (current.skip !== null) continue;
      const own = calls.filter((call) => call.block === index);
      if (own.length === 0 && !commandBlocks.has(index))
        problems.push(`block at ${current.where}: no call ran`);
      const seen = new Set<string>();
      for (const call of own) {
        const path = new URL(call.url).pathname;
        const suffix = [...current.expect.keys()].find((end) => path.endsWith(end));
        const wanted = suffix === undefined ? undefined : current.expect.get(suffix);
        if (suffix !== undefined) seen.add(suffix);
        const good = wanted === undefined ? call.status >= 200 && call.status < 300 : call.status === wanted;
        if (!good)
          problems.push(`block at ${current.where}: ${call.method} ${call.url} answered ${call.status}`);
      }
      for (const suffix of current.expect.keys()) {
        if (!seen.has(suffix)) problems.push(`block at ${current.where}: no call to …${suffix}`);
      }
    }

    // The documents leave the demo as they found it, usable: no switch left on (maintenance), no demo key spent.
    const options = await http(server.port, 'GET', '/v1/api-external-system/help-desk-ticket-options', {
      headers: { authorization: `Bearer ${keys['demo-ticket-key']}` },
    });
    if (options.status !== 200)
      problems.push(`after the documents, the ticket API answers ${options.status}`);
    const ping = await http(server.port, 'GET', '/v1/api-public/ping', {
      headers: { authorization: `Bearer ${keys['demo-pos-key']}` },
    });
    if (ping.status !== 200) problems.push(`after the documents, the POS API answers ${ping.status}`);

    // No example renamed, replaced or removed the demo's data (a PUT of priorities/1 would leave two
    // "Alta"); entries the examples created are theirs.
    expect
      .soft(
        demoEntriesOnly(await demoSnapshot(server, keys, adminToken), before),
        'the demo after the documents',
      )
      .toEqual(before);
    expect(problems, report).toEqual([]);
  }, 480_000);
});
