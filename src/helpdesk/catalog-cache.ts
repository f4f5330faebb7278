import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { readCatalogSnapshot, type CatalogSnapshot } from './catalog-repository.js';

// The help-desk catalog as every ticket call reads it, kept in the process (README, Running a fleet: a
// change made through any process's admin API is honoured by all of them within a second). Reading the
// five catalog tables on every call was most of a ticket's database work; the catalog changes by hand.
// Keys and a system's own settings are not cached: they come with the key's row on every call.

/** How long a process serves its copy of the catalog before reading it again. */
export const CATALOG_CACHE_MS = 1000;

/**
 * The catalog, read at most once a second per process and at once after a change made through this
 * process (`invalidate`). A copy is dated from when its read began, so a change another process
 * committed after that is read again at most a second after it committed.
 */
export function createCatalogCache(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;
  let cached: { snapshot: CatalogSnapshot; readAt: number } | undefined;
  let reading: Promise<CatalogSnapshot> | undefined;
  /** Bumped by every change through this process: a read begun before a change is not kept. */
  let generation = 0;

  function read(): Promise<CatalogSnapshot> {
    const startedAt = clock.now();
    const startedGeneration = generation;
    const pending = readCatalogSnapshot(db).then(
      (snapshot) => {
        if (generation === startedGeneration) cached = { snapshot, readAt: startedAt };
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

  return {
    /** The catalog as of at most a second ago (concurrent callers share one read). */
    get(): Promise<CatalogSnapshot> {
      const now = clock.now();
      if (cached !== undefined && now - cached.readAt < CATALOG_CACHE_MS && now >= cached.readAt)
        return Promise.resolve(cached.snapshot);
      return reading ?? read();
    },
    /** Forgets the copy after a change through this process: the next call reads the change. */
    invalidate(): void {
      generation += 1;
      cached = undefined;
      reading = undefined;
    },
  };
}

export type CatalogCache = ReturnType<typeof createCatalogCache>;
