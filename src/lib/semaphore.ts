// A bound on how many tasks of one kind run at once; the others wait their turn, in order.

/** At most `limit` calls of `run` in progress at once. */
export interface Semaphore {
  /** Runs `task` once a place is free, and frees it when the task ends (however it ends). */
  run<T>(task: () => Promise<T>): Promise<T>;
}

/** A semaphore of `limit` places (at least 1). */
export function createSemaphore(limit: number): Semaphore {
  let running = 0;
  const waiting: (() => void)[] = [];

  async function acquire(): Promise<void> {
    if (running < limit) {
      running += 1;
      return;
    }
    // The place is handed over by `release`, which keeps `running` as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  function release(): void {
    const next = waiting.shift();
    if (next === undefined) running -= 1;
    else next();
  }

  return {
    async run(task) {
      await acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
