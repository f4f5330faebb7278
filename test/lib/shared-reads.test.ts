import { describe, expect, it } from 'vitest';
import { sharedReads } from '../../src/lib/shared-reads.js';
import { nextTurn } from '../support/timing.js';

// Concurrent reads of one key shared (src/lib/shared-reads.ts): a caller only ever joins a read that had
// not begun when it arrived, so no caller gets a value read before it came.

/** A store whose reads end when the test says so, counting the reads begun. */
function slowStore() {
  let value = 'v0';
  const begun: { key: string; end: () => void }[] = [];
  const read = (key: string) =>
    new Promise<string>((resolve) => {
      const seen = `${key}:${value}`;
      begun.push({
        key,
        end: () => {
          resolve(seen);
        },
      });
    });
  return {
    read,
    begun,
    set: (next: string) => (value = next),
    /** Ends the oldest read not ended yet, then lets the promise callbacks run. */
    async endOldest() {
      const first = begun.shift();
      first?.end();
      await nextTurn();
    },
  };
}

describe('sharedReads', () => {
  it('callers that arrive while a read runs share the next read, begun once the running one ended', async () => {
    const store = slowStore();
    const get = sharedReads(store.read);
    const first = get('k');
    expect(store.begun).toHaveLength(1);
    // A change happens after the first read began; the callers that arrive after it must see it.
    store.set('v1');
    const later = [get('k'), get('k'), get('k')];
    expect(store.begun).toHaveLength(1);
    await store.endOldest();
    expect(await first).toBe('k:v0');
    // The next read began after the later callers arrived: one read for the three.
    expect(store.begun).toHaveLength(1);
    await store.endOldest();
    expect(await Promise.all(later)).toEqual(['k:v1', 'k:v1', 'k:v1']);
  });

  it('a caller arriving once every read ended starts a read of its own; other keys never wait', async () => {
    const store = slowStore();
    const get = sharedReads(store.read);
    const a = get('a');
    const b = get('b');
    expect(store.begun.map((r) => r.key)).toEqual(['a', 'b']);
    await store.endOldest();
    await store.endOldest();
    expect([await a, await b]).toEqual(['a:v0', 'b:v0']);
    store.set('v2');
    const again = get('a');
    expect(store.begun).toHaveLength(1);
    await store.endOldest();
    expect(await again).toBe('a:v2');
  });

  it('a failed read fails its own callers; the callers of the next read get their value', async () => {
    let calls = 0;
    let fail!: (error: Error) => void;
    const get = sharedReads(
      (key: string) =>
        new Promise<string>((resolve, reject) => {
          calls += 1;
          if (calls === 1) fail = reject;
          else resolve(`${key}:${calls}`);
        }),
    );
    const first = get('k');
    const next = get('k');
    fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    expect(await next).toBe('k:2');
    expect(await get('k')).toBe('k:3');
  });
});
