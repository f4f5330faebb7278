import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, sqliteDataVersionOf, type Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { readsWhileUnchanged } from '../../src/db/unchanged-reads.js';
import { createProcessDatabase, type ProcessDatabase } from '../support/process-database.js';
import { nextTurn } from '../support/timing.js';

// A read of a SQLite file answered again while nothing was committed to the file (src/db/unchanged-reads.ts):
// never a value from before a commit that came before the call. What it means for partner-system keys:
// test/helpdesk/system-keys-on-file.test.ts.

/** The end of this turn of the event loop, when the version asked for in it is read. */

/** A store whose reads the test ends, and a version number the test moves. */
function versionedStore() {
  let version = 1;
  let value = 'v1';
  const pending: (() => void)[] = [];
  let reads = 0;
  let versionReads = 0;
  return {
    version: () => {
      versionReads += 1;
      return version;
    },
    commit(next: string) {
      version += 1;
      value = next;
    },
    read: (key: string) => {
      reads += 1;
      const seen = `${key}:${value}`;
      return new Promise<string>((resolve) => {
        pending.push(() => {
          resolve(seen);
        });
      });
    },
    endAll() {
      for (const end of pending.splice(0)) end();
    },
    /** Ends the reads begun, the latest first. */
    endLatestFirst() {
      for (const end of pending.splice(0).reverse()) end();
    },
    reads: () => reads,
    versionReads: () => versionReads,
  };
}

/** Ends the reads begun once the version asked for in this turn was read. */
async function endAfterTurn(store: ReturnType<typeof versionedStore>) {
  await nextTurn();
  store.endAll();
}

describe('readsWhileUnchanged', () => {
  it('answers the calls of one version with one read, and reads again after a commit', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(store.version, store.read);
    const first = get('k');
    await endAfterTurn(store);
    expect(await first).toBe('k:v1');
    expect(await get('k')).toBe('k:v1');
    expect(store.reads()).toBe(1);

    store.commit('v2');
    const after = get('k');
    await endAfterTurn(store);
    expect(await after).toBe('k:v2');
    expect(store.reads()).toBe(2);
  });

  it('reads the version once for the calls of one turn, after they all asked', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(store.version, store.read);
    const first = get('k');
    // A commit after the first call asked but before the turn's end: the version read after it counts
    // it, for both calls.
    store.commit('v2');
    const second = get('k');
    await endAfterTurn(store);
    expect([await first, await second]).toEqual(['k:v2', 'k:v2']);
    expect(store.versionReads()).toBe(1);

    // The next turn reads the version again.
    const next = get('k');
    await endAfterTurn(store);
    expect(await next).toBe('k:v2');
    expect(store.versionReads()).toBe(2);
  });

  it('keeps no value whose read ended after a later version was seen', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(store.version, store.read);
    // The first read begins at version 1 and reads v1; a commit and a call at version 2 come before it
    // ends, and that call's read ends first.
    const early = get('k');
    await nextTurn();
    store.commit('v2');
    const late = get('k');
    await nextTurn();
    store.endLatestFirst();
    expect(await early).toBe('k:v1');
    expect(await late).toBe('k:v2');
    // The version-1 value was not kept for version 2: the next call is answered v2.
    expect(await get('k')).toBe('k:v2');
    expect(store.reads()).toBe(2);
  });

  it('shares a read under way with the calls of its version, in later turns too', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(store.version, store.read);
    const first = get('k');
    await nextTurn();
    // The first read is under way; a call in a later turn, at the same version, joins it.
    const second = get('k');
    await nextTurn();
    expect(store.reads()).toBe(1);
    store.endAll();
    expect([await first, await second]).toEqual(['k:v1', 'k:v1']);

    // After a commit, a call does not join a read begun before it: it reads the new state.
    const before = get('k');
    await nextTurn();
    store.commit('v2');
    const after = get('k');
    await endAfterTurn(store);
    expect([await before, await after]).toEqual(['k:v1', 'k:v2']);
    expect(store.reads()).toBe(2);
  });

  it('keeps no failed read: its callers get the error, the next call reads again', async () => {
    const store = versionedStore();
    let failing = true;
    const get = readsWhileUnchanged(store.version, (key: string) =>
      failing ? Promise.reject(new Error('database is busy')) : store.read(key),
    );
    const failed = [get('k'), get('k')].map((call) => expect(call).rejects.toThrow('database is busy'));
    await nextTurn();
    await Promise.all(failed);
    failing = false;
    const next = get('k');
    await endAfterTurn(store);
    expect(await next).toBe('k:v1');
  });

  it('reads every time without a version number (PostgreSQL, a busy connection)', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(undefined, store.read);
    const noNumber = readsWhileUnchanged(() => undefined, store.read);
    for (const call of [get('k'), get('k'), noNumber('k'), noNumber('k')]) {
      await endAfterTurn(store);
      await call;
    }
    expect(store.reads()).toBe(4);
  });

  it('keeps at most 1,024 values a version', async () => {
    const store = versionedStore();
    const get = readsWhileUnchanged(store.version, store.read);
    for (let i = 0; i <= 1024; i++) {
      const call = get(`k${i}`);
      await endAfterTurn(store);
      await call;
    }
    // The 1,025th value emptied the copies: the first key is read again.
    const again = get('k0');
    await endAfterTurn(store);
    await again;
    expect(store.reads()).toBe(1026);
  });
});

describe('SQLite file: the data version', () => {
  let database: ProcessDatabase;
  let path: string;
  let db: Db;

  beforeEach(async () => {
    database = await createProcessDatabase('sqlite');
    path = database.url.slice('file:'.length);
    db = database.open();
    await migrateToLatest(db);
  });
  afterEach(async () => {
    await db.destroy();
    await database.drop();
  });

  it('moves with every commit, of this process or of another connection', async () => {
    const version = sqliteDataVersionOf(db);
    if (version === undefined) throw new Error('a SQLite file has a data version');
    const before = version();
    expect(version()).toBe(before);
    await db.insertInto('settings').values({ key: 'a', value: '1', updated_at: 0 }).execute();
    const afterOwn = version();
    expect(afterOwn).not.toBe(before);

    const other = new SQLite(path);
    try {
      other.prepare("insert into settings (key, value, updated_at) values ('b', '2', 0)").run();
    } finally {
      other.close();
    }
    expect(version()).not.toBe(afterOwn);
  });

  it('moves while a read streams its rows on the reader connection', async () => {
    const version = sqliteDataVersionOf(db);
    if (version === undefined) throw new Error('a SQLite file has a data version');
    for (const key of ['a', 'b']) {
      await db.insertInto('settings').values({ key, value: key, updated_at: 0 }).execute();
    }
    const rows = db.selectFrom('settings').selectAll().stream()[Symbol.asyncIterator]();
    await rows.next();
    const before = version();
    await db.insertInto('settings').values({ key: 'c', value: 'c', updated_at: 0 }).execute();
    expect(version()).not.toBe(before);
    await rows.return?.();
  });

  it('has none in memory or on PostgreSQL', async () => {
    const memory = openDatabase({ kind: 'sqlite', path: ':memory:' });
    expect(sqliteDataVersionOf(memory)).toBeUndefined();
    await memory.destroy();
  });
});
