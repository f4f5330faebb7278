import { systemClock } from '../src/clock.js';
import { openDatabase } from '../src/db/database.js';
import { createMetrics } from '../src/observability/metrics.js';
import { API_NAMES } from '../src/observability/request-facts.js';
import { createTraffic } from '../src/observability/traffic.js';

// `npx tsx bench/traffic-record.ts`: what counting one answered request into the per-minute traffic costs
// on the request's path (src/observability/traffic.ts, `record`), in ns per call with the real clock,
// beside the metrics' count of the same request (prom-client), which every request already pays.
// Nothing is written to the database here: the flush runs off the request's path.

const CALLS = Number(process.env.BENCH_CALLS ?? 5_000_000);
const ROUNDS = 5;

const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
const traffic = createTraffic({ db, clock: systemClock });
const metrics = createMetrics();
const statuses = [200, 200, 201, 200, 404, 429, 200, 503];

/** The fastest of the rounds, in ns per call (the others were disturbed by the machine). */
function measure(name: string, calls: number, run: (i: number) => void): number {
  for (let i = 0; i < Math.min(calls, 100_000); i += 1) run(i); // warm-up
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < ROUNDS; round += 1) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i += 1) run(i);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / calls);
  }
  console.log(`${name.padEnd(48)} ${best.toFixed(1).padStart(8)} ns/call`);
  return best;
}

console.log(`per answered request, fastest of ${ROUNDS} rounds`);
const clock = measure('baseline: Date.now()', CALLS, () => {
  systemClock.now();
});
const record = measure('traffic.record(api, status)', CALLS, (i) => {
  traffic.record(API_NAMES[i % API_NAMES.length] ?? 'other', statuses[i % statuses.length] ?? 200);
});
const counted = measure('metrics.request(…) (prom-client, for scale)', CALLS / 10, (i) => {
  metrics.request({
    api: API_NAMES[i % API_NAMES.length] ?? 'other',
    operation: 'ping',
    status: statuses[i % statuses.length] ?? 200,
    code: 'none',
    seconds: 0.001,
  });
});
console.log(
  `record: ${(record - clock).toFixed(1)} ns beyond reading the clock; ${(counted / record).toFixed(0)}x cheaper than the metrics' count`,
);
console.log(`requests counted in memory: ${traffic.unwritten()}`);
await db.destroy();
