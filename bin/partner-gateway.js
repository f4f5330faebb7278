#!/usr/bin/env node
// The `partner-gateway` command. It runs the built output (dist/cli/main.js). In a checkout that has the
// compiler (a development machine, CI), it first builds dist/ when the sources changed, as `npm start`
// does, so that the command never runs stale code; an installation without development dependencies
// runs the dist/ it was shipped with.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const root = new URL('..', import.meta.url);
const buildScript = fileURLToPath(new URL('scripts/build.mjs', root));

function hasCompiler() {
  try {
    createRequire(new URL('package.json', root)).resolve('typescript/package.json');
    return true;
  } catch {
    return false;
  }
}

if (existsSync(buildScript) && hasCompiler()) {
  // Quiet when nothing goes wrong: the command's own output (often --json) is what the caller reads.
  const build = spawnSync(process.execPath, [buildScript], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (build.status !== 0) {
    process.stderr.write(build.stderr);
    process.stderr.write('partner-gateway: could not build dist/ from the sources (see above)\n');
    process.exit(1);
  }
}

const entry = new URL('dist/cli/main.js', root);
if (!existsSync(entry)) {
  process.stderr.write('partner-gateway: dist/ is missing; run `npm run build` first\n');
  process.exit(1);
}
await import(entry.href);
