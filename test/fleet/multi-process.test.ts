import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { OPTIONS_URL, seedHelpdesk, ticket, TICKET_URL, type Keys } from '../helpdesk/fixtures.js';
import { redisUrl, type AdminClient } from '../helper.js';
import { SALES_URL, seedPos } from '../pos/fixtures.js';
import {
  adminCall,
  http,
  startServer,
  type HttpResponse,
  type ServerProcess,
} from '../support/server-process.js';
import { createProcessDatabase, postgresTestUrl, type ProcessDatabase } from '../support/process-database.js';
import { timeUntil } from '../support/timing.js';
import { FLEET_ADMIN_TOKEN, fleetEnv } from './fleet-fixtures.js';

// Two server processes on one PostgreSQL database and one Redis, as behind a load balancer (issue "Run as
// a fleet"; docs/ticket-api.md, Limits: "All servers using the system's key … spend the same
// balance"; docs/pos-api.md, Limits; docs/api-conventions.md). Each test speaks for its own client IPs
// through X-Forwarded-For, which the processes believe from 127.0.0.1 (TRUST_PROXY), as from a balancer.

const skipped = postgresTestUrl === undefined || redisUrl === undefined;
const ACCOUNTS = '/admin/v1/pos/accounts';

describe.skipIf(skipped)(
  `two processes, one database, one Redis [postgres + redis${
    skipped ? ': skipped, TEST_DATABASE_URL and TEST_REDIS_URL must be set' : ''
  }]`,
  () => {
    const keyPrefix = `test:fleet:${randomBytes(6).toString('hex')}:`;
    let database: ProcessDatabase;
    let db: Db;
    let redis: Redis;
    let processes: [ServerProcess, ServerProcess];
    let keys: Keys;
    let pos: { id: string; key: string };

    /** The operator, through the first process's admin API. */
    const operator: AdminClient = {
      async admin(method, url, body) {
        const response = await adminCall(
          processes[0].adminPort,
          FLEET_ADMIN_TOKEN,
          String(method),
          url,
          body,
        );
        if (response.status >= 300) throw new Error(`admin ${String(method)} ${url}: ${response.text}`);
        return { statusCode: response.status, body: response.text };
      },
    };

    /** A public call to one process, from a client IP of the test's choosing. */
    const call = (
      server: ServerProcess,
      method: string,
      path: string,
      options: { key: string; ip: string; body?: unknown },
    ): Promise<HttpResponse> =>
      http(server.port, method, path, {
        headers: { authorization: `Bearer ${options.key}`, 'x-forwarded-for': options.ip },
        body: options.body,
      });

    beforeAll(async () => {
      database = await createProcessDatabase('postgres');
      db = database.open();
      redis = new Redis(redisUrl ?? '');
      const env = fleetEnv(database.url, {
        NODE_ENV: 'production',
        REDIS_URL: redisUrl ?? '',
        REDIS_KEY_PREFIX: keyPrefix,
        TRUST_PROXY: '127.0.0.1',
      });
      // Both start at once on an empty database: the migrations must not trip over each other.
      processes = await Promise.all([startServer(env), startServer(env)]);
      await Promise.all(processes.map((server) => server.waitUntilListening({ ms: 30_000 })));
      keys = await seedHelpdesk(operator);
      pos = await seedPos(operator);
    }, 60_000);

    afterAll(async () => {
      await Promise.all((processes as ServerProcess[] | undefined)?.map((server) => server.stop()) ?? []);
      const stale = await redis.keys(`${keyPrefix}*`);
      if (stale.length > 0) await redis.unlink(...stale);
      redis.disconnect();
      await db.destroy();
      await database.drop();
    }, 30_000);

    it('one balance: a system limited to 10 a minute gets exactly 10 calls through both processes together', async () => {
      await operator.admin('PUT', '/admin/v1/helpdesk/systems/shared', {
        name: 'Shared balance',
        rate_limit_per_minute: 10,
        default_category_id: 30,
      });
      const rotated = await operator.admin('POST', '/admin/v1/helpdesk/systems/shared/keys/rotate');
      const key = (JSON.parse(rotated.body) as { key: string }).key;
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          call(processes[i % 2 === 0 ? 0 : 1], 'POST', TICKET_URL, {
            key,
            ip: '198.51.100.1',
            body: ticket({ external_id: `shared-${i}` }),
          }),
        ),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses).toEqual([...Array<number>(10).fill(201), ...Array<number>(6).fill(429)]);
      // Each admitted call saw the balance the other process had spent too: 9, 8, …, 0, once each.
      const remaining = responses
        .filter((response) => response.status === 201)
        .map((response) => Number(response.headers['x-ratelimit-remaining']))
        .sort((a, b) => a - b);
      expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('one external_id sent to both processes at once makes one ticket: one 201, one 200', async () => {
      for (let round = 0; round < 10; round += 1) {
        const body = ticket({ external_id: `both-${round}` });
        const answers = await Promise.all(
          processes.map((server) =>
            call(server, 'POST', TICKET_URL, { key: keys.beta, ip: '198.51.100.2', body }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 201]);
      }
      const rows = await db
        .selectFrom('hd_tickets')
        .select(({ fn }) => ['external_id', fn.countAll<number>().as('copies')])
        .where('external_id', 'like', 'both-%')
        .groupBy('external_id')
        .execute();
      expect(rows).toHaveLength(10);
      for (const row of rows) expect(row.copies, row.external_id).toBe(1);
    });

    it('a third concurrent sales query of one account is refused whichever process gets it (2 in progress per account)', async () => {
      const leases = `${keyPrefix}pos:sales:{acme}`;
      const sales = (server: ServerProcess) =>
        call(server, 'GET', SALES_URL, { key: pos.key, ip: '198.51.100.3' });
      // The tables sales are read from locked: both first queries wait inside the database, holding their
      // places.
      const results = await db.transaction().execute(async (trx) => {
        await sql`lock table pos_receipts, pos_sales_buckets in access exclusive mode`.execute(trx);
        const running = [sales(processes[0]), sales(processes[1])];
        await timeUntil(async () => (await redis.zcard(leases)) === 2, 10_000);
        const third = await Promise.all([sales(processes[0]), sales(processes[1])]);
        return { running, third };
      });
      for (const refused of results.third) {
        expect(refused.status, refused.text).toBe(429);
        expect((refused.json as { code: string }).code).toBe('rate_limited');
        expect(refused.headers['retry-after']).toBe('5');
      }
      for (const answer of await Promise.all(results.running)) expect(answer.status, answer.text).toBe(200);
      expect(await redis.zcard(leases)).toBe(0);
    });

    it('a POS key rotated through one process is honoured by the other at once; a revocation too', async () => {
      const rotated = await adminCall(
        processes[0].adminPort,
        FLEET_ADMIN_TOKEN,
        'POST',
        `${ACCOUNTS}/acme/keys/${pos.id}/rotate`,
        {},
      );
      expect(rotated.status, rotated.text).toBe(201);
      const newKey = (rotated.json as { key: string }).key;
      const ping = (key: string) =>
        call(processes[1], 'GET', '/v1/api-public/ping', { key, ip: '198.51.100.4' });
      expect((await ping(newKey)).status).toBe(200);
      const previous = await ping(pos.key);
      expect(previous.status).toBe(200);
      expect(previous.headers.deprecation).toBeDefined();
      await operator.admin('POST', `${ACCOUNTS}/acme/keys/${pos.id}/revoke`);
      const revoked = await ping(newKey);
      expect(revoked.status).toBe(401);
      expect((revoked.json as { code: string }).code).toBe('invalid_token');
    });

    it('a help-desk key rotated through one process works on the other at once; stop-previous too', async () => {
      const rotated = await operator.admin('POST', '/admin/v1/helpdesk/systems/gamma/keys/rotate');
      const newKey = (JSON.parse(rotated.body) as { key: string }).key;
      const options = (key: string) =>
        call(processes[1], 'OPTIONS', '/v1/api-external-system/lead', { key, ip: '198.51.100.5' });
      expect((await options(newKey)).status).toBe(200);
      expect((await options(keys.gamma)).status).toBe(200);
      await operator.admin('POST', '/admin/v1/helpdesk/systems/gamma/keys/stop-previous');
      expect((await options(keys.gamma)).status).toBe(401);
      expect((await options(newKey)).status).toBe(200);
    });

    it('the IP block holds whichever process the next call lands on', async () => {
      const ip = '198.51.100.6';
      const wrong = `gtes_${'x'.repeat(43)}`;
      for (let i = 0; i < 20; i += 1) {
        const refused = await call(processes[i % 2 === 0 ? 0 : 1], 'GET', OPTIONS_URL, { key: wrong, ip });
        expect(refused.status).toBe(401);
      }
      for (const server of processes) {
        const blocked = await call(server, 'GET', OPTIONS_URL, { key: keys.alpha, ip });
        expect(blocked.status).toBe(429);
        expect(blocked.headers['x-ratelimit-limit']).toBeUndefined();
      }
      // Another client of the same balancer is not blocked.
      expect(
        (await call(processes[1], 'GET', OPTIONS_URL, { key: keys.alpha, ip: '198.51.100.7' })).status,
      ).toBe(200);
    });

    it('the maintenance switch flipped through one process reaches the other within a second', async () => {
      const options = () => call(processes[1], 'GET', OPTIONS_URL, { key: keys.alpha, ip: '198.51.100.8' });
      expect((await options()).status).toBe(200);
      await operator.admin('PUT', '/admin/v1/helpdesk/maintenance', {
        enabled: true,
        retry_after_seconds: 120,
      });
      try {
        const took = await timeUntil(async () => (await options()).status === 503, 3000);
        expect(took).toBeLessThanOrEqual(1500);
      } finally {
        await operator.admin('PUT', '/admin/v1/helpdesk/maintenance', { enabled: false });
      }
      await timeUntil(async () => (await options()).status === 200, 3000);
    });

    it("a catalog change through one process shows in the other's ticket options within a second", async () => {
      await operator.admin('PUT', '/admin/v1/helpdesk/categories/30', {
        name: 'Novo usuário (renomeada)',
        type_id: 3,
        default_priority_id: 4,
      });
      const took = await timeUntil(async () => {
        const answer = await call(processes[1], 'GET', OPTIONS_URL, { key: keys.alpha, ip: '198.51.100.9' });
        return answer.text.includes('Novo usuário (renomeada)');
      }, 3000);
      expect(took).toBeLessThanOrEqual(1500);
    });
  },
);
