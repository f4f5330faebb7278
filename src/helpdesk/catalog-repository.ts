import type { Db } from '../db/database.js';
import type { PartnerSystem } from './system-repository.js';
import type { TicketCatalog } from './ticket-request.js';

const collator = new Intl.Collator('pt-BR');

/** Ticket options as the options route answers them (helpdesk-ticket-api.md, Ticket options). */
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
function systemCategoryIds(system: PartnerSystem): number[] {
  const ids = system.defaultCategoryId === null ? [] : [system.defaultCategoryId];
  return [...new Set([...ids, ...system.releasedCategoryIds])];
}

async function systemCategories(db: Db, system: PartnerSystem) {
  const ids = systemCategoryIds(system);
  if (ids.length === 0) return [];
  return db
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
    .where('c.id', 'in', ids)
    .execute();
}

/** Active companies, sorted by name with the Portuguese collator. */
async function activeCompanies(db: Db) {
  const rows = await db.selectFrom('hd_companies').select(['id', 'name']).where('active', '=', 1).execute();
  return rows.sort((a, b) => collator.compare(a.name, b.name) || collator.compare(a.id, b.id));
}

/** Active natures, sorted by name with the Portuguese collator. */
async function activeNatures(db: Db) {
  const rows = await db
    .selectFrom('hd_natures')
    .select(['identifier', 'name'])
    .where('active', '=', 1)
    .execute();
  return rows.sort(
    (a, b) => collator.compare(a.name, b.name) || collator.compare(a.identifier, b.identifier),
  );
}

/** The options a system sees: sorted as the document says, only what it may choose. */
export async function ticketOptions(db: Db, system: PartnerSystem): Promise<TicketOptions> {
  const [companies, categories, priorities, supportLevels, natures] = await Promise.all([
    activeCompanies(db),
    systemCategories(db, system),
    db.selectFrom('hd_priorities').selectAll().orderBy('level').orderBy('id').execute(),
    db.selectFrom('hd_support_levels').selectAll().orderBy('id').execute(),
    activeNatures(db),
  ]);
  categories.sort(
    (a, b) => collator.compare(a.type_name, b.type_name) || collator.compare(a.name, b.name) || a.id - b.id,
  );
  return {
    companies,
    categories: categories.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      default: c.id === system.defaultCategoryId,
      default_priority_id: c.default_priority_id,
      type: { id: c.type_id, name: c.type_name, description: c.type_description },
    })),
    priorities: priorities.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      level: p.level,
      response_time_hours: p.response_time_hours,
    })),
    support_levels: supportLevels.map((s) => ({ id: s.id, name: s.name, description: s.description })),
    natures,
  };
}

/** What a ticket request of a system is checked against. */
export async function ticketCatalog(db: Db, system: PartnerSystem): Promise<TicketCatalog> {
  const [companies, categories, priorities, supportLevels, natures] = await Promise.all([
    db.selectFrom('hd_companies').select('id').where('active', '=', 1).execute(),
    systemCategories(db, system),
    db.selectFrom('hd_priorities').select('id').execute(),
    db.selectFrom('hd_support_levels').select('id').execute(),
    db.selectFrom('hd_natures').select('identifier').where('active', '=', 1).execute(),
  ]);
  const categoryMap = new Map(categories.map((c) => [c.id, { defaultPriorityId: c.default_priority_id }]));
  const defaultCategoryId =
    system.defaultCategoryId !== null && categoryMap.has(system.defaultCategoryId)
      ? system.defaultCategoryId
      : null;
  return {
    companyIds: companies.map((c) => c.id),
    natureIdentifiers: natures.map((n) => n.identifier),
    defaultCategoryId,
    categories: categoryMap,
    priorityIds: new Set(priorities.map((p) => p.id)),
    supportLevelIds: new Set(supportLevels.map((s) => s.id)),
  };
}
