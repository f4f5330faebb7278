import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

// What the entries (src/server.ts, src/cli/main.ts) check before they import anything else: a Node the
// package supports (its `engines` in package.json, read here, not repeated), and, when loading goes
// wrong, whether a native addon (better-sqlite3) was built for another Node. Either ends the start in
// one line naming the command that fixes it (docs/getting-started.md, Node version), instead of a stack
// trace or a start on an unsupported Node. This module imports nothing native, so that it runs first.

/** The `engines.node` range of the package.json above this file (dist/ may be a link into build/). */
export function supportedNodeRange(from: string = fileURLToPath(import.meta.url)): string | null {
  let dir = dirname(from);
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as {
        name?: string;
        engines?: { node?: unknown };
      };
      if (manifest.name === 'partner-gateway')
        return typeof manifest.engines?.node === 'string' ? manifest.engines.node : null;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Why this Node cannot run the service, with how to switch; null when `version` is in `range`. */
export function unsupportedNode(version: string, range: string): string | null {
  if (semver.satisfies(version, range, { includePrerelease: true })) return null;
  const major = semver.minVersion(range)?.major;
  const target = major === undefined ? `a Node in ${range}` : `Node ${major}`;
  const how =
    major === undefined
      ? 'install one from https://nodejs.org/'
      : `\`nvm install ${major}\` with nvm, or install it from https://nodejs.org/`;
  return `Node ${version} is not supported: partner-gateway needs Node ${range} ("engines" in package.json). Switch to ${target} (${how}) and run the command again.`;
}

/** The error and its causes, outermost first (a loader may wrap the addon's error). */
function* chain(error: unknown): Generator<{ code?: unknown; message: string }> {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    yield { code, message: typeof message === 'string' ? message : '' };
    current = (current as { cause?: unknown }).cause;
  }
}

/** The package whose file a loader's message names (`…/node_modules/better-sqlite3/build/…`). */
function packageIn(message: string): string | null {
  const names = [...message.matchAll(/node_modules[\\/]((?:@[^\\/\s'"]+[\\/])?[^\\/\s'"]+)[\\/]/g)];
  const last = names.at(-1)?.[1];
  return last === undefined ? null : last.replace('\\', '/');
}

/**
 * When `error` is a native addon that cannot be loaded by this Node (built for another Node's ABI, not
 * built at all, or not loadable), the line saying so and the rebuild that fixes it; null otherwise.
 */
export function nativeAddonFailure(
  error: unknown,
  nodeVersion: string = process.versions.node,
): string | null {
  for (const { code, message } of chain(error)) {
    const abi = /NODE_MODULE_VERSION (\d+)[\s\S]*?NODE_MODULE_VERSION (\d+)/.exec(message);
    const missing = message.includes('Could not locate the bindings file');
    if (code !== 'ERR_DLOPEN_FAILED' && abi === null && !missing) continue;
    const name = packageIn(message) ?? 'better-sqlite3';
    const fix = `Rebuild it for this Node: \`npm rebuild ${name}\` (in the service's directory).`;
    if (abi !== null)
      return `the native addon of ${name} was built for another Node version (NODE_MODULE_VERSION ${abi[1]}; Node ${nodeVersion} needs ${abi[2]}). ${fix}`;
    if (missing) return `the native addon of ${name} is not built for this machine. ${fix}`;
    const first = message.split('\n')[0]?.trim() ?? '';
    return `the native addon of ${name} cannot be loaded by Node ${nodeVersion} (${first}). ${fix}`;
  }
  return null;
}

/**
 * Ends the process with one line on stderr (`prefix: …`, exit code 1) when this Node is outside the
 * package's `engines`; does nothing otherwise, or when no package.json is found.
 */
export function exitUnlessNodeSupported(prefix: string, version: string = process.versions.node): void {
  const range = supportedNodeRange();
  const problem = range === null ? null : unsupportedNode(version, range);
  if (problem === null) return;
  process.stderr.write(`${prefix}: ${problem}\n`);
  process.exit(1);
}
