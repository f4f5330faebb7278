import { randomBytes } from 'node:crypto';
import { FLEET_ADMIN_TOKEN, fleetEnv } from '../test/fleet/fleet-fixtures.js';
import { createProcessDatabase } from '../test/support/process-database.js';
import { adminCall, freePort, http, startServer } from '../test/support/server-process.js';

// `npx tsx bench/store-round-trips.ts` (needs TEST_REDIS_URL or BENCH_REDIS_URL; part of `npm run bench`
// when one is set): how many operations of the rate-limit store one POS call costs, read from the
// service's own metrics (`rate_limit_store_duration_seconds_count`, by operation) around a fixed number
// of pings with a right key. With Redis each operation is one round trip, a cost that the machine's load
// does not change, unlike the ping's rate against the in-process store.

const CALLS = 40; // under the key's 60 calls a minute: every call is a 200

/** The store operations counted so far, by operation, from the admin listener's /metrics. */
async function storeOperations(adminPort: number): Promise<Map<string, number>> {
  const response = await adminCall(adminPort, FLEET_ADMIN_TOKEN, 'GET', '/metrics');
  if (response.status !== 200) throw new Error(`metrics: ${response.status}`);
  const counts = new Map<string, number>();
  for (const match of response.text.matchAll(
    /^rate_limit_store_duration_seconds_count\{[^}]*operation="([^"]+)"[^}]*\} (\d+)/gm,
  )) {
    counts.set(match[1] ?? '', (counts.get(match[1] ?? '') ?? 0) + Number(match[2]));
  }
  return counts;
}

/** Store operations per POS ping through a server process on `redisUrl`, by operation. */
export async function storeOperationsPerPing(redisUrl: string): Promise<Map<string, number>> {
  const database = await createProcessDatabase('sqlite');
  const server = await startServer(
    fleetEnv(database.url, {
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: `bench-trips:${randomBytes(4).toString('hex')}:`,
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
    }),
  );
  try {
    await server.waitUntilListening();
    const admin = (method: string, path: string, body: unknown) =>
      adminCall(server.adminPort, FLEET_ADMIN_TOKEN, method, path, body);
    await admin('PUT', '/admin/v1/pos/accounts/trips', { name: 'Round trips' });
    const created = await admin('POST', '/admin/v1/pos/accounts/trips/keys', {
      name: 'trips',
      permissions: ['event.view'],
    });
    const key = (created.json as { key: string }).key;
    const before = await storeOperations(server.adminPort);
    for (let i = 0; i < CALLS; i += 1) {
      const response = await http(server.port, 'GET', '/v1/api-public/ping', {
        headers: { authorization: `Bearer ${key}` },
      });
      if (response.status !== 200) throw new Error(`ping: ${response.status} ${response.text}`);
    }
    const after = await storeOperations(server.adminPort);
    const perCall = new Map<string, number>();
    for (const [operation, count] of after) {
      const spent = (count - (before.get(operation) ?? 0)) / CALLS;
      if (spent > 0) perCall.set(operation, spent);
    }
    return perCall;
  } finally {
    await server.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const redisUrl = process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL;
  if (redisUrl === undefined) throw new Error('set TEST_REDIS_URL (or BENCH_REDIS_URL)');
  const perCall = await storeOperationsPerPing(redisUrl);
  const total = [...perCall.values()].reduce((sum, n) => sum + n, 0);
  console.log(`rate-limit store operations per POS ping (${CALLS} pings, right key, Redis):`);
  for (const [operation, n] of perCall) console.log(`  ${operation.padEnd(14)} ${n.toFixed(2)}`);
  console.log(`  ${'total'.padEnd(14)} ${total.toFixed(2)}`);
}
