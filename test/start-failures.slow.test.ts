import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, http, startServer, type ServerProcess } from './support/server-process.js';

// What an operator can get wrong at start, on the real entry point as a child process: each is one line
// on stderr saying what failed and what to do, exit code 1, no stack trace and no secret.

const pgUrl = process.env.TEST_DATABASE_URL;

describe('a start that cannot go on says why in one line (child processes)', () => {
  let started: ServerProcess | undefined;
  let held: Server | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await started?.stop();
    const server = held;
    if (server !== undefined) await new Promise((resolve) => server.close(resolve));
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    started = held = dir = undefined;
  });

  /** A fresh SQLite file without demo data: the start reaches its listeners at once. */
  function sqlite(): Record<string, string> {
    dir = mkdtempSync(join(tmpdir(), 'gateway-start-'));
    return { DATABASE_URL: `file:${join(dir, 'service.sqlite')}`, DEMO: 'false' };
  }

  /** Holds a port of 127.0.0.1, as another process would. */
  async function holdPort(): Promise<number> {
    const port = await freePort();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    held = server;
    return port;
  }

  /** Runs the server to its end; its stderr must be exactly one line, with no stack trace. */
  async function failedStart(env: Record<string, string>): Promise<string> {
    started = await startServer(env);
    const code = await started.exited;
    const output = started.output();
    expect(code, output).toBe(1);
    expect(output).not.toMatch(/^\s+at /m);
    const stderr = output.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
    expect(stderr, output).toHaveLength(1);
    return stderr[0] ?? '';
  }

  it('PORT already in use', async () => {
    const port = await holdPort();
    const line = await failedStart({ ...sqlite(), PORT: String(port) });
    expect(line).toBe(
      `Cannot start: 127.0.0.1:${port} is already in use (PORT). Stop the process that holds it (\`ss -ltnp 'sport = :${port}'\` names it) or set PORT to a free port.`,
    );
  });

  it('ADMIN_PORT already in use', async () => {
    const port = await holdPort();
    const line = await failedStart({ ...sqlite(), ADMIN_PORT: String(port) });
    expect(line).toMatch(
      new RegExp(`^Cannot start: 127\\.0\\.0\\.1:${port} is already in use \\(ADMIN_PORT\\)\\. `),
    );
  });

  it('a PostgreSQL server that refuses connections', async () => {
    const port = await freePort();
    const line = await failedStart({
      DATABASE_URL: `postgres://gateway:s3cret-pw@127.0.0.1:${port}/gateway`,
    });
    expect(line).toBe(
      `Cannot start: PostgreSQL at 127.0.0.1:${port} refuses connections (DATABASE_URL). Start PostgreSQL there, or fix the host and port in DATABASE_URL.`,
    );
  });

  it.skipIf(pgUrl === undefined)(
    `a PostgreSQL database that does not exist${pgUrl === undefined ? ' (skipped, TEST_DATABASE_URL is not set)' : ''}`,
    async () => {
      const url = new URL(pgUrl ?? '');
      const name = `gateway_missing_${randomBytes(4).toString('hex')}`;
      url.pathname = `/${name}`;
      const line = await failedStart({ DATABASE_URL: url.toString() });
      const at = `${url.hostname}:${url.port === '' ? '5432' : url.port}`;
      expect(line).toMatch(
        new RegExp(
          `^Cannot start: PostgreSQL at ${at.replace(/\./g, '\\.')} has no database "${name}" \\(DATABASE_URL\\)\\. Create it \\(\`createdb `,
        ),
      );
      if (url.password !== '') expect(line).not.toContain(url.password);
    },
  );

  it('Redis unreachable at start: the process starts (an outage, as later), says what to check in one line, not ready', async () => {
    const port = await freePort();
    started = await startServer({
      ...sqlite(),
      REDIS_URL: `redis://:r3dis-pw@127.0.0.1:${port}`,
      CURSOR_SECRET: 'c'.repeat(32),
      ADMIN_TOKEN: 'admin-token-0123456789',
    });
    const [line] = await started.waitForOutput(/Redis at 127\.0\.0\.1:\d+ does not answer[^"]*/);
    expect(line).toBe(
      `Redis at 127.0.0.1:${port} does not answer (REDIS_URL): started with limits unmeasured and /readyz at 503 until it does. Start Redis there or fix REDIS_URL; for a single process, leave REDIS_URL unset to count limits in the process.`,
    );
    await started.waitUntilListening();
    expect(started.output()).not.toContain('r3dis-pw');
    expect((await http(started.adminPort, 'GET', '/readyz')).status).toBe(503);
    // The ticket API still answers (unmeasured), as in an outage that begins later.
    expect((await http(started.port, 'GET', '/v1/api-external-system/help-desk-ticket-options')).status).toBe(
      401,
    );
  });

  it('several bad variables: all named at once, one a line, no secret shown', async () => {
    started = await startServer({
      ...sqlite(),
      PORT: 'eighty',
      ADMIN_TOKEN: 'hunter2',
      REDIS_URL: 'http://:hunter2@cache:6379',
      LOG_LEVEL: 'loud',
    });
    expect(await started.exited).toBe(1);
    const output = started.output();
    expect(output).not.toContain('hunter2');
    expect(output.trim().split('\n')).toEqual([
      'Invalid configuration, 4 variables to fix:',
      '  PORT: must be a whole number (got "eighty")',
      '  REDIS_URL: must be a redis:// or rediss:// URL (got "http://:***@cache:6379")',
      '  ADMIN_TOKEN: must be at least 16 characters',
      expect.stringMatching(/^ {2}LOG_LEVEL: .*\(got "loud"\)$/),
    ]);
  });
});
