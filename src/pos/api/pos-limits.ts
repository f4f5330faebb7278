import { systemClock, type Clock } from '../../clock.js';
import { hashApiKey } from '../../lib/api-key.js';
import { ipBlockKey } from '../../lib/ip-key.js';
import { createIpBlock, type IpBlock } from '../../rate-limit/ip-block.js';
import {
  PASS,
  rateHeaders,
  refuse,
  type LimitDecision,
  type LimitHeaders,
  type LimitRefusal,
  type PosLimitReason,
  startedKeyCheck,
  type KeyCheck,
} from './limit-decision.js';
import {
  attempt,
  type LeaseAcquire,
  type RateLimitStore,
  type WindowTake,
} from '../../rate-limit/rate-limit-store.js';

// The limit policy of the POS data API (docs/pos-api.md, "Limits", both tables and every bullet, and the
// 429/503 rows of "Errors"; docs/api-conventions.md; docs/pos-api.md, Settled details). No HTTP here: each
// check returns a decision with the exact headers to send, and the gates decide where in their order to call
// it:
//
//   checkIpBlock → checkAbsoluteCeiling → beginKeyCheck … (key look-up) … end (a wrong key), or
//   takeQuota ending a right key's check in the same operation
//   → (parameters) → beginSalesQuery … (the query) … release
//
// Windows are sliding (a call counts for 60 s after it was admitted). A refused call consumes nothing,
// except where the document says: the absolute ceiling counts refused calls, and a call refused for
// concurrency has already spent its per-minute balance. Header names are lower-case.

/** The route classes of "Limits": default (ping, places, events, other routes) and heavy (sales). */
export type PosRouteClass = 'default' | 'heavy';

/** Calls per sliding minute per key (Limits, first table). */
export const POS_KEY_QUOTA: Readonly<Record<PosRouteClass, number>> = { default: 60, heavy: 10 };
/** Calls per sliding minute of all keys of an account together. */
export const POS_ACCOUNT_CEILING: Readonly<Record<PosRouteClass, number>> = { default: 180, heavy: 30 };
/**
 * Calls per sliding minute per presented key text, refused ones included: 10 × the quota (docs/pos-api.md,
 * Settled details).
 */
export const POS_ABSOLUTE_CEILING: Readonly<Record<PosRouteClass, number>> = { default: 600, heavy: 100 };
/** Sales queries in progress at once per account. */
export const POS_ACCOUNT_SALES_IN_PROGRESS = 2;
/** Wrong-key failures of an IP in a sliding minute that block it. */
export const POS_IP_BLOCK_THRESHOLD = 20;
/**
 * Calls of an IP whose key is being checked, plus its wrong-key failures of the minute (docs/pos-api.md,
 * Settled details).
 */
export const POS_UNAUTHENTICATED_PER_IP = 40;
/** Documentation pages per IP per sliding minute (docs/pos-api.md, Settled details). */
export const POS_DOCS_PER_IP = 30;

const WINDOW_MS = 60_000;
/** Retry-After of a concurrency refusal (Limits, 429 table). */
const SALES_RETRY_AFTER = 5;
/** Retry-After of every other fixed-wait 429, and of the 503 (Errors). */
const RETRY_AFTER = 60;

export interface PosLimitsConfig {
  /**
   * The whole API's ceiling of sales queries in progress (docs/pos-api.md, Settled details: 50, from config).
   */
  salesInProgressCeiling?: number;
  /**
   * How long a sales-query lease lives when never released (its process died). Must exceed the longest
   * query (config `POS_SALES_QUERY_TIMEOUT_MS`, 15 s by default), or a live query could be overtaken.
   */
  salesLeaseMs?: number;
  /** How long a key check counts as in progress for its IP when never ended (its process died). */
  keyCheckLeaseMs?: number;
  /** Wrong-key refusals from one IP in 60 s that block it (config `IP_BLOCK_THRESHOLD`, 20). */
  ipBlockThreshold?: number;
}

export const POS_LIMITS_DEFAULTS: Required<PosLimitsConfig> = {
  salesInProgressCeiling: 50,
  salesLeaseMs: 30_000,
  keyCheckLeaseMs: 30_000,
  ipBlockThreshold: POS_IP_BLOCK_THRESHOLD,
};

/** The per-minute balance a recognized key's call spent, for its headers and a concurrency refusal. */
export interface PosQuota {
  accountId: string;
  /** False when the shared store was unreachable: the call went on unmeasured, without headers. */
  measured: boolean;
  /** The key's limit in the route's class: always the `x-ratelimit-limit`. */
  limit: number;
  /** The lower of the key's and the account's balance, after this call. */
  remaining: number;
  /** Unix seconds by which the lower balance has grown by at least one call. */
  reset: number;
  /** `x-ratelimit-*` of every authenticated response (empty when not measured). */
  headers: LimitHeaders;
}

export type QuotaDecision = { ok: true; headers: LimitHeaders; quota: PosQuota } | LimitRefusal;

/** An admitted sales query: `release` it when the query ends, however it ends. */
export interface SalesQuery {
  ok: true;
  headers: LimitHeaders;
  /** Frees the query's place; never throws, and a second call does nothing. */
  release(): Promise<void>;
}

export type SalesQueryDecision = SalesQuery | LimitRefusal;

const unixSeconds = (ms: number) => Math.ceil(ms / 1000);

// Key names. The two windows of a quota and an account's sales leases carry the account in a Redis
// hash tag (`{…}`), so that `takeAll` touches keys of one cluster slot. An IP is `request.ip`, undefined
// once the client has closed its connection: `ipBlockKey` keys it `unknown` rather than throwing.
const keys = {
  ceiling: (keyText: string, routeClass: PosRouteClass) => `pos:ceiling:${routeClass}:${hashApiKey(keyText)}`,
  keyCheck: (ip: string | undefined) => `pos:keycheck:${ipBlockKey(ip)}`,
  keyWindow: (accountId: string, keyBucket: string, routeClass: PosRouteClass) =>
    `pos:rate:{${accountId}}:key:${routeClass}:${keyBucket}`,
  accountWindow: (accountId: string, routeClass: PosRouteClass) =>
    `pos:rate:{${accountId}}:account:${routeClass}`,
  accountSales: (accountId: string) => `pos:sales:{${accountId}}`,
  apiSales: 'pos:sales:all',
  docs: (ip: string | undefined) => `pos:docs:${ipBlockKey(ip)}`,
};

export function createPosLimits(deps: { store: RateLimitStore; clock?: Clock; config?: PosLimitsConfig }) {
  const { store } = deps;
  const clock = deps.clock ?? systemClock;
  const config = { ...POS_LIMITS_DEFAULTS, ...deps.config };
  const ipBlock = createIpBlock({ store, namespace: 'pos', threshold: config.ipBlockThreshold });

  const { ceilingStep, keyCheckStep, ipBlockDecision, ceilingDecision, keyCheckDecision } = beforeKeyLimits({
    store,
    clock,
    config,
    ipBlock,
  });

  return {
    /**
     * 429 while the IP is blocked for wrong keys (20 in the sliding minute), before the key is read:
     * `Retry-After` the real wait (1 to 60), `X-RateLimit-Limit` 20, Remaining 0 (Limits, 429 table).
     */
    async checkIpBlock(ip: string | undefined): Promise<LimitDecision> {
      const waitMs = await attempt(() => ipBlock.blockedFor(ip, clock.now()));
      return ipBlockDecision(waitMs);
    },

    /**
     * The absolute ceiling per presented key text and class (600 default, 100 heavy a sliding minute),
     * before the key is looked up; every call counts, refused ones too. 429 `Retry-After` 60,
     * `X-RateLimit-Limit` the ceiling, Remaining 0. A call without key text has nothing to count here.
     */
    async checkAbsoluteCeiling(keyText: string | null, routeClass: PosRouteClass): Promise<LimitDecision> {
      if (keyText === null) return PASS;
      const step = ceilingStep(keyText, routeClass);
      const hit = await attempt(() => store.hit(step.key, step.limit, step.windowMs, clock.now()));
      return ceilingDecision(hit, routeClass);
    },

    /**
     * Starts checking a key for `ip`. The IP's unauthenticated calls are its calls whose key is being
     * checked now plus its wrong-key failures of the last 60 s; a call that would take them above 40 gets
     * 429 before its key is read (`Retry-After` 60, `X-RateLimit-Limit` 40, Remaining 0). Both kinds live
     * in one lease set, so the check is one atomic operation: a check is a lease, and a wrong-key failure
     * is its lease kept for 60 s after the check ended.
     */
    async beginKeyCheck(ip: string | undefined): Promise<KeyCheck | LimitRefusal> {
      const step = keyCheckStep(ip);
      const lease = await attempt(() => store.acquire(step.key, step.limit, step.leaseMs, clock.now()));
      return keyCheckDecision(ip, lease);
    },

    /**
     * The three limits before the key is read, in the contract's order, as one operation of the store
     * (one round trip to a shared one instead of three): `checkIpBlock`, `checkAbsoluteCeiling` (when
     * there is key text), then `beginKeyCheck`. The first that refuses answers, and the limits after it
     * count nothing, exactly as when each is asked in turn. With the store unreachable, the call goes on
     * unmeasured, as each of the three would.
     */
    async admitBeforeKey(
      ip: string | undefined,
      keyText: string | null,
      routeClass: PosRouteClass,
    ): Promise<KeyCheck | LimitRefusal> {
      const steps = [
        ipBlock.blockedStep(ip),
        ...(keyText === null ? [] : [ceilingStep(keyText, routeClass)]),
        keyCheckStep(ip),
      ];
      const results = await attempt(() => store.admitInOrder(steps, clock.now()));
      if (results === undefined) return keyCheckDecision(ip, undefined);
      for (const result of results) {
        if (result.op === 'acquire') return keyCheckDecision(ip, result.lease);
        const decision =
          result.op === 'waitBelow'
            ? ipBlockDecision(result.waitMs)
            : ceilingDecision(result.take, routeClass);
        if (!decision.ok) return decision;
      }
      throw new Error('the store did not answer every limit before the key');
    },

    /**
     * Spends one call of a recognized key in the route's class: the key's quota (60 default, 10 heavy a
     * sliding minute) and the account's ceiling over all its keys (180, 30), atomically, so a call refused
     * by either spends neither. `keyBucket` names the presented key's own balance: the credential and
     * its generation, so the new and the previous key of a rotation each have their own while the
     * account covers both. Refusals: 429 `Retry-After` 60 with the key's limit and Remaining 0.
     */
    async takeQuota(call: {
      accountId: string;
      keyBucket: string;
      routeClass: PosRouteClass;
      /** The right key's check, ended by the same operation (one round trip to a shared store). */
      keyCheck?: KeyCheck;
    }): Promise<QuotaDecision> {
      const { accountId, keyBucket, routeClass } = call;
      const limit = POS_KEY_QUOTA[routeClass];
      const now = clock.now();
      const take = await attempt(() =>
        store.takeAll(
          [
            { key: keys.keyWindow(accountId, keyBucket, routeClass), limit },
            { key: keys.accountWindow(accountId, routeClass), limit: POS_ACCOUNT_CEILING[routeClass] },
          ],
          WINDOW_MS,
          now,
          call.keyCheck?.handOver(),
        ),
      );
      if (take === undefined) {
        const quota: PosQuota = { accountId, measured: false, limit, remaining: 0, reset: 0, headers: {} };
        return { ok: true, headers: {}, quota };
      }
      const [keyWindow, accountWindow] = take.windows as [WindowTake, WindowTake];
      const remaining = take.allowed
        ? Math.min(limit - keyWindow.count, POS_ACCOUNT_CEILING[routeClass] - accountWindow.count)
        : 0;
      // Once the newer of the two oldest calls has left, each window has room for one more call.
      const reset = unixSeconds(Math.max(keyWindow.oldestAt, accountWindow.oldestAt) + WINDOW_MS);
      const headers = rateHeaders(limit, remaining, reset);
      if (!take.allowed)
        return refuse(keyWindow.allowed ? 'account_ceiling' : 'key_quota', RETRY_AFTER, headers);
      return { ok: true, headers, quota: { accountId, measured: true, limit, remaining, reset, headers } };
    },

    /**
     * Starts a sales query of a call whose quota was taken: at most 2 in progress per account and
     * `salesInProgressCeiling` in the whole API. Refused: 429 `Retry-After` 5, the key's limit and the
     * real balance after this call (the refused call keeps its per-minute spending). Store unreachable:
     * 503 `Retry-After` 60. A lease never released expires after `salesLeaseMs`.
     */
    beginSalesQuery(quota: PosQuota): Promise<SalesQueryDecision> {
      return beginSalesQuery({ store, clock, config }, quota);
    },

    /**
     * The documentation pages under `/docs`: 30 a sliding minute per IP; 429 `Retry-After` 60 without
     * `X-RateLimit-*` (docs/pos-api.md, Settled details). Refused calls do not count.
     */
    async checkDocumentationPage(ip: string | undefined): Promise<LimitDecision> {
      const take = await attempt(() => store.take(keys.docs(ip), POS_DOCS_PER_IP, WINDOW_MS, clock.now()));
      if (take === undefined || take.allowed) return PASS;
      return refuse('documentation_pages', RETRY_AFTER);
    },
  };
}

export type PosLimits = ReturnType<typeof createPosLimits>;

/**
 * Each limit before the key as a step of the store and the decision of its answer (undefined: the store
 * failed, the call goes on unmeasured), shared by the single checks and `admitBeforeKey`.
 */
function beforeKeyLimits(deps: {
  store: RateLimitStore;
  clock: Clock;
  config: Required<PosLimitsConfig>;
  ipBlock: IpBlock;
}) {
  const { store, clock, config, ipBlock } = deps;
  const ceilingStep = (keyText: string, routeClass: PosRouteClass) =>
    ({
      op: 'hit',
      key: keys.ceiling(keyText, routeClass),
      limit: POS_ABSOLUTE_CEILING[routeClass],
      windowMs: WINDOW_MS,
    }) as const;
  const keyCheckStep = (ip: string | undefined) =>
    ({
      op: 'acquire',
      key: keys.keyCheck(ip),
      limit: POS_UNAUTHENTICATED_PER_IP,
      leaseMs: config.keyCheckLeaseMs,
    }) as const;
  const ipBlockDecision = (waitMs: number | undefined): LimitDecision => {
    if (waitMs === undefined || waitMs === 0) return PASS;
    const retryAfter = Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
    return refuse('ip_blocked', retryAfter, rateHeaders(config.ipBlockThreshold, 0));
  };
  const ceilingDecision = (hit: WindowTake | undefined, routeClass: PosRouteClass): LimitDecision => {
    if (hit === undefined || hit.allowed) return PASS;
    return refuse('absolute_ceiling', RETRY_AFTER, rateHeaders(POS_ABSOLUTE_CEILING[routeClass], 0));
  };
  const keyCheckDecision = (ip: string | undefined, lease: LeaseAcquire | undefined) => {
    if (lease !== undefined && !lease.acquired)
      return refuse('unauthenticated_calls', RETRY_AFTER, rateHeaders(POS_UNAUTHENTICATED_PER_IP, 0));
    return startedKeyCheck(keys.keyCheck(ip), lease?.token, (now) => ipBlock.recordFailure(ip, now), {
      store,
      clock,
    });
  };

  return { ceilingStep, keyCheckStep, ipBlockDecision, ceilingDecision, keyCheckDecision };
}

/** What a sales query's leases are taken from: the store, the clock and the in-progress limits. */
interface SalesQueryLimits {
  store: RateLimitStore;
  clock: Clock;
  config: Required<PosLimitsConfig>;
}

/** The leases of a sales query (createPosLimits, beginSalesQuery): the account's, then the whole API's. */
async function beginSalesQuery(
  { store, clock, config }: SalesQueryLimits,
  quota: PosQuota,
): Promise<SalesQueryDecision> {
  const now = clock.now();
  const accountKey = keys.accountSales(quota.accountId);
  const unavailable = () => refuse('store_unavailable', RETRY_AFTER, quota.headers, 503);
  const refused = (reason: PosLimitReason) => refuse(reason, SALES_RETRY_AFTER, quota.headers);
  // The account first: a busy account's refused calls never hold a place of the whole API.
  const account = await attempt(() =>
    store.acquire(accountKey, POS_ACCOUNT_SALES_IN_PROGRESS, config.salesLeaseMs, now),
  );
  if (account === undefined) return unavailable();
  if (!account.acquired) return refused('account_sales_in_progress');
  const api = await attempt(() =>
    store.acquire(keys.apiSales, config.salesInProgressCeiling, config.salesLeaseMs, now),
  );
  if (!api?.acquired) {
    await attempt(() => store.release(accountKey, account.token));
    return api === undefined ? unavailable() : refused('api_sales_in_progress');
  }
  let released = false;
  return {
    ok: true,
    headers: quota.headers,
    async release() {
      if (released) return;
      released = true;
      await Promise.all([
        attempt(() => store.release(accountKey, account.token)),
        attempt(() => store.release(keys.apiSales, api.token)),
      ]);
    },
  };
}
