/**
 * Polls `probe` every 20 ms until it returns true, and returns the milliseconds that took (a recovery
 * time). Throws when `limitMs` passes first.
 */
export async function timeUntil(probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (!(await probe())) {
    if (Date.now() - started > limitMs) throw new Error(`still not true after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}

/**
 * Waits for the next turn of the event loop: the promise callbacks queued so far (and those they queue)
 * have run by then.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
