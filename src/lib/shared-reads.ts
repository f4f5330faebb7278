// Reads of the same key by concurrent callers, shared without ever answering from before a caller
// arrived. A caller never joins a read already begun (it could have begun before a change the caller
// was told of, and answer the state before it): it starts one, or joins the next one, which begins as
// soon as the one in progress ends. Every answer was therefore read after its caller arrived, as its
// own read would have been, and a key revoked or rotated is refused at once, as without sharing; under
// load a key's look-ups are one at a time instead of one per call (the ticket API's key verification
// on PostgreSQL: a round trip per call, each waking a database process).

interface Reads<V> {
  /** The read in progress. */
  running: Promise<V>;
  /** The read that begins once `running` ended, with every caller that arrived meanwhile. */
  next?: Promise<V>;
}

/** `read`, with concurrent calls for one key shared as above; a failed read fails its callers only. */
export function sharedReads<K, V>(read: (key: K) => Promise<V>): (key: K) => Promise<V> {
  const inProgress = new Map<K, Reads<V>>();

  function begin(key: K): Promise<V> {
    const reads: Reads<V> = { running: read(key) };
    inProgress.set(key, reads);
    const ended = () => {
      if (reads.next === undefined && inProgress.get(key) === reads) inProgress.delete(key);
    };
    reads.running.then(ended, ended);
    return reads.running;
  }

  return (key) => {
    const reads = inProgress.get(key);
    if (reads === undefined) return begin(key);
    const settled = () => begin(key);
    reads.next ??= reads.running.then(settled, settled);
    return reads.next;
  };
}
