import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import { createServices } from '../../src/services.js';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { http, startServer, type ServerProcess } from '../support/server-process.js';
import { runCli } from './cli-process.js';

// `partner-gateway demo credentials` end to end (docs/getting-started.md, The demo's credentials): the
// command against a real database, then the real server: the new keys work, the old ones get 401, the
// panel user signs in with the new password only, and the key audit trail records both rotations as the
// operator's on the command line. Without a demo it fails with exit 1 and changes nothing; in production
// it refuses.

const TOKEN = 'demo-credentials-admin-token-0123456789';
vi.setConfig({ testTimeout: 180_000 });

interface Issued {
  help_desk: { system: string; key: string } | null;
  pos: { account: string; key: string; panel: { email: string; password: string } | null } | null;
}

describeEachProcessDatabase('partner-gateway demo credentials', (kind) => {
  let database: ProcessDatabase | undefined;
  let empty: ProcessDatabase | undefined;
  let server: ServerProcess | undefined;
  let first: Issued;
  const local = () => ({ DATABASE_URL: database!.url, PANEL: 'true' });

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
    empty = await createProcessDatabase(kind);
    const demo = await runCli(['demo', '--receipts', '200', '--json'], local(), { timeoutMs: 300_000 });
    expect(demo.code, demo.stderr).toBe(0);
    first = demo.json();
    server = await startServer({ DATABASE_URL: database.url, ADMIN_TOKEN: TOKEN, DEMO: 'false' });
    await server.waitUntilListening();
  }, 360_000);

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    await empty?.drop();
  });

  const ticketStatus = async (key: string) =>
    (
      await http(server!.port, 'GET', '/v1/api-external-system/help-desk-ticket-options', {
        headers: { authorization: `Bearer ${key}` },
      })
    ).status;
  const posStatus = async (key: string) =>
    (await http(server!.port, 'GET', '/v1/api-public/ping', { headers: { authorization: `Bearer ${key}` } }))
      .status;

  it('new keys and password, the old ones stop at once; export lines; the audit trail says who', async () => {
    expect([await ticketStatus(first.help_desk!.key), await posStatus(first.pos!.key)]).toEqual([200, 200]);

    const human = await runCli(['demo', 'credentials'], local());
    expect(human.code, human.stderr).toBe(0);
    const ticket = /^export TICKET_KEY=(gtes_[A-Za-z0-9_-]{43})$/m.exec(human.stdout)?.[1];
    const pos = /^export POS_KEY=(gtpk_[A-Za-z0-9_-]{43})$/m.exec(human.stdout)?.[1];
    expect(human.stdout).toMatch(
      /^curl -s http:\/\/localhost:8080\/v1\/api-public\/ping -H "Authorization: Bearer \$POS_KEY"$/m,
    );
    expect(human.stdout).toMatch(/^# Merchant panel at .*: e-mail demo@example\.com password \S+$/m);
    expect(human.stderr).toMatch(/previous keys and password no longer work/);

    const json = await runCli(['demo', 'credentials', '--json'], local());
    expect(json.code, json.stderr).toBe(0);
    const second = json.json<Issued>();
    expect(second).toEqual({
      help_desk: { system: 'demo', key: expect.stringMatching(/^gtes_/) },
      pos: {
        account: 'demo',
        key: expect.stringMatching(/^gtpk_/),
        panel: { email: 'demo@example.com', password: expect.any(String) },
      },
    });
    // Through the real server: only the newest keys work; every earlier one is refused at once.
    expect([await ticketStatus(second.help_desk!.key), await posStatus(second.pos!.key)]).toEqual([200, 200]);
    for (const old of [first.help_desk!.key, ticket!]) expect(await ticketStatus(old)).toBe(401);
    for (const old of [first.pos!.key, pos!]) expect(await posStatus(old)).toBe(401);

    // The panel user: the newest password signs in, the first one no longer does.
    const db = openDatabase(loadConfig({ DATABASE_URL: database!.url }).database);
    const rateLimits = createMemoryRateLimitStore();
    try {
      const { merchantUsers } = createServices({
        db,
        rateLimits,
        config: loadConfig({ DATABASE_URL: database!.url }),
      });
      expect(
        await merchantUsers.authenticate('demo@example.com', second.pos!.panel!.password),
      ).not.toBeNull();
      expect(await merchantUsers.authenticate('demo@example.com', first.pos!.panel!.password)).toBeNull();
    } finally {
      await rateLimits.close();
      await db.destroy();
    }

    // The key audit trail: two rotations of each key, by the operator on the command line.
    const audit = async (path: string) => {
      const answer = await http(server!.adminPort, 'GET', path, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(answer.status, answer.text).toBe(200);
      return (
        JSON.parse(answer.text) as { data: { event: string; actor: { role: string; channel: string } }[] }
      ).data;
    };
    for (const path of ['/admin/v1/helpdesk/systems/demo/audit', '/admin/v1/pos/accounts/demo/audit']) {
      const rotations = (await audit(path)).filter((event) => event.event === 'rotated');
      expect(
        rotations.map((event) => event.actor),
        path,
      ).toEqual([
        expect.objectContaining({ role: 'operator', channel: 'cli' }),
        expect.objectContaining({ role: 'operator', channel: 'cli' }),
      ]);
    }
  });

  it('no demo: exit 1 naming how to create it; production: refused; neither changes a key', async () => {
    const none = await runCli(['demo', 'credentials', '--json'], { DATABASE_URL: empty!.url });
    expect([none.code, none.json()]).toEqual([1, { error: 'no_demo' }]);
    expect(none.stderr).toMatch(/holds no demo .*create it with `partner-gateway demo`/);

    const before = await runCli(['demo', 'credentials', '--json'], local());
    const current = before.json<Issued>();
    const production = await runCli(['demo', 'credentials', '--json'], {
      ...local(),
      NODE_ENV: 'production',
      CURSOR_SECRET: 'c'.repeat(40),
    });
    expect([production.code, production.json()]).toEqual([1, { error: 'production' }]);
    expect(production.stdout).not.toMatch(/gtes_|gtpk_/);
    expect([await ticketStatus(current.help_desk!.key), await posStatus(current.pos!.key)]).toEqual([
      200, 200,
    ]);
  });
});
