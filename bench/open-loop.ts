import { Agent, request } from 'node:http';

// An open-loop load for the ticket path's latency row (bench/ticket-path.ts): requests are due at an even
// pace (one every 1/rate s), each sent when it is due whether or not the earlier ones were answered, and
// its latency is counted from when it was due, not from when it could be sent. That is what "1,000
// requests a second offered" means. autocannon's `overallRate` is not that: each of its connections sends
// its quota of the second back to back as soon as the second begins (and waits for each answer first),
// so its latencies are those of a burst of 50 concurrent requests at every second's start.
//
// The measured seconds follow a lead-in at the same pace, timed apart: the first seconds of a new load
// are the JIT's, the server's and this client's alike, not the steady state the target speaks of. On a
// 2-core machine, 3-second windows one after the other on a fresh pattern gave the bare Fastify route a
// p99 of 11.6 and 10.0 ms, then 2.3 and 2.0; the ticket route 10.5, then 5.3, 5.5 and 4.3, V8 compiling
// some hundred functions in the first two windows and about ten in the next.

export interface OpenLoad {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** The body of the i-th request (each ticket needs its own `external_id`). */
  body: (i: number) => string;
  /** Requests per second offered. */
  rate: number;
  /** The measured seconds, after the lead-in. */
  seconds: number;
  /** Seconds offered at the same pace before the measured ones, their latencies apart (default 0). */
  leadInSeconds?: number;
}

export interface OpenLoadResult {
  /** Latencies in ms from when each request was due to its answer's end, sorted: the measured seconds. */
  latencies: number[];
  /** The same for the lead-in's requests. */
  leadIn: number[];
  /** Answers that were not 2xx, and requests that failed. */
  failures: number;
  /** How late the client itself sent requests, at worst (ms): a busy client would skew the figures. */
  worstSendLagMs: number;
}

/** The value at quantile `q` (0–1) of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Offers `rate` requests a second for `leadInSeconds`, then `seconds` more, on keep-alive connections
 * opened as needed; failures count in both.
 */
export async function openLoop(load: OpenLoad): Promise<OpenLoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const leadInCount = Math.round(load.rate * (load.leadInSeconds ?? 0));
  const total = leadInCount + Math.round(load.rate * load.seconds);
  const intervalMs = 1000 / load.rate;
  const latencies: number[] = [];
  const leadIn: number[] = [];
  let failures = 0;
  let worstSendLagMs = 0;
  let answered = 0;
  let sent = 0;
  const start = performance.now();

  await new Promise<void>((done) => {
    const finish = () => {
      answered += 1;
      if (answered === total) done();
    };
    const send = (i: number, dueAt: number) => {
      const body = load.body(i);
      const call = request(
        {
          agent,
          host: '127.0.0.1',
          port: load.port,
          method: 'POST',
          path: load.path,
          headers: { ...load.headers, 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            if ((response.statusCode ?? 0) >= 300) failures += 1;
            else (i < leadInCount ? leadIn : latencies).push(performance.now() - dueAt);
            finish();
          });
        },
      );
      call.on('error', () => {
        failures += 1;
        finish();
      });
      call.end(body);
    };
    // Every tick sends all the requests due by now: a tick that comes late sends its backlog at once,
    // and their latencies still count from when each was due.
    const tick = () => {
      const now = performance.now();
      while (sent < total && start + sent * intervalMs <= now) {
        const dueAt = start + sent * intervalMs;
        if (sent >= leadInCount) worstSendLagMs = Math.max(worstSendLagMs, now - dueAt);
        send(sent, dueAt);
        sent += 1;
      }
      if (sent < total) setTimeout(tick, Math.max(0, start + sent * intervalMs - performance.now()));
    };
    tick();
  });
  agent.destroy();
  latencies.sort((a, b) => a - b);
  leadIn.sort((a, b) => a - b);
  return { latencies, leadIn, failures, worstSendLagMs };
}
