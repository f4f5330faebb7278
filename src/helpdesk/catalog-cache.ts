import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { readCatalogSnapshot, type CatalogSnapshot } from './catalog-repository.js';

// The help-desk catalog as every ticket call reads it, kept in the process (docs/operations.md, Running a fleet).
// Reading the five catalog tables on every call was most of a ticket's database work; the catalog changes
// by hand. Keys and a system's own settings are not kept: they come with the key's row, read for every call
// (on a SQLite file, answered again only until the file's next commit: src/db/unchanged-reads.ts).
// A copy is dropped at once by a change through this process, and, with Redis, by a change through any
// process of the fleet (catalog-service.ts); without that notice, within a second. An id the copy does
// not know may have been created a moment ago through another process, so the ticket path asks for a
// copy read after the call arrived (`fresh`) before it answers a fallback or a refusal on it.

/** How long a process serves its copy of the catalog before reading it again. */
export const CATALOG_CACHE_MS = 1000;

/**
 * The shortest time between two reads forced by ids the copy does not know (`fresh`): ids that exist
 * nowhere cost a process at most ten catalog reads a second, however many calls name them.
 */
export const CATALOG_RECHECK_MS = 100;

/**
 * The catalog, read at most once a second per process and at once after a change (`invalidate`). A copy
 * is dated from when its read began, so a change another process committed after that is read again at
 * most a second after it committed.
 */
export function createCatalogCache(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  let cached: { snapshot: CatalogSnapshot; readAt: number; order: number } | undefined;
  let reading: Promise<CatalogSnapshot> | undefined;
  /** Bumped by every change: a read begun before a change is not kept. */
  let generation = 0;
  /** Reads in the order they began: a read that ends late never replaces a copy read after it. */
  let reads = 0;

  function read(): Promise<CatalogSnapshot> {
    const startedAt = clock.now();
    const startedGeneration = generation;
    const order = ++reads;
    const pending = readCatalogSnapshot(db).then(
      (snapshot) => {
        if (generation === startedGeneration && (cached === undefined || cached.order < order))
          cached = { snapshot, readAt: startedAt, order };
        if (reading === pending) reading = undefined;
        return snapshot;
      },
      (error: unknown) => {
        if (reading === pending) reading = undefined;
        throw error;
      },
    );
    reading = pending;
    return pending;
  }

  /** The forced read that has not begun yet: every caller that joins it arrived before it begins. */
  let nextForced: Promise<CatalogSnapshot> | undefined;
  /** When the last forced read began, on the monotonic timer (pacing only, not a domain time). */
  let lastForcedAt = Number.NEGATIVE_INFINITY;

  function forced(): Promise<CatalogSnapshot> {
    let begin!: () => void;
    const pending = new Promise<CatalogSnapshot>((resolve, reject) => {
      begin = () => {
        if (nextForced === pending) nextForced = undefined;
        lastForcedAt = performance.now();
        read().then(resolve, reject);
      };
    });
    nextForced = pending;
    const wait = lastForcedAt + CATALOG_RECHECK_MS - performance.now();
    if (wait > 0) setTimeout(begin, wait);
    else begin();
    return pending;
  }

  return {
    /** The catalog as of at most a second ago (concurrent callers share one read). */
    get(): Promise<CatalogSnapshot> {
      const now = clock.now();
      if (cached !== undefined && now - cached.readAt < CATALOG_CACHE_MS && now >= cached.readAt)
        return Promise.resolve(cached.snapshot);
      return reading ?? read();
    },
    /**
     * A copy whose read began after this call: for a call naming an id the copy does not know. Such
     * reads begin at most once per CATALOG_RECHECK_MS; callers in between wait for the next and share it.
     */
    fresh(): Promise<CatalogSnapshot> {
      return nextForced ?? forced();
    },
    /** Forgets the copy after a change (through this process, or announced by another): the next call reads it. */
    invalidate(): void {
      generation += 1;
      cached = undefined;
      reading = undefined;
    },
  };
}
