import { sql } from 'kysely';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import type { KeyKind } from './key-audit-repository.js';

// The last use of each key (docs/back-office.md, Audit trail and last use), kept off the request's path: a call whose
// key was accepted only marks it in memory (a map write); a periodic flush writes each key's last use
// at most once per interval, as `greatest(stored, marked)`, so that the processes of a fleet, each
// flushing what it saw, never move a stored instant back. The flush at shutdown writes what is left.
//
// A mark names the key text by its hash, so a rotation between the mark and the flush still lands on the
// right column: the text that was current is then the previous one.

/** Where each kind of key is stored: its table and the column of its identifier. */
const TABLES = {
  system: { table: 'hd_systems', id: 'identifier' },
  merchant: { table: 'pos_keys', id: 'id' },
} as const;

/**
 * Moves the last use of the key text whose hash is `keyHash` (current or previous) up to `at`; a later
 * instant already stored stays. Does nothing when the text is neither (forgotten meanwhile).
 */
async function writeLastUse(db: Db, kind: KeyKind, id: string, keyHash: string, at: number): Promise<void> {
  const { table, id: idColumn } = TABLES[kind];
  const greatest = isPostgres(db) ? sql.raw('greatest') : sql.raw('max');
  const later = (column: string, hashColumn: string) =>
    sql`case when ${sql.ref(hashColumn)} = ${keyHash}
      then ${greatest}(coalesce(${sql.ref(column)}, 0), ${at}) else ${sql.ref(column)} end`;
  await sql`update ${sql.table(table)} set
      current_key_last_used_at = ${later('current_key_last_used_at', 'current_key_hash')},
      previous_key_last_used_at = ${later('previous_key_last_used_at', 'previous_key_hash')}
    where ${sql.ref(idColumn)} = ${id}
      and (current_key_hash = ${keyHash} or previous_key_hash = ${keyHash})`.execute(db);
}

interface Mark {
  kind: KeyKind;
  id: string;
  keyHash: string;
  /** The latest accepted use seen by this process (ms). */
  usedAt: number;
  /** The use last written (ms); null: none yet. */
  writtenUsedAt: number | null;
  /** When it was last written, by this process's clock (ms). */
  writtenAt: number;
}

/** What a flush did: rows written, and marks still waiting for their interval. */
export interface FlushResult {
  written: number;
  waiting: number;
}

/**
 * The in-memory marks of key use and their flush. `intervalMs`: the shortest time between two writes of
 * one key by this process (60 s in service).
 */
export function createKeyUse(deps: {
  db: Db;
  clock: Clock;
  intervalMs: number;
  onError?: (error: unknown) => void;
}) {
  const { db, clock, intervalMs } = deps;
  const marks = new Map<string, Mark>();
  let running: Promise<unknown> = Promise.resolve();
  let writes = 0;

  async function flushNow(all: boolean): Promise<FlushResult> {
    const now = clock.now();
    let written = 0;
    let waiting = 0;
    for (const [name, mark] of marks) {
      const dirty = mark.writtenUsedAt === null || mark.usedAt > mark.writtenUsedAt;
      if (!dirty) {
        // A key not used for a while leaves memory; its next use marks it again.
        if (now - mark.writtenAt >= intervalMs * 10) marks.delete(name);
        continue;
      }
      if (!all && now - mark.writtenAt < intervalMs) {
        waiting += 1;
        continue;
      }
      const at = mark.usedAt;
      try {
        await writeLastUse(db, mark.kind, mark.id, mark.keyHash, at);
      } catch (error) {
        // The database is away: the marks stay, the next flush tries again.
        deps.onError?.(error);
        return { written, waiting: waiting + 1 };
      }
      mark.writtenUsedAt = at;
      mark.writtenAt = now;
      written += 1;
      writes += 1;
    }
    return { written, waiting };
  }

  return {
    /** Marks an accepted use of a key text (its hash) at `at`: a map write, nothing awaited. */
    mark(kind: KeyKind, id: string, keyHash: string, at: number): void {
      const name = `${kind}\u0000${id}\u0000${keyHash}`;
      const mark = marks.get(name);
      if (mark === undefined)
        marks.set(name, { kind, id, keyHash, usedAt: at, writtenUsedAt: null, writtenAt: -Infinity });
      else if (at > mark.usedAt) mark.usedAt = at;
    },
    /**
     * Writes the marks whose key was not written within the interval (`all`: every mark, at shutdown).
     * Flushes never overlap: a second one waits for the first.
     */
    flush(options: { all?: boolean } = {}): Promise<FlushResult> {
      const next = running.then(() => flushNow(options.all === true));
      running = next.catch(() => undefined);
      return next;
    },
    /** Rows written since start (for tests and the log). */
    writes: () => writes,
  };
}

export type KeyUse = ReturnType<typeof createKeyUse>;
