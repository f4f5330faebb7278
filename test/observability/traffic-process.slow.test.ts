import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { readTrafficCounts } from '../../src/observability/traffic-repository.js';
import { fleetEnv } from '../fleet/fleet-fixtures.js';
import { PING } from '../pos/fixtures.js';
import {
  createProcessDatabase,
  describeEachProcessDatabase,
  type ProcessDatabase,
} from '../support/process-database.js';
import { http, startServer, type ServerProcess } from '../support/server-process.js';

// The entry point starts the traffic flush and stops it at shutdown (docs/operations.md, Observability: Traffic by
// minute): the counts of a real process that lived less than one 15-second round are in the table once
// it has exited on SIGTERM, and the processes of a fleet on one PostgreSQL add up there.

describeEachProcessDatabase('traffic at shutdown (real process)', (kind) => {
  let database: ProcessDatabase | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await createProcessDatabase(kind);
  });
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.stop()));
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('SIGTERM writes the counts still in memory; on PostgreSQL two processes’ counts add up', async () => {
    // SQLite is served by one process (docs/operations.md, Running a fleet); PostgreSQL by a fleet.
    const processes = kind === 'postgres' ? 2 : 1;
    for (let i = 0; i < processes; i += 1) {
      const server = await startServer(fleetEnv(database!.url));
      servers.push(server);
      await server.waitUntilListening();
    }
    for (const server of servers) {
      expect((await http(server.port, 'GET', '/docs')).status).toBe(200);
      expect((await http(server.port, 'GET', '/docs')).status).toBe(200);
      expect((await http(server.port, 'GET', PING)).status).toBe(401);
      expect((await http(server.port, 'GET', '/nowhere')).status).toBe(404);
      expect((await http(server.adminPort, 'GET', '/healthz')).status).toBe(200);
    }
    for (const server of servers) server.kill('SIGTERM');
    for (const server of servers) expect(await server.exited).toBe(0);

    const db = database!.open();
    try {
      const sums: Record<string, number> = {};
      for (const row of await readTrafficCounts(db, 0, Number.MAX_SAFE_INTEGER)) {
        const name = `${row.api} ${row.outcome}`;
        sums[name] = (sums[name] ?? 0) + row.count;
      }
      expect(sums).toEqual({
        'docs answered': 2 * processes,
        'pos refused': processes,
        'other refused': processes,
        'admin answered': processes,
      });
    } finally {
      await db.destroy();
    }
  }, 60_000);
});
