import { ipBlockKey } from '../lib/ip-key.js';
import type { AdmissionStep, RateLimitStore } from './rate-limit-store.js';

const WINDOW_MS = 60_000;

/**
 * The IP block of both public APIs: wrong-key refusals counted per IP (IPv6 by /64) over a sliding
 * minute; at `threshold` refusals the IP is blocked, even with a right key, until they leave the minute.
 */
export function createIpBlock(deps: { store: RateLimitStore; namespace: string; threshold: number }) {
  const { store, namespace, threshold } = deps;
  // `ip` is `request.ip`: undefined once the client has closed its connection (`ipBlockKey`: `unknown`).
  const key = (ip: string | undefined) => `${namespace}:ipfail:${ipBlockKey(ip)}`;
  return {
    /** Milliseconds the IP stays blocked; 0 when it is not blocked. */
    blockedFor(ip: string | undefined, now: number): Promise<number> {
      return store.waitBelow(key(ip), threshold, WINDOW_MS, now);
    },
    /** `blockedFor` as a step of the store's `admitInOrder`: it refuses while the IP is blocked. */
    blockedStep(ip: string | undefined): AdmissionStep {
      return { op: 'waitBelow', key: key(ip), threshold, windowMs: WINDOW_MS };
    },
    /** Counts one wrong-key refusal of the IP. */
    async recordFailure(ip: string | undefined, now: number): Promise<void> {
      await store.add(key(ip), WINDOW_MS, now);
    },
  };
}

export type IpBlock = ReturnType<typeof createIpBlock>;
