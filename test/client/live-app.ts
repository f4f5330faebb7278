import { beforeEach } from 'vitest';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { seedPosDemo } from '../../src/pos/demo.js';
import { useTestApp, type Dialect, type TestApp } from '../helper.js';

// The client's tests talk to the real app on a real port (the client is fetch over HTTP), built by the
// test harness on each dialect, with the help-desk and POS demos seeded and the app's manual clock moved by
// the client's sleep, so that a Retry-After of 60 s takes no time.

/** A live app: the harness's test app, its address, the demo keys, and what the client waited. */
export interface LiveApp {
  t: TestApp;
  baseUrl: string;
  keys: { helpDesk: string; pos: string };
  /** Every wait the client asked for, in ms. */
  waits: number[];
  /** The client's sleep: records the wait and moves the app's clock by it. */
  sleep(ms: number): Promise<void>;
  /** A fetch that counts requests by path, and how many are in flight at most, by path. */
  fetch: typeof fetch;
  calls: string[];
  maxInFlight: Map<string, number>;
}

/** Builds and listens a fresh app per test, seeded with both demos (a few hundred receipts). */
export function useLiveApp(dialect: Dialect, options: { config?: Record<string, string> } = {}): LiveApp {
  const t = useTestApp(dialect, options);
  const live = { t, waits: [], calls: [], maxInFlight: new Map() } as unknown as LiveApp;
  beforeEach(async () => {
    live.waits = [];
    live.calls = [];
    live.maxInFlight = new Map();
    live.keys = {
      helpDesk: await seedHelpdeskDemo(t.services),
      pos: (await seedPosDemo(t.services, { receipts: 300 })).key,
    };
    await t.app.public.listen({ port: 0, host: '127.0.0.1' });
    live.baseUrl = `http://127.0.0.1:${(t.app.public.server.address() as { port: number }).port}`;
    live.sleep = (ms) => {
      live.waits.push(ms);
      t.clock.advance(ms);
      return Promise.resolve();
    };
    const inFlight = new Map<string, number>();
    live.fetch = async (input, init) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      live.calls.push(path);
      inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
      live.maxInFlight.set(path, Math.max(live.maxInFlight.get(path) ?? 0, inFlight.get(path)!));
      try {
        return await fetch(input, init);
      } finally {
        inFlight.set(path, inFlight.get(path)! - 1);
      }
    };
  });
  return live;
}
