// Builds dist/ when the sources changed, safely when several run at once (`npm start` runs it first).
//
//   node scripts/build.mjs            build when stale: nothing to do when dist/ already holds a build of
//                                     these inputs
//   node scripts/build.mjs --force    compile again even so
//
// dist is a symlink to build/<fingerprint>/. The fingerprint hashes every input of the compiler: the files
// under src/, both tsconfigs, package-lock.json, the installed TypeScript version and this script. A
// stale build is compiled by tsc into a fresh build/.tmp-* directory; its stamp (.build-stamp) is written
// last, the directory is renamed to build/<fingerprint>, and dist is switched by renaming a new symlink
// onto it: rename(2) replaces a symlink atomically, so a reader finds either the old complete build or the
// new one, never a missing or half-written file. Node resolves the real path of the entry point, so a
// process that started from dist/server.js keeps importing from the one build it started in even when
// dist moves on while it loads.
//
// Several builders at once: the first to create build/.lock-<fingerprint> compiles, the others wait for
// its result (and compile themselves if it fails, dies or takes too long). The lock only saves work:
// when two builders compile anyway, both outputs are complete and whichever switches dist last wins.
// Old builds are deleted only when they are neither dist's target nor one of the two most recent, and
// have not been dist's target for ten minutes, so a process still loading one keeps it.

import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const DIST = join(ROOT, 'dist');
const BUILDS = join(ROOT, 'build');
const STAMP = '.build-stamp';
const TSCONFIG = 'tsconfig.build.json';
const INPUT_FILES = ['tsconfig.json', TSCONFIG, 'package-lock.json', 'scripts/build.mjs'];
const INPUT_DIRS = ['src'];

const WAIT_LIMIT_MS = 10 * 60_000; // longest wait for another builder of the same inputs
const KEEP_RECENT = 2; // the most recently active builds are kept (and dist's target, always)
const KEEP_ACTIVE_MS = 10 * 60_000; // a build that was dist's target this recently is kept
const LEFTOVER_MS = 60 * 60_000; // a leftover of a builder that died is removed after this

const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
const log = (message) => process.stderr.write(`build: ${message}\n`);
const rel = (path) => relative(ROOT, path).split(sep).join('/');
const hasCode = (error, ...codes) => error instanceof Error && 'code' in error && codes.includes(error.code);

/** Paths removed by the signal handlers if the build is interrupted. */
const cleanupOnSignal = new Set();

async function main() {
  const force = process.argv.includes('--force');
  const require = createRequire(join(ROOT, 'package.json'));
  let tsc, typescriptVersion;
  try {
    tsc = require.resolve('typescript/bin/tsc');
    typescriptVersion = require('typescript/package.json').version;
  } catch {
    throw new Error('TypeScript is not installed: run `npm install` (or `npm ci`) first.');
  }
  await fs.mkdir(BUILDS, { recursive: true });

  for (let attempt = 1; ; attempt++) {
    const fingerprint = await fingerprintInputs(typescriptVersion);
    const target = join(BUILDS, fingerprint);
    if (!force && (await stampOf(DIST)) === fingerprint) {
      log(`dist is up to date (${rel(await fs.realpath(DIST))})`);
      return;
    }
    if (!force && (await stampOf(target)) === fingerprint) {
      await activate(target);
      log(`dist -> ${rel(target)} (built before)`);
      await prune();
      return;
    }

    const lock = force ? null : await lockOrWait(fingerprint, target);
    if (lock === 'built') {
      await activate(target);
      log(`dist -> ${rel(target)} (built by another process)`);
      await prune();
      return;
    }
    try {
      const built = await compile(tsc, fingerprint, typescriptVersion, force);
      if (built === null) {
        if (attempt < 3) {
          log('the sources changed during the build; building again');
          continue;
        }
        throw new Error('the sources kept changing during the build; dist is unchanged');
      }
      await activate(built);
      log(`dist -> ${rel(built)} (compiled)`);
    } finally {
      if (lock !== null) await releaseLock(lock);
    }
    await prune();
    return;
  }
}

/** The hash of every input of the compiler, as 20 hex digits. */
async function fingerprintInputs(typescriptVersion) {
  const files = [...INPUT_FILES];
  for (const dir of INPUT_DIRS) files.push(...(await listFiles(join(ROOT, dir))).map(rel));
  files.sort();
  const hash = createHash('sha256').update(`typescript ${typescriptVersion}\n`);
  for (const file of files) {
    let content;
    try {
      content = await fs.readFile(join(ROOT, file));
    } catch (error) {
      if (!hasCode(error, 'ENOENT')) throw error;
      hash.update(`${file} absent\n`);
      continue;
    }
    hash.update(`${file} ${createHash('sha256').update(content).digest('hex')}\n`);
  }
  return hash.digest('hex').slice(0, 20);
}

/** Every file under `dir`, recursively, except those whose name starts with a dot. */
async function listFiles(dir) {
  const found = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else found.push(path);
  }
  return found;
}

/** The fingerprint in `dir`'s stamp (following symlinks), or null when there is no complete build. */
async function stampOf(dir) {
  try {
    const stamp = JSON.parse(await fs.readFile(join(dir, STAMP), 'utf8'));
    return typeof stamp?.fingerprint === 'string' ? stamp.fingerprint : null;
  } catch {
    return null;
  }
}

/**
 * Takes build/.lock-<fingerprint>, or waits while another live builder holds it. Answers the lock's path,
 * 'built' when the other builder finished the same build, or null when waiting longer is pointless (the
 * caller compiles without the lock).
 */
async function lockOrWait(fingerprint, target) {
  const lock = join(BUILDS, `.lock-${fingerprint}`);
  const started = Date.now();
  let announced = false;
  for (;;) {
    let taken = false;
    try {
      await fs.mkdir(lock);
      taken = true;
    } catch (error) {
      if (!hasCode(error, 'EEXIST')) throw error;
    }
    if (taken) {
      cleanupOnSignal.add(lock);
      try {
        await fs.writeFile(
          join(lock, 'owner.json'),
          JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }),
        );
        // The previous holder may have finished this very build just before releasing the lock.
        if ((await stampOf(target)) !== fingerprint) return lock;
      } catch (error) {
        await releaseLock(lock);
        throw error;
      }
      await releaseLock(lock);
      return 'built';
    }
    if ((await stampOf(target)) === fingerprint) return 'built';
    const owner = await lockOwner(lock);
    if (owner.stale) {
      await fs.rm(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - started > WAIT_LIMIT_MS) {
      log(`gave up waiting for ${owner.who}; compiling here too`);
      return null;
    }
    if (!announced) log(`waiting for ${owner.who}, which is building the same sources`);
    announced = true;
    await sleep(200);
  }
}

/** Who holds a lock, and whether it is stale (its process is gone, or it is older than the wait limit). */
async function lockOwner(lock) {
  let since;
  try {
    since = (await fs.stat(lock)).mtimeMs;
  } catch {
    return { who: 'another builder', stale: false }; // released meanwhile: try again
  }
  let owner = null;
  try {
    owner = JSON.parse(await fs.readFile(join(lock, 'owner.json'), 'utf8'));
  } catch {
    // Just created, its owner not written yet; or left by a builder killed in between: the age decides.
  }
  const old = Date.now() - since > WAIT_LIMIT_MS;
  if (owner === null || typeof owner.pid !== 'number') return { who: 'another builder', stale: old };
  const who = `process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}`;
  return { who, stale: old || (owner.host === hostname() && !isAlive(owner.pid)) };
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return hasCode(error, 'EPERM');
  }
}

async function releaseLock(lock) {
  await fs.rm(lock, { recursive: true, force: true });
  cleanupOnSignal.delete(lock);
}

/**
 * Compiles into a fresh directory, writes its stamp last and renames it into build/. Answers the complete
 * build's directory, or null when the inputs changed while tsc read them (the output is discarded).
 */
async function compile(tsc, fingerprint, typescriptVersion, force) {
  // Inside build/, at the same depth as the final directory: the source maps' relative paths stay right.
  const tmp = join(BUILDS, `.tmp-${id}`);
  cleanupOnSignal.add(tmp);
  try {
    log(`compiling (tsc -p ${TSCONFIG}) into ${rel(tmp)}`);
    const code = await run(process.execPath, [tsc, '-p', TSCONFIG, '--outDir', tmp]);
    if (code !== 0) throw new Error(`tsc failed (exit code ${code}); dist is unchanged`);
    if ((await fingerprintInputs(typescriptVersion)) !== fingerprint) return null;
    const stamp = { fingerprint, typescript: typescriptVersion, builtAt: new Date().toISOString() };
    await fs.writeFile(join(tmp, STAMP), JSON.stringify(stamp, null, 2) + '\n');

    // A forced build never replaces a directory that a running process may be loading.
    const target = join(BUILDS, force ? `${fingerprint}-${id}` : fingerprint);
    try {
      await fs.rename(tmp, target);
      return target;
    } catch (error) {
      // Another builder finished the same inputs first: its output is the same as ours.
      if (!hasCode(error, 'EEXIST', 'ENOTEMPTY') || (await stampOf(target)) !== fingerprint) throw error;
      return target;
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
    cleanupOnSignal.delete(tmp);
  }
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

/** Points dist at `build` by renaming a new symlink onto it: readers see the old target or the new one. */
async function activate(build) {
  const now = new Date();
  await fs.utimes(join(build, STAMP), now, now); // recently active: kept by prune()
  const link = join(BUILDS, `.link-${id}`);
  cleanupOnSignal.add(link);
  // Relative to the checkout, where the link ends up: the checkout may be moved or copied.
  await fs.symlink(rel(build), link, 'dir');
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await fs.rename(link, DIST);
        return;
      } catch (error) {
        // dist is a directory built before dist was a symlink: no rename can replace a directory with a
        // symlink, so it moves aside first (the only moment without a dist, once per checkout).
        if (!hasCode(error, 'EISDIR', 'ENOTEMPTY', 'EEXIST', 'ENOTDIR', 'EPERM') || attempt > 5) throw error;
        const stat = await fs.lstat(DIST).catch(() => null);
        if (stat === null || !stat.isDirectory()) throw error;
        await removeDir(DIST, `old-dist-${id}-${attempt}`);
        log('replaced the old dist/ directory with a symlink');
      }
    }
  } finally {
    await fs.rm(link, { force: true });
    cleanupOnSignal.delete(link);
  }
}

/** Renames `dir` into build/ under a dotted name (atomic, so no half-deleted build is ever seen), then deletes it. */
async function removeDir(dir, name) {
  const trash = join(BUILDS, `.trash-${name}`);
  try {
    await fs.rename(dir, trash);
  } catch (error) {
    if (hasCode(error, 'ENOENT')) return; // another builder was faster
    throw error;
  }
  await fs.rm(trash, { recursive: true, force: true });
}

/** Deletes old builds and the leftovers of builders that died. Never fails the build. */
async function prune() {
  try {
    const now = Date.now();
    const builds = [];
    for (const entry of await fs.readdir(BUILDS, { withFileTypes: true })) {
      const path = join(BUILDS, entry.name);
      const stat = await fs.lstat(path).catch(() => null);
      if (stat === null) continue;
      if (entry.name.startsWith('.')) {
        // .tmp-*, .link-*, .trash-*, .lock-*: a live builder's are young.
        if (now - stat.mtimeMs > LEFTOVER_MS) await fs.rm(path, { recursive: true, force: true });
        continue;
      }
      const stamp = await fs.stat(join(path, STAMP)).catch(() => null);
      if (stamp !== null) builds.push({ path, active: stamp.mtimeMs });
    }
    builds.sort((a, b) => b.active - a.active);
    for (const build of builds.slice(KEEP_RECENT)) {
      if (now - build.active < KEEP_ACTIVE_MS) continue;
      const current = await fs.realpath(DIST).catch(() => null);
      if (current === build.path) continue;
      await removeDir(build.path, `${relative(BUILDS, build.path)}-${id}`);
    }
  } catch (error) {
    log(`could not delete old builds: ${error instanceof Error ? error.message : String(error)}`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    for (const path of cleanupOnSignal) {
      try {
        rmSync(path, { recursive: true, force: true }); // synchronous: the process ends right after
      } catch {
        // best effort; prune() removes leftovers later
      }
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}

try {
  await main();
} catch (error) {
  log(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
