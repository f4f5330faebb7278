import type { Lifecycle } from './lifecycle.js';

// The shutdown a process behind a load balancer needs (docs/operations.md, Running a fleet: Shutdown): readiness
// says 503 at once → requests are still served for the drain → the listeners close and refuse what
// still arrives with 503 → the requests in progress finish → the rate-limit store and the databases
// close → exit 0. Past the time limit: what is left is logged, exit 1.

/** The log lines of a shutdown (pino's signature). */
export interface ShutdownLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** What a shutdown closes, in its order, and how long it gives each stage. */
export interface ShutdownDeps {
  lifecycle: Pick<Lifecycle, 'startDraining' | 'startClosing' | 'idle' | 'inProgress'>;
  /** Both listeners. */
  listeners: {
    /** Stops taking connections; resolves once every connection has ended. */
    close(): Promise<void>;
    /** Ends the connections still open (once no admitted request is left, none of them carries one). */
    cut(): void;
  };
  /** Closes the rate-limit store, then the databases. */
  closeStores(): Promise<void>;
  /** `SHUTDOWN_DRAIN_MS`. */
  drainMs: number;
  /** `SHUTDOWN_TIMEOUT_MS`, counted from the end of the drain. */
  timeoutMs: number;
  log: ShutdownLog;
}

/**
 * Once the requests in progress are done, how long connections that never completed a request (a
 * client still sending its headers) may go on before they are cut: they would only get a 503.
 */
export const LINGER_MS = 1000;

const LATE = Symbol('late');

/** A promise that resolves LATE after `ms`, and a way to drop it. */
function timer(ms: number): { late: Promise<typeof LATE>; clear(): void } {
  let handle: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    handle = setTimeout(() => {
      resolve(LATE);
    }, ms);
  });
  return {
    late,
    clear: () => {
      clearTimeout(handle);
    },
  };
}

/** The process's shutdown, started by the first signal; `exitCode` resolves when it is over. */
export function createShutdown(deps: ShutdownDeps) {
  const { lifecycle, listeners, log } = deps;
  let started = false;
  let endDrain: (() => void) | undefined;
  let exit: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => {
    exit = resolve;
  });

  async function run(signal: string): Promise<number> {
    lifecycle.startDraining();
    log.info({ signal, drainMs: deps.drainMs }, 'draining: /readyz answers 503, requests are still served');
    await new Promise<void>((resolve) => {
      const drain = setTimeout(resolve, deps.drainMs);
      endDrain = () => {
        clearTimeout(drain);
        resolve();
      };
    });
    endDrain = undefined;

    lifecycle.startClosing();
    log.info(
      { inProgress: lifecycle.inProgress().length },
      'closing: no new connections, finishing the requests in progress',
    );
    const expired = timer(deps.timeoutMs);
    let linger: ReturnType<typeof timer> | undefined;
    try {
      const closed = listeners.close();
      // Awaited below, once the requests are done; a failure meanwhile must not go unhandled.
      closed.catch(() => undefined);
      if ((await Promise.race([lifecycle.idle(), expired.late])) === LATE) {
        log.error(
          { timeoutMs: deps.timeoutMs, inProgress: lifecycle.inProgress() },
          'requests still in progress at the end of SHUTDOWN_TIMEOUT_MS; exiting without closing the stores',
        );
        return 1;
      }
      linger = timer(LINGER_MS);
      if ((await Promise.race([closed, linger.late, expired.late])) === LATE) {
        log.warn({}, 'cutting the connections that sent no complete request');
        listeners.cut();
        await closed;
      }
      if ((await Promise.race([deps.closeStores(), expired.late])) === LATE) {
        log.error(
          { timeoutMs: deps.timeoutMs },
          'the stores did not close within SHUTDOWN_TIMEOUT_MS; exiting',
        );
        return 1;
      }
    } finally {
      expired.clear();
      linger?.clear();
    }
    log.info({}, 'closed');
    return 0;
  }

  return {
    /**
     * A signal (SIGTERM, SIGINT): the first starts the shutdown; a later one during the drain ends the
     * drain at once (an operator's second Ctrl-C), and never cuts requests in progress.
     */
    signal(name: string): void {
      if (!started) {
        started = true;
        run(name).then(exit, (error: unknown) => {
          log.error({ err: error }, 'error while closing');
          exit(1);
        });
        return;
      }
      if (endDrain !== undefined) {
        log.info({ signal: name }, 'second signal: the drain ends now');
        endDrain();
      }
    },
    /** The code the process exits with, once the shutdown is over. */
    exitCode,
  };
}
