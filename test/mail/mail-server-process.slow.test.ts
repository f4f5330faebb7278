import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, startServer, type ServerProcess } from '../support/server-process.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

// The e-mail sender as the operator runs it (docs/back-office.md, E-mail to merchants): started with the server, it
// delivers over SMTP_URL, or without it writes the message to the log; it stops at the shutdown, which
// still exits 0.

const TOKEN = 'mail-process-admin-token-0123';
const POS = '/admin/v1/pos';

describe('e-mail sender in the server process (real sockets)', () => {
  let sink: SmtpSink;
  let started: ServerProcess | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.stop();
  });
  afterEach(async () => {
    await started?.stop();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    started = undefined;
    dir = undefined;
  });

  /** A server on a new SQLite file, without demo, with an account that has an address. */
  async function serve(env: Record<string, string>): Promise<ServerProcess> {
    dir = mkdtempSync(join(tmpdir(), 'gateway-mail-'));
    const server = await startServer({
      DATABASE_URL: `file:${join(dir, 'service.sqlite')}`,
      DEMO: 'false',
      ADMIN_TOKEN: TOKEN,
      ...env,
    });
    started = server;
    await server.waitUntilListening({ ms: 60_000 });
    const put = await adminCall(server.adminPort, TOKEN, 'PUT', `${POS}/accounts/acme`, {
      name: 'Acme Bares',
      email: 'financeiro@acme.example',
    });
    expect(put.status).toBe(201);
    return server;
  }

  async function createKey(server: ServerProcess): Promise<{ id: string; key: string }> {
    const created = await adminCall(server.adminPort, TOKEN, 'POST', `${POS}/accounts/acme/keys`, {
      name: 'ERP',
    });
    expect(created.status).toBe(201);
    return created.json as { id: string; key: string };
  }

  it('with SMTP_URL: a created key’s message arrives within a poll, and SIGTERM still exits 0', async () => {
    const server = await serve({ SMTP_URL: sink.url });
    await server.waitForOutput(/e-mail sender started/);
    const created = await createKey(server);
    const [mail] = await sink.waitFor(1, 15_000);
    expect(mail?.subject).toBe('Nova chave de API criada: ERP');
    expect(mail?.text).toContain(created.id);
    expect(mail?.raw).not.toContain(created.key);
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(sink.received).toHaveLength(1);
    expect(server.output()).not.toContain(created.key);
  }, 90_000);

  it('without SMTP_URL: the start says so and the message is written to the log, without the key', async () => {
    const server = await serve({});
    await server.waitForOutput(/SMTP_URL is not set: e-mail to merchants is written to this log/);
    const created = await createKey(server);
    await server.waitForOutput(/e-mail not sent \(SMTP_URL is not set\); written here instead/, 15_000);
    expect(server.output()).toContain('Nova chave de API criada: ERP');
    expect(server.output()).toContain(created.id);
    expect(server.output()).not.toContain(created.key);
    server.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  }, 90_000);
});
