import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// The real entry point, as an operator starts it: a child process on real sockets.

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Started {
  const child = spawn(TSX, ['src/server.ts'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  return { child, output: () => text, exited };
}

async function waitFor(started: Started, pattern: RegExp, ms = 20_000): Promise<RegExpMatchArray> {
  const deadline = Date.now() + ms;
  for (;;) {
    const match = pattern.exec(started.output());
    if (match !== null) return match;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${String(pattern)}; output:\n${started.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends a body in chunks without Content-Length (Transfer-Encoding: chunked). */
function postChunked(port: number, path: string, headers: Record<string, string>, chunks: Buffer[]) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method: 'POST', headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
        });
      });
      req.on('error', reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    },
  );
}

describe('server entry (real sockets)', () => {
  let started: Started | undefined;
  let dir: string | undefined;
  afterEach(() => {
    started?.child.kill('SIGKILL');
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    started = undefined;
    dir = undefined;
  });

  it('first start: migrates, prints the demo key once with curl, serves it, and closes on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const [port, adminPort] = [await freePort(), await freePort()];
    started = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_PORT: String(adminPort),
      DATABASE_URL: `file:${join(dir, 'service.sqlite')}`,
    });
    const key = (await waitFor(started, /(gtes_[A-Za-z0-9_-]{43})/))[1]!;
    await waitFor(started, /Server listening at http:\/\/127\.0\.0\.1:\d+/);
    expect(started.output()).toContain(`curl -s -X POST`);

    const created = await postChunked(
      port,
      '/v1/api-external-system/help-desk-ticket',
      { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      [
        Buffer.from('{"external_id":"e2e-1","company":"acme",'),
        Buffer.from('"description":"From a real socket."}'),
      ],
    );
    expect(created.status).toBe(201);

    // 413 for a chunked body above 65,536 bytes, before the key (Errors, 413).
    const tooLarge = await postChunked(
      port,
      '/v1/api-external-system/help-desk-ticket',
      { 'content-type': 'application/json' },
      Array.from({ length: 9 }, () => Buffer.alloc(8192, 0x20)),
    );
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.body)).toMatchObject({ code: 'payload_too_large' });

    started.child.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.output()).toMatch(/closed/);
  });

  it('an invalid variable stops the start with a message naming it', async () => {
    started = start({ PORT: 'eighty' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/Invalid configuration: PORT: /);
  });
});
