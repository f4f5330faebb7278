import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds dist/ when the sources changed (scripts/build.mjs, as `npm start` does), so that a bench runs
 * the service as production does: `node dist/server.js`.
 */
export async function buildService(): Promise<void> {
  const child = spawn(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`scripts/build.mjs exited ${String(code)}`);
}
