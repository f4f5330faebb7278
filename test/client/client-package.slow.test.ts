import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

// The client as an integrator gets it (packages/client/README.md, Getting it): `npm pack` of the package
// (its prepack builds dist/), a new project outside the repository that installs the tarball offline, the
// README's examples (read from the README, not copied) type-checked against the packed .d.ts with the
// repository's tsc and run by Node.js against a started service process with its demo keys.

const ROOT = resolve('.');
const PACKAGE = join(ROOT, 'packages/client');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with only the given environment (plus PATH and HOME). */
function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? cwd, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => {
      done({ code, stdout, stderr });
    });
  });
}

const explain = (result: Run) => `exit ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`;

/** The README's ```ts blocks, as printed. */
async function readmeExamples(): Promise<string[]> {
  const text = await readFile(join(PACKAGE, 'README.md'), 'utf8');
  return [...text.matchAll(/^```ts\n(.*?)^```$/gms)].map((m) => m[1]!);
}

// What the types must refuse: were the packed types missing or `any`, these lines would compile and tsc
// would report each unused @ts-expect-error.
const TYPE_PROBE = `import { createTicketsClient, type TicketResult } from '@partner-gateway/client';

const tickets = createTicketsClient({ baseUrl: 'http://localhost:8080', key: 'k' });
export async function probe(): Promise<boolean> {
  // @ts-expect-error a ticket needs company and description
  await tickets.createTicket({ external_id: 'x' });
  const opened: TicketResult = await tickets.createTicket({ external_id: 'x', company: 'c', description: 'd' });
  // @ts-expect-error the facts are on lastResponse, not on the ticket
  void opened.status;
  return opened.lastResponse.created && opened.ticket.startsWith('I-');
}
`;

describe('the packed client, installed in a new project, runs the README against a started service', () => {
  let dir: string;
  let project: string;
  let tarball: string;
  let packed: { filename: string; version: string; files: { path: string }[] };
  // npm's own cache in the temporary folder: the install must work offline from the tarball alone.
  const npmEnv = () => ({ npm_config_cache: join(dir, 'npm-cache'), npm_config_update_notifier: 'false' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-package-'));
    project = join(dir, 'integrator');
    const pack = await run('npm', ['pack', '--json', '--pack-destination', dir], PACKAGE, npmEnv());
    expect(pack.code, explain(pack)).toBe(0);
    packed = (JSON.parse(pack.stdout) as (typeof packed)[])[0]!;
    tarball = join(dir, packed.filename);
  }, 120_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('npm pack builds the package and ships the built JavaScript, its .d.ts, README, CHANGELOG and LICENSE only', async () => {
    const paths = packed.files.map((file) => file.path).sort();
    const pkg = JSON.parse(await readFile(join(PACKAGE, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(packed.version).toBe(pkg.version);
    expect(pkg.private).toBeUndefined();
    expect(pkg.license).toBe('MIT');
    expect(paths).toEqual(
      expect.arrayContaining(['dist/index.js', 'dist/index.d.ts', 'LICENSE', 'README.md']),
    );
    const stray = paths.filter(
      (path) => !/^(dist\/[\w/-]+\.(js|d\.ts)|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/.test(path),
    );
    expect(stray).toEqual([]);
    // Every module of the sources is there, compiled.
    const sources = (await readdir(join(PACKAGE, 'src'), { recursive: true })).filter((path) =>
      path.endsWith('.ts'),
    );
    expect(sources).toContain('index.ts');
    for (const source of sources) {
      const base = `dist/${source.replace(/\.ts$/, '')}`;
      expect(paths).toEqual(expect.arrayContaining([`${base}.js`, `${base}.d.ts`]));
    }
  });

  describe('in a project of its own', () => {
    // Undefined when the set-up failed before the start.
    let server: ServerProcess | undefined;
    let keys: { helpDesk: string; pos: string };
    let examples: string[];

    beforeAll(async () => {
      await mkdir(project);
      await writeFile(
        join(project, 'package.json'),
        JSON.stringify({ name: 'integrator', private: true, type: 'module' }, null, 2),
      );
      const install = await run(
        'npm',
        ['install', '--offline', '--no-audit', '--no-fund', tarball],
        project,
        npmEnv(),
      );
      expect(install.code, explain(install)).toBe(0);
      examples = await readmeExamples();
      for (const [index, example] of examples.entries()) {
        await writeFile(join(project, `example-${index}.ts`), example);
      }
      server = await startServer({ DATABASE_URL: `file:${join(dir, 'service.sqlite')}`, DEMO: 'true' });
      keys = {
        helpDesk: (await server.waitForOutput(/(gtes_[A-Za-z0-9_-]{43})/, 120_000))[1]!,
        pos: (await server.waitForOutput(/(gtpk_[A-Za-z0-9_-]{43})/, 120_000))[1]!,
      };
      await server.waitUntilListening({ ms: 60_000 });
    }, 240_000);

    afterAll(async () => {
      await server?.stop();
    });

    it('the install took the tarball: the dependency names it, the package holds no sources', async () => {
      const own = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>;
      };
      expect(own.dependencies['@partner-gateway/client']).toMatch(/^file:.*\.tgz$/);
      const ls = await run('find', ['node_modules/@partner-gateway/client', '-name', '*.ts'], project);
      expect(ls.stdout.split('\n').filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))).toEqual(
        [],
      );
    });

    it("the README's examples and a probe type-check against the packed .d.ts, with the repository's tsc", async () => {
      expect(examples.length).toBeGreaterThanOrEqual(3);
      await writeFile(join(project, 'probe.ts'), TYPE_PROBE);
      await writeFile(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2023',
            lib: ['ES2023', 'DOM'],
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            noUncheckedIndexedAccess: true,
            noEmit: true,
            // The examples read process.env: Node's types, from the repository (the project has none).
            types: ['node'],
            typeRoots: [join(ROOT, 'node_modules/@types')],
          },
          include: ['*.ts'],
        }),
      );
      const check = await run(process.execPath, [TSC, '-p', '.', '--listFiles'], project);
      expect(check.code, explain(check)).toBe(0);
      const files = check.stdout.split('\n');
      expect(files).toContain(join(project, 'node_modules/@partner-gateway/client/dist/index.d.ts'));
      expect(files.filter((file) => file.startsWith(PACKAGE))).toEqual([]);
    }, 120_000);

    it('each example runs with Node.js against the service, with BASE_URL and the demo keys', async () => {
      const printed: string[] = [];
      for (const index of examples.keys()) {
        const result = await run(
          process.execPath,
          ['--experimental-strip-types', '--disable-warning=ExperimentalWarning', `example-${index}.ts`],
          project,
          {
            BASE_URL: `http://127.0.0.1:${server!.port}`,
            HELP_DESK_KEY: keys.helpDesk,
            POS_KEY: keys.pos,
          },
        );
        expect(result.code, explain(result)).toBe(0);
        expect(result.stderr, explain(result)).toBe('');
        printed.push(...result.stdout.split('\n').filter((line) => line !== ''));
      }
      // The ticket was opened (true: created, its number, the calls left, the request id), the webhook
      // answered 201, the places and sales came back, and no refusal was printed.
      expect(printed).toContainEqual(expect.stringMatching(/^true I-\S+ \d+ \S+$/));
      expect(printed).toContainEqual(expect.stringMatching(/^201 /));
      expect(printed).toContainEqual(expect.stringMatching(/SP01/));
      expect(printed).toContainEqual(expect.stringMatching(/^total \d+n cents remaining calls \d+$/));
      expect(printed.filter((line) => /^(keep|[45]\d\d) /.test(line))).toEqual([]);
    }, 120_000);
  });
});
