import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onSession, openDatabase, type Db } from '../../src/db/database.js';
import { withQueryTimeout } from '../../src/db/query-timeout.js';
import { dialects } from '../helper.js';

// PostgreSQL pools whose connections hold settings for their whole session (src/db/database.ts,
// `onSession`): what the reads with a time limit run on, in one round trip each (docs/operations.md,
// Connection poolers).

const postgres = dialects.find((dialect) => dialect.name === 'postgres')!;

const setting = async (db: Db, name: string) =>
  (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(db)).rows[0]?.value;

/**
 * A proxy to PostgreSQL that drops the `options` parameter from each connection's startup message, as a
 * connection pooler told to ignore it does (PgBouncer's `ignore_startup_parameters = options`).
 */
async function optionsDroppingProxy(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    const onStartup = (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      if (pending.length < 4 || pending.length < pending.readInt32BE(0)) return;
      client.off('data', onStartup);
      const length = pending.readInt32BE(0);
      const fields = pending
        .subarray(8, length - 1)
        .toString('utf8')
        .split('\0');
      const kept: string[] = [];
      for (let i = 0; i + 1 < fields.length; i += 2)
        if (fields[i] !== 'options') kept.push(fields[i]!, fields[i + 1]!);
      const body = Buffer.from(`${kept.join('\0')}\0\0`, 'utf8');
      const head = Buffer.alloc(8);
      head.writeInt32BE(8 + body.length, 0);
      pending.copy(head, 4, 4, 8);
      upstream.write(Buffer.concat([head, body, pending.subarray(length)]));
      client.pipe(upstream);
      upstream.pipe(client);
    };
    client.on('data', onStartup);
    for (const socket of [client, upstream]) socket.on('error', () => undefined);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'PostgreSQL: pools whose sessions hold settings',
  () => {
    it("are opened once for each set of settings, beside the database's pool, and closed with it", async () => {
      const opened = await postgres.open();
      const { url, searchPath } = opened.connection!;
      const db = openDatabase({ kind: 'postgres', url }, { searchPath, poolSize: 1 });
      try {
        const limited = onSession(db, { statement_timeout: 1234 });
        expect(limited).not.toBe(db);
        expect(onSession(db, { statement_timeout: 1234 })).toBe(limited);
        // Asked of a pool that already holds them, the pool itself.
        expect(onSession(limited, { statement_timeout: 1234 })).toBe(limited);
        expect(await setting(limited, 'statement_timeout')).toBe('1234ms');
        expect(await setting(limited, 'search_path')).toBe(searchPath);
        // More settings asked of it: a pool holding its own and those.
        const planned = onSession(limited, { max_parallel_workers_per_gather: 0 });
        expect(planned).not.toBe(limited);
        expect(await setting(planned, 'statement_timeout')).toBe('1234ms');
        expect(await setting(planned, 'max_parallel_workers_per_gather')).toBe('0');
        expect(onSession(db, { max_parallel_workers_per_gather: 0, statement_timeout: 1234 })).toBe(planned);
        expect(await setting(db, 'statement_timeout')).toBe('0');
        expect(() => onSession(db, { 'statement_timeout; drop table settings': 1 })).toThrow(
          'not a session setting',
        );
        await db.destroy();
        await expect(setting(limited, 'statement_timeout')).rejects.toThrow();
        await expect(setting(planned, 'statement_timeout')).rejects.toThrow();
      } finally {
        await db.destroy();
        await opened.drop();
      }
    });

    it('refuse to run a query on a session that does not hold its settings (a pooler dropped them): the query fails, never runs without its time limit', async () => {
      const proxy = await optionsDroppingProxy(new URL(process.env.TEST_DATABASE_URL!));
      const db = openDatabase({ kind: 'postgres', url: proxy.url }, { poolSize: 1 });
      try {
        // The database's own pool asks for nothing, and works through the proxy.
        expect(await setting(db, 'statement_timeout')).toBe('0');
        for (let i = 0; i < 2; i++) {
          // Each try opens a new connection: the one that failed its check is discarded, not reused.
          await expect(
            withQueryTimeout(db, 1234, (limited) => sql`select pg_sleep(0.2)`.execute(limited)),
          ).rejects.toThrow('the database session does not hold statement_timeout = 1234');
        }
      } finally {
        await db.destroy();
        await proxy.close();
      }
    });
  },
);
