import type { Db } from '../db/database.js';
import type { PartnerSystem } from './system-repository.js';
import type { TicketCatalog } from './ticket-request.js';

const collator = new Intl.Collator('pt-BR');

/** Ticket options as the options route answers them (docs/ticket-api.md, Ticket options). */
export interface TicketOptions {
  companies: { id: string; name: string }[];
  categories: {
    id: number;
    name: string;
    description: string | null;
    default: boolean;
    default_priority_id: number | null;
    type: { id: number; name: string; description: string | null };
  }[];
  priorities: {
    id: number;
    name: string;
    description: string | null;
    level: number;
    response_time_hours: number;
  }[];
  support_levels: { id: number; name: string; description: string | null }[];
  natures: { identifier: string; name: string }[];
}

/** The ids of the categories a system may choose: its default and those released to it. */
export function systemCategoryIds(system: PartnerSystem): number[] {
  const ids = system.defaultCategoryId === null ? [] : [system.defaultCategoryId];
  return [...new Set([...ids, ...system.releasedCategoryIds])];
}

/**
 * The whole help-desk catalog as the ticket API reads it: every system's options and checks are drawn
 * from this, so that one read serves every call until the catalog changes (catalog-cache.ts).
 */
export interface CatalogSnapshot {
  /** Active companies in the database's order (the look-up by id takes the first match). */
  companies: readonly { id: string; name: string }[];
  /** The same, sorted by name with the Portuguese collator (the options route). */
  companiesByName: readonly { id: string; name: string }[];
  /** Every category that has its type, by id. */
  categories: ReadonlyMap<number, TicketOptions['categories'][number] & { typeName: string }>;
  /** Priorities by level, then id. */
  priorities: readonly TicketOptions['priorities'][number][];
  /** Support levels by id. */
  supportLevels: readonly TicketOptions['support_levels'][number][];
  /** Active natures in the database's order. */
  natures: readonly { identifier: string; name: string }[];
  /** The same, sorted by name with the Portuguese collator. */
  naturesByName: readonly { identifier: string; name: string }[];
}

/** Reads the catalog tables (five queries, each whole: the catalog is small). */
export async function readCatalogSnapshot(db: Db): Promise<CatalogSnapshot> {
  const [companies, categories, priorities, supportLevels, natures] = await Promise.all([
    db.selectFrom('hd_companies').select(['id', 'name']).where('active', '=', 1).execute(),
    db
      .selectFrom('hd_categories as c')
      .innerJoin('hd_category_types as t', 't.id', 'c.type_id')
      .select([
        'c.id',
        'c.name',
        'c.description',
        'c.default_priority_id',
        't.id as type_id',
        't.name as type_name',
        't.description as type_description',
      ])
      .execute(),
    db.selectFrom('hd_priorities').selectAll().orderBy('level').orderBy('id').execute(),
    db.selectFrom('hd_support_levels').selectAll().orderBy('id').execute(),
    db.selectFrom('hd_natures').select(['identifier', 'name']).where('active', '=', 1).execute(),
  ]);
  return {
    companies,
    companiesByName: [...companies].sort(
      (a, b) => collator.compare(a.name, b.name) || collator.compare(a.id, b.id),
    ),
    categories: new Map(
      categories.map((c) => [
        c.id,
        {
          id: c.id,
          name: c.name,
          description: c.description,
          default: false,
          default_priority_id: c.default_priority_id,
          type: { id: c.type_id, name: c.type_name, description: c.type_description },
          typeName: c.type_name,
        },
      ]),
    ),
    priorities: priorities.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      level: p.level,
      response_time_hours: p.response_time_hours,
    })),
    supportLevels: supportLevels.map((s) => ({ id: s.id, name: s.name, description: s.description })),
    natures,
    naturesByName: [...natures].sort(
      (a, b) => collator.compare(a.name, b.name) || collator.compare(a.identifier, b.identifier),
    ),
  };
}

/** The options a system sees: sorted as the document says, only what it may choose. */
export function ticketOptions(catalog: CatalogSnapshot, system: PartnerSystem): TicketOptions {
  const categories = systemCategoryIds(system).flatMap((id) => {
    const category = catalog.categories.get(id);
    return category === undefined ? [] : [category];
  });
  categories.sort(
    (a, b) => collator.compare(a.typeName, b.typeName) || collator.compare(a.name, b.name) || a.id - b.id,
  );
  return {
    companies: catalog.companiesByName.map((c) => ({ id: c.id, name: c.name })),
    categories: categories.map(({ typeName: _typeName, ...c }) => ({
      ...c,
      default: c.id === system.defaultCategoryId,
    })),
    priorities: catalog.priorities.map((p) => ({ ...p })),
    support_levels: catalog.supportLevels.map((s) => ({ ...s })),
    natures: catalog.naturesByName.map((n) => ({ identifier: n.identifier, name: n.name })),
  };
}

/** The parts of a ticket request's catalog that every system shares, built once per snapshot. */
type SharedTicketCatalog = Pick<
  TicketCatalog,
  'companyIds' | 'natureIdentifiers' | 'priorityIds' | 'supportLevelIds' | 'knownCategoryIds'
>;

const sharedTicketCatalogs = new WeakMap<CatalogSnapshot, SharedTicketCatalog>();

/** The lists and sets of a snapshot that every ticket call reads, built by the first call that reads it. */
function sharedTicketCatalog(catalog: CatalogSnapshot): SharedTicketCatalog {
  let shared = sharedTicketCatalogs.get(catalog);
  if (shared === undefined) {
    shared = {
      companyIds: catalog.companies.map((c) => c.id),
      natureIdentifiers: catalog.natures.map((n) => n.identifier),
      priorityIds: new Set(catalog.priorities.map((p) => p.id)),
      supportLevelIds: new Set(catalog.supportLevels.map((s) => s.id)),
      knownCategoryIds: new Set(catalog.categories.keys()),
    };
    sharedTicketCatalogs.set(catalog, shared);
  }
  return shared;
}

/** What a ticket request of a system is checked against. */
export function ticketCatalog(catalog: CatalogSnapshot, system: PartnerSystem): TicketCatalog {
  const categoryMap = new Map<number, { defaultPriorityId: number | null }>();
  for (const id of systemCategoryIds(system)) {
    const category = catalog.categories.get(id);
    if (category !== undefined) categoryMap.set(id, { defaultPriorityId: category.default_priority_id });
  }
  const defaultCategoryId =
    system.defaultCategoryId !== null && categoryMap.has(system.defaultCategoryId)
      ? system.defaultCategoryId
      : null;
  return { ...sharedTicketCatalog(catalog), defaultCategoryId, categories: categoryMap };
}
