import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../../src/db/database.js';
import { CATALOG_CACHE_MS } from '../../src/helpdesk/catalog-cache.js';
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

  it('a catalog change through this process is read by the very next call (README, Running a fleet)', async () => {
    expect(await companyIds(catalog)).toEqual([]);
    await catalog.putEntry('hd_companies', 'acme', { name: 'Acme', active: true });
    expect(await companyIds(catalog)).toEqual(['acme']);
    expect((await catalog.ticketOptions(system)).companies).toEqual([{ id: 'acme', name: 'Acme' }]);
  });

  it("another process's change is read within a second, not on every call (README, Running a fleet)", async () => {
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
