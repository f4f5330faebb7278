import type { Config } from '../config.js';
import { withoutPasswords } from '../config/config-error.js';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { Lifecycle } from './lifecycle.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { askDatabase, isDraining } from './readiness.js';

// The health of the process's dependencies for the back-office console's dashboard (issue 14: "database
// and Redis health"): the same questions as GET /readyz (readiness.ts), each timed, each given a short
// time limit so that a Redis or PostgreSQL that does not answer leaves the page slow by that much at most,
// and the reason of a failure as text for a person. The text never holds a password: the drivers' messages
// can quote a connection URL.

/** How long the probe waits for each answer. */
export const HEALTH_PROBE_TIMEOUT_MS = 1000;

/** The longest reason shown. */
const MAX_ERROR_LENGTH = 300;

/** Whether the database answered. */
interface DatabaseHealth {
  ok: boolean;
  /** Time to the answer, the failure or the time limit (ms, to a tenth). */
  latencyMs: number;
  dialect: 'sqlite' | 'postgres';
  /** Why it did not answer; absent when it did. */
  error?: string;
}

/**
 * Whether Redis, the fleet's shared store of limits, answered. Without `REDIS_URL` there is none: limits
 * are counted in this process.
 */
type RedisHealth =
  | { configured: false }
  | {
      configured: true;
      ok: boolean;
      /** Time to the answer, the failure or the time limit (ms, to a tenth). */
      latencyMs: number;
      /** Why it did not answer; absent when it did. */
      error?: string;
    };

/** The dependencies' health, and whether the process is shutting down. */
export interface HealthReport {
  database: DatabaseHealth;
  redis: RedisHealth;
  /** The process is shutting down: the balancer takes it out of rotation (GET /readyz answers 503). */
  draining: boolean;
}

/** A check that did not answer within the probe's time limit. */
class NoAnswer extends Error {
  constructor(timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/** The passwords of the configured URLs, as written and decoded, for the error texts to leave out. */
function passwordsOf(config: Pick<Config, 'database' | 'redisUrl'>): string[] {
  const urls = [config.database.kind === 'postgres' ? config.database.url : null, config.redisUrl];
  const passwords = new Set<string>();
  for (const url of urls) {
    if (url === null) continue;
    try {
      const { password } = new URL(url);
      if (password === '') continue;
      passwords.add(password);
      passwords.add(decodeURIComponent(password));
    } catch {
      // The configuration checked the URL; nothing to take from one that does not parse.
    }
  }
  return [...passwords];
}

/** What went wrong, in words: a message, else the code (an AggregateError of refused connections has none). */
function reasonOf(error: unknown): string {
  if (error instanceof AggregateError) {
    const inner = error.errors.map(reasonOf).filter((reason) => reason !== '');
    if (error.message === '' && inner.length > 0) return [...new Set(inner)].join('; ');
  }
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (error.message !== '') return error.message;
    if (typeof code === 'string') return code;
    return error.name;
  }
  return String(error);
}

/** Asks the process's database and shared store how they are, within a short time limit each. */
export function createHealthProbe(deps: {
  db: Db;
  rateLimits: Pick<RateLimitStore, 'ping'>;
  lifecycle: Pick<Lifecycle, 'phase'>;
  /** `redisUrl`: whether there is a Redis at all; both URLs: the passwords its texts must not show. */
  config: Pick<Config, 'database' | 'redisUrl'>;
  /** Default 1 s. */
  timeoutMs?: number;
}) {
  const { db, rateLimits, lifecycle, config } = deps;
  const timeoutMs = deps.timeoutMs ?? HEALTH_PROBE_TIMEOUT_MS;
  const passwords = passwordsOf(config);

  const shown = (error: unknown): string => {
    let text = withoutPasswords(reasonOf(error));
    for (const password of passwords) text = text.replaceAll(password, '***');
    return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
  };

  /** Runs one check against the time limit; the check that is left behind settles unobserved. */
  async function timed(check: () => Promise<unknown>) {
    const started = performance.now();
    const latency = () => Math.round((performance.now() - started) * 10) / 10;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new NoAnswer(timeoutMs));
      }, timeoutMs);
    });
    try {
      await Promise.race([check(), late]);
      return { ok: true, latencyMs: latency() } as const;
    } catch (error) {
      return { ok: false, latencyMs: latency(), error: shown(error) } as const;
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** The database's and Redis's answers (asked at once), and the shutdown phase. */
    async probe(): Promise<HealthReport> {
      const [database, redis] = await Promise.all([
        timed(() => askDatabase(db)),
        config.redisUrl === null ? null : timed(() => rateLimits.ping()),
      ]);
      return {
        database: { ...database, dialect: isPostgres(db) ? 'postgres' : 'sqlite' },
        redis: redis === null ? { configured: false } : { configured: true, ...redis },
        // Read after the checks, as readiness does: a signal that came while they ran is not missed.
        draining: isDraining(lifecycle),
      };
    },
  };
}

export type HealthProbe = ReturnType<typeof createHealthProbe>;
