import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import {
  CATALOG_CACHE_MS,
  CATALOG_RECHECK_MS,
  createCatalogCache,
} from '../../src/helpdesk/catalog-cache.js';
import { createCatalogService, type CatalogService } from '../../src/helpdesk/catalog-service.js';
import type { PartnerSystem } from '../../src/helpdesk/system-repository.js';
import { describeEachDialect, ManualClock } from '../helper.js';

// The catalog the ticket API reads is kept in the process (src/helpdesk/catalog-cache.ts; README,
// Running a fleet: a change made through any process's admin API is honoured by all of them within a
// second): a change through this process is seen by the next call, one written by another process
// within a second, and the tables are not read on every call.

const system: PartnerSystem = {
  identifier: 'alpha',
  name: 'Alpha',
  active: true,
  scopes: ['help-desk-ticket.create'],
  rateLimitPerMinute: 120,
  keyGraceSeconds: 86_400,
  defaultCategoryId: null,
  releasedCategoryIds: [],
  hasKey: true,
  previousValidUntil: null,
  keyLastUsedAt: null,
  previousKeyLastUsedAt: null,
  createdAt: 0,
  updatedAt: 0,
};

/** Another process's write: straight to the database, past this process's catalog service. */
const writtenElsewhere = (db: Db, id: string) =>
  db.insertInto('hd_companies').values({ id, name: id.toUpperCase(), active: 1 }).execute();

const companyIds = async (catalog: CatalogService) =>
  (await catalog.ticketCatalog(system)).companyIds.slice().sort();

describeEachDialect('catalog cache', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  let clock: ManualClock;
  let catalog: CatalogService;

  beforeEach(async () => {
    const opened = await dialect.open();
    db = opened.db;
    drop = () => opened.drop();
    clock = new ManualClock();
    catalog = createCatalogService({ db, clock });
  });
  afterEach(() => drop());

  it('a catalog change through this process is read by the very next call (docs/operations.md, Running a fleet)', async () => {
    expect(await companyIds(catalog)).toEqual([]);
    await catalog.putEntry('hd_companies', 'acme', { name: 'Acme', active: true });
    expect(await companyIds(catalog)).toEqual(['acme']);
    expect((await catalog.ticketOptions(system)).companies).toEqual([{ id: 'acme', name: 'Acme' }]);
  });

  it("another process's change is read within a second, not on every call (docs/operations.md, Running a fleet)", async () => {
    expect(await companyIds(catalog)).toEqual([]);
    await writtenElsewhere(db, 'beta');
    clock.advance(CATALOG_CACHE_MS - 1);
    // Still the copy read a moment ago: no round trip to the catalog tables on this call.
    expect(await companyIds(catalog)).toEqual([]);
    clock.advance(1);
    expect(await companyIds(catalog)).toEqual(['beta']);
  });

  it('a category deleted through this process is gone from the next call', async () => {
    await catalog.putEntry('hd_category_types', 1, { name: 'Incidente', description: null });
    await catalog.putEntry('hd_categories', 10, {
      name: 'Terminal',
      description: null,
      type_id: 1,
      default_priority_id: null,
    });
    const released = { ...system, releasedCategoryIds: [10] };
    expect((await catalog.ticketCatalog(released)).categories.has(10)).toBe(true);
    await catalog.deleteCategory(10);
    expect((await catalog.ticketCatalog(released)).categories.has(10)).toBe(false);
  });
});

describeEachDialect('catalog cache: the re-read for an unknown id', (dialect) => {
  let db: Db;
  let drop: () => Promise<void>;
  let reads: number;
  let cache: ReturnType<typeof createCatalogCache>;

  beforeEach(async () => {
    const opened = await dialect.open();
    db = opened.db;
    drop = () => opened.drop();
    reads = 0;
    // Counts the reads of the catalog: each asks for the companies once.
    const counted = new Proxy(db, {
      get(target, property) {
        if (property === 'selectFrom')
          return (table: string) => {
            if (table === 'hd_companies') reads += 1;
            return target.selectFrom(table as never);
          };
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    cache = createCatalogCache({ db: counted, clock: new ManualClock() });
  });
  afterEach(() => drop());

  it('a re-read begins after the call that asks for it, and sees what was committed before', async () => {
    await cache.get();
    await writtenElsewhere(db, 'beta');
    expect((await cache.get()).companies.map((c) => c.id)).toEqual([]);
    expect((await cache.fresh()).companies.map((c) => c.id)).toEqual(['beta']);
    // The copy read is kept for the calls after it.
    expect((await cache.get()).companies.map((c) => c.id)).toEqual(['beta']);
  });

  it('re-reads begin at most once per CATALOG_RECHECK_MS: calls asking meanwhile wait and share the next', async () => {
    await writtenElsewhere(db, 'gamma');
    const started = performance.now();
    const first = cache.fresh();
    // Asked right after that re-read began: one more, after the interval, shared by all fifty.
    const copies = await Promise.all(Array.from({ length: 50 }, () => cache.fresh()));
    expect((await first).companies.map((c) => c.id)).toEqual(['gamma']);
    expect(reads).toBe(2);
    expect(performance.now() - started).toBeGreaterThanOrEqual(CATALOG_RECHECK_MS - 5);
    for (const copy of copies) expect(copy.companies.map((c) => c.id)).toEqual(['gamma']);
    // After a quiet interval, a re-read begins at once.
    await new Promise((resolve) => setTimeout(resolve, CATALOG_RECHECK_MS));
    const quiet = performance.now();
    await cache.fresh();
    expect(reads).toBe(3);
    expect(performance.now() - quiet).toBeLessThan(CATALOG_RECHECK_MS);
  });
});
