// Checks that the built output runs without development dependencies, as a production install has it:
// builds dist/, copies what a deploy ships (package.json, package-lock.json, bin/, dist/ with its links
// resolved, the workspace manifests) into a temporary directory, installs there with
// `npm ci --omit=dev`, and runs `partner-gateway --help`, `partner-gateway migrate` and
// `npm run db:migrate` on a fresh SQLite file. Exits 1 with the failing step's output otherwise.
//
//   node scripts/check-production-install.mjs        (needs the npm registry, or its cache; a few minutes)

import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'gateway-production-'));

function step(name, command, args, options = {}) {
  process.stderr.write(`check-production-install: ${name}\n`);
  const result = spawnSync(command, args, { encoding: 'utf8', ...options });
  if (result.status !== 0) {
    process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}${result.error?.message ?? ''}\n`);
    throw new Error(`${name}: failed (exit ${result.status})`);
  }
  return result.stdout;
}

try {
  step('build dist/', process.execPath, [join(ROOT, 'scripts/build.mjs')]);
  for (const file of ['package.json', 'package-lock.json', 'bin'])
    cpSync(join(ROOT, file), join(dir, file), { recursive: true });
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true, dereference: true });
  mkdirSync(join(dir, 'packages/client'), { recursive: true });
  cpSync(join(ROOT, 'packages/client/package.json'), join(dir, 'packages/client/package.json'));
  step('npm ci --omit=dev', 'npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: dir });
  const env = { PATH: process.env.PATH, DATABASE_URL: `file:${join(dir, 'data/service.sqlite')}` };
  step('partner-gateway --help', process.execPath, ['bin/partner-gateway.js', '--help'], { cwd: dir, env });
  const migrated = step('partner-gateway migrate', process.execPath, ['bin/partner-gateway.js', 'migrate'], {
    cwd: dir,
    env,
  });
  if (!migrated.startsWith('Applied: '))
    throw new Error(`partner-gateway migrate: unexpected output ${migrated}`);
  const again = step('npm run db:migrate', 'npm', ['run', '--silent', 'db:migrate'], { cwd: dir, env });
  if (again !== 'Database is up to date.\n')
    throw new Error(`npm run db:migrate: unexpected output ${again}`);
  process.stderr.write('check-production-install: ok (no development dependency needed)\n');
} catch (error) {
  process.stderr.write(
    `check-production-install: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
