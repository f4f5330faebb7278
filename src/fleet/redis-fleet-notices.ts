import { Redis } from 'ioredis';
import { isFleetNotice, type FleetNotice, type FleetNotices } from './fleet-notices.js';

/** How to reach the Redis the fleet shares (the rate-limit store's `REDIS_URL` and `REDIS_KEY_PREFIX`). */
export interface RedisFleetNoticesOptions {
  url: string;
  /** The channel is named after it, so that deployments sharing one Redis do not hear each other. */
  keyPrefix: string;
  /** A publish not answered within this is given up (the copies then expire by themselves). */
  commandTimeoutMs: number;
  /** Where outages are reported (a pino logger fits). */
  log?: { warn(obj: object, msg: string): void };
}

const CONNECT_TIMEOUT_MS = 1000;
const MAX_RECONNECT_DELAY_MS = 500;

/** The channel of the fleet's notices. */
function fleetNoticeChannel(keyPrefix: string): string {
  return `${keyPrefix}fleet-notices`;
}

/**
 * Fleet notices over Redis pub/sub: one connection publishes, another (a connection that subscribes can
 * do nothing else) listens and subscribes again by itself after a reconnection. Resolves once the
 * subscription is made or has failed, so that a Redis down at start never holds the process: notices are
 * then lost until Redis answers, and every copy falls back to its one-second expiry.
 */
export async function connectRedisFleetNotices(options: RedisFleetNoticesOptions): Promise<FleetNotices> {
  const { log } = options;
  const channel = fleetNoticeChannel(options.keyPrefix);
  const common = {
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt: number) => Math.min(50 * 2 ** (attempt - 1), MAX_RECONNECT_DELAY_MS),
  };
  // Fail fast, as the rate-limit store does: a notice is never queued for later (it would arrive after
  // the copies it was meant to drop have expired anyway).
  const publisher = new Redis(options.url, {
    ...common,
    commandTimeout: options.commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  });
  // The subscriber's SUBSCRIBE waits for a connection, and is sent again after every reconnection.
  const subscriber = new Redis(options.url, { ...common, autoResubscribe: true });

  // Without a listener an 'error' event would crash the process; one warning per outage.
  let outage = false;
  const onError = (error: Error) => {
    if (outage) return;
    outage = true;
    log?.warn(
      { err: error },
      'Redis unreachable: fleet notices are lost, shared copies expire within a second',
    );
  };
  publisher.on('error', onError);
  subscriber.on('error', onError);
  subscriber.on('ready', () => {
    outage = false;
  });

  const listeners = new Set<(notice: FleetNotice) => void>();
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel || !isFleetNotice(message)) return;
    for (const listener of listeners) listener(message);
  });

  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS + options.commandTimeoutMs);
    subscriber.subscribe(channel).then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      () => {
        clearTimeout(timer);
        resolve();
      },
    );
  });

  return {
    async publish(notice) {
      try {
        await publisher.publish(channel, notice);
      } catch {
        // Reported once by the 'error' listener when Redis is away; the copies expire within a second.
      }
    },
    subscribe(listener) {
      listeners.add(listener);
    },
    async close() {
      listeners.clear();
      publisher.disconnect();
      subscriber.disconnect();
      await Promise.resolve();
    },
  };
}
