import { describe, expect, it } from 'vitest';
import { createSemaphore } from '../../src/lib/semaphore.js';
import { nextTurn } from '../support/timing.js';

// At most `limit` tasks at once, the others in the order they asked (receipts uploads applying at once:
// docs/admin-rules.md, Point of sale; the rest of the database pool stays the public APIs').

describe('semaphore', () => {
  it('runs at most `limit` tasks at once; the others start in the order they asked as places free', async () => {
    const semaphore = createSemaphore(2);
    const started: number[] = [];
    const finishers: (() => void)[] = [];
    const runs = [0, 1, 2, 3].map((n) =>
      semaphore.run(async () => {
        started.push(n);
        await new Promise<void>((resolve) => finishers.push(resolve));
        return n;
      }),
    );
    await nextTurn();
    expect(started).toEqual([0, 1]);
    finishers[1]?.();
    await nextTurn();
    expect(started).toEqual([0, 1, 2]);
    finishers[0]?.();
    await nextTurn();
    expect(started).toEqual([0, 1, 2, 3]);
    finishers[2]?.();
    finishers[3]?.();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
  });

  it('a task that throws frees its place', async () => {
    const semaphore = createSemaphore(1);
    await expect(semaphore.run(() => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(await semaphore.run(() => Promise.resolve('next'))).toBe('next');
  });
});
