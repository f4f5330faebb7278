import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { http, startServer, type ServerProcess } from './support/server-process.js';

// The real entry point, as an operator starts it: a child process on real sockets.

describe('server entry (real sockets)', () => {
  let started: ServerProcess | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await started?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    started = undefined;
    dir = undefined;
  });

  it('first start: migrates, prints the demo key once with curl, serves it, and closes on SIGTERM', async () => {
    dir = mkdtempSync(join(tmpdir(), 'gateway-'));
    started = await startServer({ DATABASE_URL: `file:${join(dir, 'service.sqlite')}` });
    // The point-of-sale demo (200,000 receipts) is created before the listeners open, and the banner with
    // the keys printed once both listen: give a loaded 2-core CI machine time for it.
    const key = (await started.waitForOutput(/export TICKET_KEY=(gtes_[A-Za-z0-9_-]{43})\n/, 200_000))[1]!;
    expect(started.output()).toMatch(/Server listening at http:\/\/127\.0\.0\.1:\d+/);
    expect(started.output()).toContain(`curl -s -X POST`);

    // Sent in chunks without Content-Length (Transfer-Encoding: chunked).
    const created = await http(started.port, 'POST', '/v1/api-external-system/help-desk-ticket', {
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      chunks: [
        Buffer.from('{"external_id":"e2e-1","company":"acme",'),
        Buffer.from('"description":"From a real socket."}'),
      ],
    });
    expect(created.status).toBe(201);

    // 413 for a chunked body above 65,536 bytes, before the key (Errors, 413).
    const tooLarge = await http(started.port, 'POST', '/v1/api-external-system/help-desk-ticket', {
      headers: { 'content-type': 'application/json' },
      chunks: Array.from({ length: 9 }, () => Buffer.alloc(8192, 0x20)),
    });
    expect(tooLarge.status).toBe(413);
    expect(JSON.parse(tooLarge.text)).toMatchObject({ code: 'payload_too_large' });

    started.kill('SIGTERM');
    expect(await started.exited).toBe(0);
    expect(started.output()).toMatch(/closed/);
  }, 300_000);

  it('an invalid variable stops the start with a message naming it', async () => {
    started = await startServer({ PORT: 'eighty' });
    expect(await started.exited).toBe(1);
    expect(started.output()).toMatch(/Invalid configuration: PORT: /);
  });
});
