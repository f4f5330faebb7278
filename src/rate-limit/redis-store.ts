import { randomUUID } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import type { LeaseAcquire, MultiWindowTake, RateLimitStore, WindowTake } from './rate-limit-store.js';

/** How to reach the Redis that a fleet of processes shares its limits through. */
export interface RedisStoreOptions {
  /** The server: `redis://…`, or `rediss://…` for TLS (credentials and database number included). */
  url: string;
  /** Prepended to every key, so that several services or test runs can share one Redis. */
  keyPrefix: string;
  /** A command not answered within this fails, so that a hung Redis never holds a request. */
  commandTimeoutMs: number;
  /** Where outages and recoveries are reported (a pino logger fits). */
  log?: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

/** How long a connection attempt may take before it counts as failed. */
const CONNECT_TIMEOUT_MS = 1000;
/**
 * The longest pause between reconnection attempts: the store tries again for ever, so it is measuring
 * again within about this long after Redis returns.
 */
const MAX_RECONNECT_DELAY_MS = 500;

// The scripts, one per operation, follow the mapping described on RateLimitStore. Each runs whole on the
// server, so no other client's command falls between its read and its write: that is what keeps a fleet
// from overspending a balance. Times and limits come in ARGV as the caller's numbers; scores come back
// as Redis prints them (full precision), and the arithmetic on them is done in TypeScript, exactly as the
// in-process store does it.

/** KEYS: the window. ARGV: limit, now − windowMs, now, call id, TTL. */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
  count = count + 1
  allowed = 1
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2] or ARGV[3]
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return { allowed, count, oldest }
`;

/** KEYS: the windows. ARGV: now − windowMs, now, call id, TTL, then one limit per key. */
const TAKE_ALL = `
local counts = {}
local allowed = 1
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', ARGV[1])
  counts[i] = redis.call('ZCARD', KEYS[i])
  if counts[i] >= tonumber(ARGV[4 + i]) then allowed = 0 end
end
local result = { allowed }
for i = 1, #KEYS do
  local room = 0
  if counts[i] < tonumber(ARGV[4 + i]) then room = 1 end
  if allowed == 1 then
    redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
    counts[i] = counts[i] + 1
  end
  local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')[2] or ARGV[2]
  redis.call('PEXPIRE', KEYS[i], ARGV[4])
  table.insert(result, room)
  table.insert(result, counts[i])
  table.insert(result, oldest)
end
return result
`;

/**
 * KEYS: the list. ARGV: limit, now − windowMs, now, TTL. With no room at all (limit 0) nothing is kept,
 * as in the in-process store.
 */
const HIT = `
local limit = tonumber(ARGV[1])
if limit <= 0 then
  redis.call('DEL', KEYS[1])
  return { 0, 0, ARGV[3] }
end
local cutoff = tonumber(ARGV[2])
while true do
  local last = redis.call('LINDEX', KEYS[1], -1)
  if not last or tonumber(last) > cutoff then break end
  redis.call('RPOP', KEYS[1])
end
local allowed = 0
if not redis.call('LINDEX', KEYS[1], limit - 1) then allowed = 1 end
redis.call('LPUSH', KEYS[1], ARGV[3])
redis.call('LTRIM', KEYS[1], 0, limit - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { allowed, redis.call('LLEN', KEYS[1]), redis.call('LINDEX', KEYS[1], -1) }
`;

/** KEYS: the window. ARGV: now − windowMs, now, call id, TTL. */
const ADD = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
local count = redis.call('ZCARD', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return count
`;

/**
 * KEYS: the window. ARGV: threshold, now − windowMs, TTL. Returns { 0 } below the threshold, else
 * { 1, score of the call whose leaving brings the count below it } ({ 1 } alone when there is none).
 */
const WAIT_BELOW = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[2])
local threshold = tonumber(ARGV[1])
local count = redis.call('ZCARD', KEYS[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if count < threshold then return { 0 } end
if threshold <= 0 then return { 1 } end
return { 1, redis.call('ZRANGE', KEYS[1], -threshold, -threshold, 'WITHSCORES')[2] }
`;

/** KEYS: the lease set. ARGV: now, limit, now + leaseMs, token. Returns { acquired, held }. */
const ACQUIRE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local held = redis.call('ZCARD', KEYS[1])
if held >= tonumber(ARGV[2]) then return { 0, held } end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
local latest = tonumber(redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2])
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(latest - tonumber(ARGV[1]))))
return { 1, held + 1 }
`;

/**
 * KEYS: the lease set. ARGV: token, keepUntil ('' for none), TTL of a new key. A kept lease lengthens
 * the key's remaining life by as much as it outlives the latest lease, so the key never expires before
 * any of its leases, whatever the offset between the callers' clocks and the server's.
 */
const RELEASE = `
if ARGV[2] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return 0
end
local keepUntil = tonumber(ARGV[2])
local latest = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')[2]
local remaining = redis.call('PTTL', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local ttl = tonumber(ARGV[3])
if latest and remaining > 0 then
  ttl = math.max(ttl, remaining + math.max(0, keepUntil - tonumber(latest)))
end
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil(ttl)))
return 0
`;

type Script = (...args: (string | number)[]) => Promise<unknown>;

/**
 * Registers `lua` on the client: sent by SHA, and in full whenever the server does not know it (a new
 * connection, a restarted Redis, SCRIPT FLUSH). The client prefixes its KEYS like any other key.
 */
function defineScript(client: Redis, name: string, lua: string, numberOfKeys?: number): Script {
  client.defineCommand(name, numberOfKeys === undefined ? { lua } : { lua, numberOfKeys });
  const command: unknown = Reflect.get(client, name);
  if (typeof command !== 'function') throw new Error(`the Redis client did not define ${name}`);
  return (...args) => (command as Script).apply(client, args);
}

function replyList(reply: unknown): unknown[] {
  if (!Array.isArray(reply)) throw new Error('unexpected reply from Redis');
  return reply;
}

function replyInteger(reply: unknown): number {
  if (typeof reply !== 'number') throw new Error('unexpected reply from Redis');
  return reply;
}

function replyScore(reply: unknown): number {
  const value = typeof reply === 'string' ? Number(reply) : Number.NaN;
  if (Number.isNaN(value)) throw new Error('unexpected reply from Redis');
  return value;
}

function windowTake(allowed: unknown, count: unknown, oldestAt: unknown): WindowTake {
  return { allowed: replyInteger(allowed) === 1, count: replyInteger(count), oldestAt: replyScore(oldestAt) };
}

/** A PEXPIRE in whole milliseconds, at least 1. */
function ttl(ms: number): number {
  return Math.max(1, Math.ceil(ms));
}

/**
 * Connects the RateLimitStore that a fleet shares, on Redis. Never throws because Redis is unreachable:
 * it resolves once the first connection is ready or has failed, so the service starts and serves
 * unmeasured, and the client reconnects by itself. While Redis is unreachable or silent, every operation
 * fails at once or after `commandTimeoutMs`, never waits for a connection, and is never replayed later
 * (a replayed `take` would spend a balance for a call already answered).
 */
export async function connectRedisRateLimitStore(options: RedisStoreOptions): Promise<RateLimitStore> {
  const client = await openClient(options);
  return redisRateLimitStore(client, defineScripts(client, options.log));
}

/** The client, its outage reporting, and the wait for its first connection to be ready or to fail. */
async function openClient(options: RedisStoreOptions): Promise<Redis> {
  const { log, commandTimeoutMs } = options;
  const client = new Redis(options.url, {
    keyPrefix: options.keyPrefix,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    // A connection that stays silent while commands wait is dead (a host gone without a reset): drop it
    // and reconnect, rather than let every command time out until TCP gives up minutes later.
    socketTimeout: Math.max(2 * commandTimeoutMs, CONNECT_TIMEOUT_MS),
    // Fail fast: no queue while disconnected, commands in flight fail when the connection drops.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => Math.min(50 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
    // A failed-over primary turned replica answers READONLY: reconnect to find the new primary.
    reconnectOnError: (error) => error.message.startsWith('READONLY'),
  });

  // Without a listener an 'error' event would crash the process. One warning per outage, not one per
  // reconnection attempt.
  let outage = false;
  client.on('error', (error: Error) => {
    if (outage) return;
    outage = true;
    log?.warn({ err: error }, 'Redis rate-limit store unreachable: limits go unmeasured until it answers');
  });
  client.on('ready', () => {
    if (!outage) return;
    outage = false;
    log?.info({}, 'Redis rate-limit store reachable again: limits are measured');
  });

  await new Promise<void>((resolve) => {
    const settle = () => {
      clearTimeout(timer);
      client.off('ready', settle);
      client.off('error', settle);
      client.off('end', settle);
      resolve();
    };
    // The connection, then the handshake (bounded by the command timeout).
    const timer = setTimeout(settle, CONNECT_TIMEOUT_MS + commandTimeoutMs);
    client.on('ready', settle);
    client.on('error', settle);
    client.on('end', settle);
  });
  return client;
}

/** The store's Lua scripts, each reporting Redis's own command errors. */
function defineScripts(client: Redis, log: RedisStoreOptions['log']) {
  // Redis answering a command with an error is not an outage (the 'error' listener reports those) but a
  // fault of its own, such as a key of another type under the same name: the callers then go on
  // unmeasured, so it is logged, at most once a minute, for the operator to see.
  let lastCommandWarning = Number.NEGATIVE_INFINITY;
  const reported =
    (script: Script): Script =>
    async (...args) => {
      try {
        return await script(...args);
      } catch (error) {
        if (error instanceof ReplyError && Date.now() - lastCommandWarning >= 60_000) {
          lastCommandWarning = Date.now();
          log?.warn({ err: error }, 'Redis rate-limit command failed: the call goes on unmeasured');
        }
        throw error;
      }
    };
  const define = (name: string, lua: string, numberOfKeys?: number) =>
    reported(defineScript(client, name, lua, numberOfKeys));

  return {
    take: define('rateLimitTake', TAKE, 1),
    takeAll: define('rateLimitTakeAll', TAKE_ALL),
    hit: define('rateLimitHit', HIT, 1),
    add: define('rateLimitAdd', ADD, 1),
    waitBelow: define('rateLimitWaitBelow', WAIT_BELOW, 1),
    acquire: define('rateLimitAcquire', ACQUIRE, 1),
    release: define('rateLimitRelease', RELEASE, 1),
  };
}

/** The RateLimitStore over a connected client and its scripts. */
function redisRateLimitStore(client: Redis, scripts: ReturnType<typeof defineScripts>): RateLimitStore {
  return {
    async take(key, limit, windowMs, now) {
      const [allowed, count, oldestAt] = replyList(
        await scripts.take(key, limit, now - windowMs, now, `${now}:${randomUUID()}`, ttl(windowMs)),
      );
      return windowTake(allowed, count, oldestAt);
    },
    async takeAll(limits, windowMs, now): Promise<MultiWindowTake> {
      const keys = limits.map((window) => window.key);
      if (new Set(keys).size !== keys.length) throw new Error('takeAll needs distinct keys');
      const reply = replyList(
        await scripts.takeAll(
          keys.length,
          ...keys,
          now - windowMs,
          now,
          `${now}:${randomUUID()}`,
          ttl(windowMs),
          ...limits.map((window) => window.limit),
        ),
      );
      return {
        allowed: replyInteger(reply[0]) === 1,
        windows: limits.map((_, i) => windowTake(reply[1 + 3 * i], reply[2 + 3 * i], reply[3 + 3 * i])),
      };
    },
    async hit(key, limit, windowMs, now) {
      const [allowed, count, oldestAt] = replyList(
        await scripts.hit(key, limit, now - windowMs, now, ttl(windowMs)),
      );
      return windowTake(allowed, count, oldestAt);
    },
    async add(key, windowMs, now) {
      return replyInteger(
        await scripts.add(key, now - windowMs, now, `${now}:${randomUUID()}`, ttl(windowMs)),
      );
    },
    async waitBelow(key, threshold, windowMs, now) {
      const [atThreshold, leavingScore] = replyList(
        await scripts.waitBelow(key, threshold, now - windowMs, ttl(windowMs)),
      );
      if (replyInteger(atThreshold) === 0) return 0;
      const leaving = leavingScore === undefined ? now : replyScore(leavingScore);
      return Math.max(1, leaving + windowMs - now);
    },
    async acquire(key, limit, leaseMs, now): Promise<LeaseAcquire> {
      const token = randomUUID();
      const [acquired, held] = replyList(await scripts.acquire(key, now, limit, now + leaseMs, token));
      return replyInteger(acquired) === 1
        ? { acquired: true, held: replyInteger(held), token }
        : { acquired: false, held: replyInteger(held) };
    },
    async release(key, token, keep) {
      if (keep === undefined) {
        await scripts.release(key, token, '', 1);
        return;
      }
      await scripts.release(key, token, keep.until, ttl(keep.until - keep.now));
    },
    async pushRecent(key, entry, keep, ttlMs) {
      const replies = await client
        .pipeline()
        .lpush(key, entry)
        .ltrim(key, 0, keep - 1)
        .pexpire(key, ttl(ttlMs))
        .exec();
      const failed = replies?.find(([error]) => error !== null)?.[0];
      if (failed) throw failed;
    },
    async recent(key, count) {
      if (count <= 0) return [];
      return client.lrange(key, 0, count - 1);
    },
    async ping() {
      // Without a connection every command fails at once in the driver's words ("Stream isn't
      // writeable…"); readiness's log and the console's health say it plainly instead.
      if (client.status !== 'ready') throw new Error(`Redis is not connected (${client.status})`);
      await client.ping();
    },
    async close() {
      try {
        await client.quit();
      } catch {
        // Not connected, or no answer within the command timeout: drop the connection without a goodbye.
        client.disconnect();
      }
    },
  };
}
