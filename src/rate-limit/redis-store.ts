import { randomUUID } from 'node:crypto';
import { Redis, ReplyError } from 'ioredis';
import {
  ACQUIRE,
  ADD,
  ADMIT_IN_ORDER,
  HIT,
  RELEASE,
  TAKE,
  TAKE_ALL,
  TAKE_ALL_ENDING,
  WAIT_BELOW,
} from './redis-scripts.js';
import type {
  AdmissionResult,
  AdmissionStep,
  LeaseAcquire,
  MultiWindowTake,
  RateLimitStore,
  WindowTake,
} from './rate-limit-store.js';

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

/** A `waitBelow` reply as the wait in milliseconds (0: below the threshold). */
function waitMs(reply: unknown, windowMs: number, now: number): number {
  const [atThreshold, leavingScore] = replyList(reply);
  if (replyInteger(atThreshold) === 0) return 0;
  const leaving = leavingScore === undefined ? now : replyScore(leavingScore);
  return Math.max(1, leaving + windowMs - now);
}

function leaseAcquire(reply: unknown, token: string): LeaseAcquire {
  const [acquired, held] = replyList(reply);
  return replyInteger(acquired) === 1
    ? { acquired: true, held: replyInteger(held), token }
    : { acquired: false, held: replyInteger(held) };
}

/** A step's four ARGV of the `admitInOrder` script. */
function admissionArguments(step: AdmissionStep, now: number, token: string): (string | number)[] {
  if (step.op === 'waitBelow') return ['w', step.threshold, now - step.windowMs, ttl(step.windowMs)];
  if (step.op === 'hit') return ['h', step.limit, now - step.windowMs, ttl(step.windowMs)];
  return ['a', step.limit, now + step.leaseMs, token];
}

/** A step's answer in the `admitInOrder` reply, as its operation of the same name returns it. */
function admissionResult(
  step: AdmissionStep | undefined,
  reply: unknown,
  now: number,
  token: string,
): AdmissionResult {
  if (step === undefined) throw new Error('unexpected reply from Redis');
  if (step.op === 'waitBelow') return { op: step.op, waitMs: waitMs(reply, step.windowMs, now) };
  if (step.op === 'hit') {
    const [allowed, count, oldestAt] = replyList(reply);
    return { op: step.op, take: windowTake(allowed, count, oldestAt) };
  }
  return { op: step.op, lease: leaseAcquire(reply, token) };
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
    takeAllEnding: define('rateLimitTakeAllEnding', TAKE_ALL_ENDING),
    hit: define('rateLimitHit', HIT, 1),
    add: define('rateLimitAdd', ADD, 1),
    waitBelow: define('rateLimitWaitBelow', WAIT_BELOW, 1),
    acquire: define('rateLimitAcquire', ACQUIRE, 1),
    release: define('rateLimitRelease', RELEASE, 1),
    admitInOrder: define('rateLimitAdmitInOrder', ADMIT_IN_ORDER),
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
    async takeAll(limits, windowMs, now, ending): Promise<MultiWindowTake> {
      const keys = limits.map((window) => window.key);
      if (new Set(keys).size !== keys.length) throw new Error('takeAll needs distinct keys');
      const takeArguments = [
        now - windowMs,
        now,
        `${now}:${randomUUID()}`,
        ttl(windowMs),
        ...limits.map((window) => window.limit),
      ];
      const reply = replyList(
        ending === undefined
          ? await scripts.takeAll(keys.length, ...keys, ...takeArguments)
          : await scripts.takeAllEnding(keys.length + 1, ending.key, ...keys, ending.token, ...takeArguments),
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
      return waitMs(await scripts.waitBelow(key, threshold, now - windowMs, ttl(windowMs)), windowMs, now);
    },
    async acquire(key, limit, leaseMs, now): Promise<LeaseAcquire> {
      const token = randomUUID();
      return leaseAcquire(await scripts.acquire(key, now, limit, now + leaseMs, token), token);
    },
    async admitInOrder(steps, now): Promise<AdmissionResult[]> {
      const tokens = steps.map((step) => (step.op === 'acquire' ? randomUUID() : ''));
      const reply = replyList(
        await scripts.admitInOrder(
          steps.length,
          ...steps.map((step) => step.key),
          now,
          ...steps.flatMap((step, i) => admissionArguments(step, now, tokens[i] ?? '')),
        ),
      );
      return reply.map((answer, i) => admissionResult(steps[i], answer, now, tokens[i] ?? ''));
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
