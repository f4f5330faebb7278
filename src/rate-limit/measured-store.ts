import type { RateLimitStore } from './rate-limit-store.js';

/** Where a measured store reports each operation: its name, how long it took, whether it failed. */
export interface StoreMeter {
  storeOperation(operation: string, seconds: number, failed: boolean): void;
}

type Operation = Exclude<keyof RateLimitStore, 'close'>;

const OPERATIONS: readonly Operation[] = [
  'take',
  'takeAll',
  'hit',
  'add',
  'waitBelow',
  'acquire',
  'admitInOrder',
  'release',
  'pushRecent',
  'recent',
  'ping',
];

/**
 * The store with every operation timed and its failures counted (docs/operations.md, Metrics: the rate-limit store's
 * round-trip time and errors). What the store answers, or how it fails, is passed on unchanged.
 */
export function measuredStore(store: RateLimitStore, meter: StoreMeter): RateLimitStore {
  const measured = { close: () => store.close() } as RateLimitStore;
  for (const name of OPERATIONS) {
    const operation = (store[name] as (...args: unknown[]) => Promise<unknown>).bind(store);
    (measured as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const started = performance.now();
      let failed = true;
      try {
        const result = await operation(...args);
        failed = false;
        return result;
      } finally {
        meter.storeOperation(name, (performance.now() - started) / 1000, failed);
      }
    };
  }
  return measured;
}
