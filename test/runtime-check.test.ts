import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nativeAddonFailure, supportedNodeRange, unsupportedNode } from '../src/runtime-check.js';

// What the entries check first (src/runtime-check.ts; docs/getting-started.md, Node version): the Node
// version against package.json's engines, and a native addon that this Node cannot load. The process test
// (test/runtime-check.slow.test.ts) runs the real entries with a faked Node.

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  engines: { node: string };
};

/** An error as Node's loader throws it for an addon built for another ABI. */
function abiError(path: string, built: number, needed: number): Error {
  const error = new Error(
    `The module '${path}'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION ${built}. This version of Node.js requires\nNODE_MODULE_VERSION ${needed}. Please try re-compiling or re-installing\nthe module (for instance, using \`npm rebuild\` or \`npm install\`).`,
  );
  Object.assign(error, { code: 'ERR_DLOPEN_FAILED' });
  return error;
}

const ADDON = '/srv/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node';

describe('the Node version', () => {
  it('is read from package.json engines, found above the module (dist/ is a link into build/)', () => {
    expect(supportedNodeRange()).toBe(manifest.engines.node);
    expect(supportedNodeRange(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)))).toBe(
      manifest.engines.node,
    );
    expect(supportedNodeRange('/no-such-dir/x/y.js')).toBeNull();
  });

  it('in the range passes; below, above or another major is one sentence naming the range and the switch', () => {
    for (const version of ['22.13.0', '22.23.3', '22.99.1'])
      expect(unsupportedNode(version, '^22.13')).toBeNull();
    for (const version of ['20.11.1', '22.12.0', '23.0.0', '24.1.0', '18.20.4']) {
      const problem = unsupportedNode(version, '^22.13');
      expect(problem).toBe(
        `Node ${version} is not supported: partner-gateway needs Node ^22.13 ("engines" in package.json). Switch to Node 22 (\`nvm install 22\` with nvm, or install it from https://nodejs.org/) and run the command again.`,
      );
      expect(problem).not.toContain('\n');
    }
    // The major to switch to comes from the range, never from a constant.
    expect(unsupportedNode('22.1.0', '>=24.2')).toContain('Switch to Node 24 (`nvm install 24`');
  });
});

describe('a native addon this Node cannot load', () => {
  it('built for another ABI: names both module versions and the rebuild of its package', () => {
    expect(nativeAddonFailure(abiError(ADDON, 115, 127), '22.23.3')).toBe(
      "the native addon of better-sqlite3 was built for another Node version (NODE_MODULE_VERSION 115; Node 22.23.3 needs 127). Rebuild it for this Node: `npm rebuild better-sqlite3` (in the service's directory).",
    );
  });

  it('wrapped in another error (a cause), scoped packages, and Windows paths', () => {
    const wrapped = new Error('could not open the database', { cause: abiError(ADDON, 127, 131) });
    expect(nativeAddonFailure(wrapped, '24.0.0')).toContain('NODE_MODULE_VERSION 127; Node 24.0.0 needs 131');
    const scoped = abiError('/a/node_modules/@acme/native/build/x.node', 1, 2);
    expect(nativeAddonFailure(scoped)).toContain('`npm rebuild @acme/native`');
    const windows = abiError('C:\\app\\node_modules\\better-sqlite3\\build\\Release\\x.node', 1, 2);
    expect(nativeAddonFailure(windows)).toContain('`npm rebuild better-sqlite3`');
  });

  it('not built, or not loadable at all (another machine, a broken file)', () => {
    const missing = new Error(
      'Could not locate the bindings file. Tried:\n → /srv/app/node_modules/better-sqlite3/build/better_sqlite3.node',
    );
    expect(nativeAddonFailure(missing)).toBe(
      "the native addon of better-sqlite3 is not built for this machine. Rebuild it for this Node: `npm rebuild better-sqlite3` (in the service's directory).",
    );
    const elf = Object.assign(new Error(`${ADDON}: invalid ELF header\nmore`), { code: 'ERR_DLOPEN_FAILED' });
    expect(nativeAddonFailure(elf, '22.23.3')).toBe(
      `the native addon of better-sqlite3 cannot be loaded by Node 22.23.3 (${ADDON}: invalid ELF header). Rebuild it for this Node: \`npm rebuild better-sqlite3\` (in the service's directory).`,
    );
  });

  it('any other failure is not one: its stack trace stays', () => {
    expect(nativeAddonFailure(new Error('SQLITE_CANTOPEN: unable to open database file'))).toBeNull();
    expect(nativeAddonFailure(Object.assign(new Error('x'), { code: 'ERR_MODULE_NOT_FOUND' }))).toBeNull();
    expect(nativeAddonFailure('a string')).toBeNull();
    expect(nativeAddonFailure(null)).toBeNull();
  });
});
