import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The command line run as operators run it: `bin/partner-gateway.js` in a child process, with only the
// given environment (plus PATH), so that nothing of the test runner's own variables leaks in.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/partner-gateway.js', import.meta.url));

/** What one run printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (for --json runs), as the shape the caller expects. */
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- a typed parse, as JSON.parse
  json<T = unknown>(): T;
}

/** Runs `partner-gateway ...args` in the repository's directory. */
export function runCli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        cwd: options.cwd ?? ROOT,
        env: { PATH: process.env.PATH ?? '', ...env },
        timeout: options.timeoutMs ?? 60_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') {
          reject(new Error(`partner-gateway ${args.join(' ')}: ${error.message}\n${stderr}`));
          return;
        }
        const code = error === null ? 0 : Number(error.code);
        resolve({
          code,
          stdout,
          stderr,
          // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- as above
          json<T>() {
            try {
              return JSON.parse(stdout) as T;
            } catch {
              throw new Error(`not JSON (exit ${code}):\n${stdout}\n${stderr}`);
            }
          },
        });
      },
    );
  });
}
