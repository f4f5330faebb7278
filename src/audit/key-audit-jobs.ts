import type { Clock } from '../clock.js';
import type { KeyUse } from './key-use.js';

// The background work of the audit trail, run by every process of a fleet (docs/back-office.md, Audit trail and last
// use): the flush of key use, and the sweeps that record the time-based events (a merchant key's expiry,
// the end of a previous key's grace) once, at the real instant they happened. Nothing here is on a
// request's path. Tests call `tick` on their manual clock instead of starting the timer.

/** A sweep: records the time-based events due at `now` of one kind of key; returns how many it wrote. */
export type TimeEventSweep = (now: number) => Promise<number>;

/** The log lines the jobs write (pino's signature). */
export interface JobsLog {
  warn(fields: object, message: string): void;
}

/** Every `tickMs` the key-use flush runs, and the sweeps once per `sweepMs`. */
export function createKeyAuditJobs(deps: {
  keyUse: KeyUse;
  sweeps: readonly TimeEventSweep[];
  clock: Clock;
  tickMs: number;
  sweepMs: number;
}) {
  const { keyUse, sweeps, clock } = deps;
  let timer: NodeJS.Timeout | undefined;
  let lastSweep = -Infinity;
  let busy: Promise<void> | undefined;

  async function sweep(now: number): Promise<number> {
    let written = 0;
    for (const run of sweeps) written += await run(now);
    return written;
  }

  async function tick(): Promise<void> {
    await keyUse.flush();
    const now = clock.now();
    if (now - lastSweep >= deps.sweepMs) {
      lastSweep = now;
      await sweep(now);
    }
  }

  return {
    /** One round now: the key-use flush, and the sweeps when their interval has passed. */
    tick,
    /** Runs the sweeps now, whatever their interval; returns how many events they wrote. */
    sweep: () => sweep(clock.now()),
    /** Starts the periodic rounds (an unref'd timer: it never keeps a process alive). */
    start(log?: JobsLog): void {
      if (timer !== undefined) return;
      timer = setInterval(() => {
        if (busy !== undefined) return; // a slow round (a slow database) is not stacked
        busy = tick()
          .catch((error: unknown) => {
            log?.warn({ err: error }, 'key audit round failed; the next round tries again');
          })
          .finally(() => {
            busy = undefined;
          });
      }, deps.tickMs);
      timer.unref();
    },
    /** Stops the rounds and writes every key use still in memory (at shutdown, before the database closes). */
    async stop(): Promise<void> {
      clearInterval(timer);
      timer = undefined;
      await busy;
      await keyUse.flush({ all: true });
    },
  };
}

export type KeyAuditJobs = ReturnType<typeof createKeyAuditJobs>;
