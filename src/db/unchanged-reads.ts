// Reads of a SQLite file answered again, without reading, for as long as nothing was committed to the
// file since: the answer is then the one a new read would give, not a copy that may be out of date.
//
// SQLite numbers the state of a file for each connection (`pragma data_version`): the number changes
// whenever any other connection commits, whichever process or thread it is in. Read on a connection that
// never writes and runs nothing else (database.ts), it changes with every commit of the file. A value
// read at the same number is the answer. Every commit of the file ends the copies, ticket inserts among
// them; under load a read is still shared by the calls that arrive between two commits. The key look-up
// of every ticket call read three or four pages of the file again each time, since every commit of
// another connection empties the reader's cache.
//
// The number itself is read once for all the calls that ask for it in one turn of the event loop, after
// that turn's input was read: a read of the WAL's header under the file's lock, some 8 µs a call under a
// ticket load, shared by about ten calls there. Read after each of those calls arrived, it counts every
// commit made before any of them did, as a read of its own would.

/** Reads the reader connection's `data_version`; undefined when it cannot be read (then every call reads). */
export type DataVersion = () => number | undefined;

/** The most reads kept for one version: ids that exist nowhere cannot make the copies grow without end. */
const MAX_VALUES = 1024;

/**
 * `read`, answered from the read begun at the same data version when there is one, ended or still under
 * way. A read is kept only for the version read before it began: a commit between the two makes the value
 * newer than its version, so a later call sees a later version and reads again; never the other way round.
 * A call that joins a read begun before it arrived gets every commit made before it arrived all the same:
 * its version, read after it arrived, is the one read before that read began, so no commit came between.
 */
export function readsWhileUnchanged<K, V>(
  dataVersion: DataVersion | undefined,
  read: (key: K) => Promise<V>,
): (key: K) => Promise<V> {
  // PostgreSQL and SQLite in memory have no such number: every call reads.
  if (dataVersion === undefined) return read;
  const versionNow = readAfterThisTurn(dataVersion);
  let keptAt: number | undefined;
  const kept = new Map<K, Promise<V>>();
  return async (key) => {
    const version = await versionNow();
    if (version === undefined) return read(key);
    if (version !== keptAt) {
      kept.clear();
      keptAt = version;
    }
    let value = kept.get(key);
    if (value === undefined) {
      // The calls that ask for a key while its first read at this version is under way share it (after a
      // commit under load, every call of the key in flight would read it again).
      const reading = read(key);
      if (kept.size >= MAX_VALUES) kept.clear();
      kept.set(key, reading);
      // A failed read answers its callers only: the next call reads again.
      reading.catch(() => {
        if (kept.get(key) === reading) kept.delete(key);
      });
      value = reading;
    }
    return value;
  };
}

/**
 * The version for the calls that ask in this turn of the event loop: read once, in the turn's check phase
 * (after its input was read and handled), and answered to every call that asked before the read.
 */
function readAfterThisTurn(dataVersion: DataVersion): () => Promise<number | undefined> {
  let next: Promise<number | undefined> | undefined;
  return () =>
    (next ??= new Promise((resolve) => {
      setImmediate(() => {
        next = undefined;
        resolve(dataVersion());
      });
    }));
}
