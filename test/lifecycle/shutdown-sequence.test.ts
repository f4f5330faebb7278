import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src/clock.js';
import { createLifecycle } from '../../src/lifecycle/lifecycle.js';
import { createShutdown, LINGER_MS, type ShutdownLog } from '../../src/lifecycle/shutdown.js';

// The shutdown's order (docs/operations.md, Running a fleet: Shutdown) with fakes for the listeners and the stores:
// readiness at once → the drain → the listeners close → the work in progress finishes → the stores close
// → exit 0; past the time limit, what is left is logged and the exit is 1. Real timers, short and
// compared as ratios: the machine running the suites is busy.

interface Line {
  level: 'info' | 'warn' | 'error';
  fields: object;
  message: string;
}

function recordingLog(): ShutdownLog & { lines: Line[] } {
  const lines: Line[] = [];
  return {
    lines,
    info: (fields, message) => lines.push({ level: 'info', fields, message }),
    warn: (fields, message) => lines.push({ level: 'warn', fields, message }),
    error: (fields, message) => lines.push({ level: 'error', fields, message }),
  };
}

/** A shutdown over fakes that record what was closed, and when. */
function fakeProcess(options: {
  drainMs: number;
  timeoutMs: number;
  connectionsEnd?: 'by-themselves' | 'when-cut';
}) {
  const lifecycle = createLifecycle({ clock: systemClock });
  const log = recordingLog();
  const events: string[] = [];
  let endConnections: () => void = () => undefined;
  const connectionsEnded = new Promise<void>((resolve) => {
    endConnections = resolve;
  });
  let storesClosed = false;
  const shutdown = createShutdown({
    lifecycle,
    listeners: {
      close: () => {
        events.push('listeners closing');
        if ((options.connectionsEnd ?? 'by-themselves') === 'by-themselves') endConnections();
        return connectionsEnded;
      },
      cut: () => {
        events.push('connections cut');
        endConnections();
      },
    },
    closeStores: () => {
      events.push(`stores closed with ${lifecycle.inProgress().length} in progress`);
      storesClosed = true;
      return Promise.resolve();
    },
    drainMs: options.drainMs,
    timeoutMs: options.timeoutMs,
    log,
  });
  return { lifecycle, log, events, shutdown, storesClosed: () => storesClosed };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, limitMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`still not true after ${limitMs} ms`);
    await sleep(5);
  }
}

describe('shutdown sequence', () => {
  it('SIGTERM: draining at once, the listeners close after the drain, the stores once the work in progress is done, exit 0', async () => {
    const DRAIN_MS = 200;
    const p = fakeProcess({ drainMs: DRAIN_MS, timeoutMs: 10_000 });
    const endRequest = p.lifecycle.begin('POST /v1/api-external-system/help-desk-ticket (request)');

    const signalled = Date.now();
    p.shutdown.signal('SIGTERM');
    expect(p.lifecycle.phase()).toBe('draining');
    expect(p.events).toEqual([]);

    await until(() => p.lifecycle.phase() === 'closing');
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(DRAIN_MS - 5);
    expect(p.events).toEqual(['listeners closing']);
    // The request admitted before the close holds the stores open.
    await sleep(50);
    expect(p.storesClosed()).toBe(false);

    endRequest();
    expect(await p.shutdown.exitCode).toBe(0);
    expect(p.events).toEqual(['listeners closing', 'stores closed with 0 in progress']);
    expect(p.log.lines.filter((line) => line.level !== 'info')).toEqual([]);
    expect(p.log.lines.map((line) => line.message).at(-1)).toBe('closed');
  });

  it('a second signal during the drain ends it at once, and still waits for the work in progress', async () => {
    const p = fakeProcess({ drainMs: 60_000, timeoutMs: 10_000 });
    const endHandler = p.lifecycle.begin('GET /v1/api-public/sales/by-payment-method (handler)');
    p.shutdown.signal('SIGTERM');
    await sleep(20);
    expect(p.lifecycle.phase()).toBe('draining');

    const second = Date.now();
    p.shutdown.signal('SIGINT');
    await until(() => p.lifecycle.phase() === 'closing');
    // Far below the 60 s drain: the second signal, not the timer, ended it.
    expect(Date.now() - second).toBeLessThan(2000);
    await sleep(50);
    expect(p.storesClosed()).toBe(false);

    endHandler();
    expect(await p.shutdown.exitCode).toBe(0);
    // A signal after the drain changes nothing.
    p.shutdown.signal('SIGTERM');
    expect(p.log.lines.filter((line) => line.message.startsWith('second signal'))).toHaveLength(1);
  });

  it('past SHUTDOWN_TIMEOUT_MS the work left is logged at error level with what it is, the stores stay open, exit 1', async () => {
    const TIMEOUT_MS = 150;
    const p = fakeProcess({ drainMs: 0, timeoutMs: TIMEOUT_MS });
    p.lifecycle.begin('POST /admin/v1/pos/accounts/acme/receipts (handler)');
    const signalled = Date.now();
    p.shutdown.signal('SIGTERM');
    expect(await p.shutdown.exitCode).toBe(1);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
    expect(p.storesClosed()).toBe(false);
    const errors = p.log.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.fields).toMatchObject({
      timeoutMs: TIMEOUT_MS,
      inProgress: [{ what: 'POST /admin/v1/pos/accounts/acme/receipts (handler)' }],
    });
  });

  it('once the work is done, connections that never completed a request are cut after a linger; the exit is still 0', async () => {
    const p = fakeProcess({ drainMs: 0, timeoutMs: 10_000, connectionsEnd: 'when-cut' });
    const signalled = Date.now();
    p.shutdown.signal('SIGTERM');
    expect(await p.shutdown.exitCode).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(LINGER_MS - 5);
    expect(p.events).toEqual(['listeners closing', 'connections cut', 'stores closed with 0 in progress']);
    expect(p.log.lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  it('a store that fails to close: the error is logged and the exit is 1', async () => {
    const log = recordingLog();
    const shutdown = createShutdown({
      lifecycle: createLifecycle({ clock: systemClock }),
      listeners: { close: () => Promise.resolve(), cut: () => undefined },
      closeStores: () => Promise.reject(new Error('connection lost')),
      drainMs: 0,
      timeoutMs: 10_000,
      log,
    });
    shutdown.signal('SIGTERM');
    expect(await shutdown.exitCode).toBe(1);
    expect(log.lines.filter((line) => line.level === 'error').map((line) => line.message)).toEqual([
      'error while closing',
    ]);
  });
});

describe('lifecycle', () => {
  it('idle resolves once every piece of work has ended, each end counted once', async () => {
    const lifecycle = createLifecycle({ clock: systemClock });
    await lifecycle.idle();
    const endA = lifecycle.begin('a');
    const endB = lifecycle.begin('b');
    let idle = false;
    void lifecycle.idle().then(() => {
      idle = true;
    });
    endA();
    endA();
    await sleep(10);
    expect(idle).toBe(false);
    expect(lifecycle.inProgress().map((work) => work.what)).toEqual(['b']);
    endB();
    await sleep(0);
    expect(idle).toBe(true);
  });
});
