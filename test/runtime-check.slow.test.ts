import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The real entries on a Node they cannot run on (docs/getting-started.md, Node version): the server as
// `npm run dev` starts it (src/server.ts under tsx) and as `npm start` does (dist/server.js), and the
// command line (bin/partner-gateway.js). A preload (`--import`) fakes what a wrong machine has: another
// `process.versions.node`, or Node's loader refusing better-sqlite3's addon as built for another ABI. Each
// must end with exit code 1 and one line on stderr naming the fix, before any database is touched.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RANGE = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(node: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      node,
      args,
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 240_000 },
      (error, stdout, stderr) => {
        resolve({
          code: error === null ? 0 : typeof error.code === 'number' ? error.code : null,
          stdout,
          stderr,
        });
      },
    );
  });
}

let dir: string;
let fakeNode20: string;
let fakeDlopen: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-node-'));
  fakeNode20 = join(dir, 'node-20.mjs');
  writeFileSync(
    fakeNode20,
    "Object.defineProperty(process, 'versions', { value: { ...process.versions, node: '20.11.1' } });\n",
  );
  // Node's own message and code for an addon of another ABI, thrown where Node loads every addon.
  fakeDlopen = join(dir, 'dlopen.mjs');
  writeFileSync(
    fakeDlopen,
    [
      'process.dlopen = (module, filename) => {',
      "  const error = new Error(`The module '${filename}'\\nwas compiled against a different Node.js version using\\nNODE_MODULE_VERSION 115. This version of Node.js requires\\nNODE_MODULE_VERSION ${process.versions.modules}. Please try re-compiling or re-installing\\nthe module (for instance, using \\`npm rebuild\\` or \\`npm install\\`).`);",
      "  error.code = 'ERR_DLOPEN_FAILED';",
      '  throw error;',
      '};',
      '',
    ].join('\n'),
  );
  // dist/ built once, as `npm start`'s prestart does (the CLI builds it too).
  expect((await run(process.execPath, ['scripts/build.mjs'], {})).code).toBe(0);
}, 300_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const WRONG_NODE = new RegExp(
  `^(Cannot start|error): Node 20\\.11\\.1 is not supported: partner-gateway needs Node ${RANGE.replace(/[.^]/g, '\\$&')} \\("engines" in package\\.json\\)\\. Switch to Node \\d+ \\(\`nvm install \\d+\` with nvm, or install it from https://nodejs\\.org/\\) and run the command again\\.\\n$`,
);
const WRONG_ADDON =
  /^(Cannot start|error): the native addon of better-sqlite3 was built for another Node version \(NODE_MODULE_VERSION 115; Node [\d.]+ needs \d+\)\. Rebuild it for this Node: `npm rebuild better-sqlite3` \(in the service's directory\)\.\n$/;

describe('an unsupported Node ends the start in one line', () => {
  const database = () => ({ DATABASE_URL: `file:${join(dir, 'never.sqlite')}` });

  it('npm run dev (src/server.ts), npm start (dist/server.js) and the command line', async () => {
    const dev = await run(
      process.execPath,
      ['--import', 'tsx', '--import', fakeNode20, 'src/server.ts'],
      database(),
    );
    expect([dev.code, dev.stderr, dev.stdout]).toEqual([1, expect.stringMatching(WRONG_NODE), '']);
    expect(dev.stderr).toMatch(/^Cannot start: /);
    const start = await run(process.execPath, ['--import', fakeNode20, 'dist/server.js'], database());
    expect([start.code, start.stderr, start.stdout]).toEqual([1, expect.stringMatching(WRONG_NODE), '']);
    const cli = await run(
      process.execPath,
      ['--import', fakeNode20, 'bin/partner-gateway.js', 'migrate'],
      database(),
    );
    expect([cli.code, cli.stderr, cli.stdout]).toEqual([1, expect.stringMatching(WRONG_NODE), '']);
    expect(cli.stderr).toMatch(/^error: /);
    // Before anything opened the database.
    expect(() => readFileSync(join(dir, 'never.sqlite'))).toThrow(/ENOENT/);
  }, 240_000);

  it('the Node of this machine outside the range, for real (when it has one)', async (context) => {
    let version = '';
    try {
      version = execFileSync('/usr/bin/node', ['--version'], { encoding: 'utf8' }).trim();
    } catch {
      context.skip('/usr/bin/node is absent');
    }
    if (version.startsWith('v22.')) context.skip(`/usr/bin/node is ${version}, a supported version`);
    const cli = await run('/usr/bin/node', ['dist/cli/main.js', '--version'], {});
    expect([cli.code, cli.stderr]).toEqual([
      1,
      `error: ${(await import('../src/runtime-check.js')).unsupportedNode(version.slice(1), RANGE) ?? ''}\n`,
    ]);
    const start = await run('/usr/bin/node', ['dist/server.js'], database());
    expect([start.code, start.stderr.split('\n').length]).toEqual([1, 2]);
    expect(start.stderr).toMatch(/^Cannot start: Node .* is not supported/);
  }, 120_000);
});

describe('a native addon built for another Node ends the start in one line', () => {
  it('npm run dev (src/server.ts), npm start (dist/server.js) and a command that opens the database', async () => {
    const env = { DATABASE_URL: `file:${join(dir, 'addon.sqlite')}`, LOG_LEVEL: 'warn' };
    const dev = await run(
      process.execPath,
      ['--import', 'tsx', '--import', fakeDlopen, 'src/server.ts'],
      env,
    );
    expect([dev.code, dev.stderr]).toEqual([1, expect.stringMatching(WRONG_ADDON)]);
    const start = await run(process.execPath, ['--import', fakeDlopen, 'dist/server.js'], env);
    expect([start.code, start.stderr]).toEqual([1, expect.stringMatching(WRONG_ADDON)]);
    const cli = await run(
      process.execPath,
      ['--import', fakeDlopen, 'bin/partner-gateway.js', 'migrate'],
      env,
    );
    expect([cli.code, cli.stderr, cli.stdout]).toEqual([1, expect.stringMatching(WRONG_ADDON), '']);
  }, 240_000);
});
