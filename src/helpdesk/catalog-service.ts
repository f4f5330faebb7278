import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { putRow } from '../db/upsert.js';
import type { FleetNotices } from '../fleet/fleet-notices.js';
import { createCatalogCache } from './catalog-cache.js';
import { systemCategoryIds, ticketCatalog, ticketOptions, type TicketOptions } from './catalog-repository.js';
import { listSystems, type PartnerSystem } from './system-repository.js';
import { clearTicketCategory } from './ticket-repository.js';
import type { TicketCatalog } from './ticket-request.js';

// The help-desk catalog (docs/admin-rules.md, Help desk): companies, category types, priorities, categories,
// support levels and natures the operator writes, and the ticket options a partner system reads from
// them. Methods return a refusal as a value, before anything is written.

/** A catalog table the operator writes with PUT. */
export type CatalogTable =
  | 'hd_companies'
  | 'hd_category_types'
  | 'hd_priorities'
  | 'hd_categories'
  | 'hd_support_levels'
  | 'hd_natures';

/** A catalog entry as stored and shown: its columns, booleans as booleans. */
export type CatalogEntry = Record<string, unknown>;

const KEY_COLUMN: Record<CatalogTable, 'id' | 'identifier'> = {
  hd_companies: 'id',
  hd_category_types: 'id',
  hd_priorities: 'id',
  hd_categories: 'id',
  hd_support_levels: 'id',
  hd_natures: 'identifier',
};

/** The wire form of a row: booleans as booleans. */
function shown(row: Record<string, unknown>): CatalogEntry {
  return 'active' in row ? { ...row, active: row.active === 1 } : row;
}

function stored(values: Record<string, unknown>): Record<string, unknown> {
  return 'active' in values ? { ...values, active: values.active === true ? 1 : 0 } : values;
}

/**
 * What putting a catalog entry came to: the entry, or the id a category names that the catalog does not
 * have (`param`: the field naming it).
 */
export type PutEntryOutcome =
  | { ok: true; created: boolean; entry: CatalogEntry }
  | { ok: false; reason: 'unknown_category_type' | 'unknown_priority'; param: string; id: number };

/** The help-desk catalog service. */
export function createCatalogService(deps: {
  db: Db;
  clock: Clock;
  /** How the fleet's processes tell each other of a change (docs/operations.md, Running a fleet); default: none. */
  notices?: Pick<FleetNotices, 'publish' | 'subscribe'>;
}) {
  const { db, clock, notices } = deps;
  const cache = createCatalogCache({ db, clock });
  notices?.subscribe((notice) => {
    if (notice === 'helpdesk.catalog') cache.invalidate();
  });

  /**
   * Runs a change of the catalog; this process's copy is read again after it, whatever its outcome, and
   * every other process is told to drop its copy before the change is answered.
   */
  async function changing<T>(change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      cache.invalidate();
      await notices?.publish('helpdesk.catalog');
    }
  }

  /** True when the table has an entry with this key. */
  async function exists(table: CatalogTable, key: string | number): Promise<boolean> {
    const column = KEY_COLUMN[table];
    const row = await db
      .selectFrom(table)
      .select(column as never)
      .where(column as never, '=', key as never)
      .executeTakeFirst();
    return row !== undefined;
  }

  async function getEntry(table: CatalogTable, key: string | number): Promise<CatalogEntry> {
    const column = KEY_COLUMN[table];
    const row = await db
      .selectFrom(table)
      .selectAll()
      .where(column as never, '=', key as never)
      .executeTakeFirstOrThrow();
    return shown(row);
  }

  return {
    exists,

    /**
     * Creates or replaces a catalog entry; returns it and whether it was created. A category naming a
     * category type or a priority the catalog does not have is refused, and nothing is written.
     */
    async putEntry(
      table: CatalogTable,
      key: string | number,
      values: Record<string, unknown>,
    ): Promise<PutEntryOutcome> {
      if (table === 'hd_categories') {
        if (!(await exists('hd_category_types', values.type_id as number))) {
          return {
            ok: false,
            reason: 'unknown_category_type',
            param: 'type_id',
            id: values.type_id as number,
          };
        }
        const priority = values.default_priority_id as number | null;
        if (priority !== null && !(await exists('hd_priorities', priority))) {
          return { ok: false, reason: 'unknown_priority', param: 'default_priority_id', id: priority };
        }
      }
      const created = await changing(() => putRow(db, table, KEY_COLUMN[table], key, stored(values)));
      return { ok: true, created, entry: await getEntry(table, key) };
    },

    /** Every entry of a table, by key. */
    async listEntries(table: CatalogTable): Promise<CatalogEntry[]> {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .orderBy(KEY_COLUMN[table] as never)
        .execute();
      return rows.map((row) => shown(row as Record<string, unknown>));
    },

    /** Deletes a category: tickets keep `category_id` null; systems lose it as default or release. */
    async deleteCategory(
      categoryId: number,
    ): Promise<{ ok: true } | { ok: false; reason: 'unknown_category' }> {
      if (!(await exists('hd_categories', categoryId))) return { ok: false, reason: 'unknown_category' };
      const now = clock.now();
      await changing(() =>
        db.transaction().execute(async (trx) => {
          await clearTicketCategory(trx, categoryId);
          for (const found of await listSystems(trx)) {
            const released = found.releasedCategoryIds.filter((released) => released !== categoryId);
            if (
              found.defaultCategoryId !== categoryId &&
              released.length === found.releasedCategoryIds.length
            )
              continue;
            await trx
              .updateTable('hd_systems')
              .set({
                default_category_id: found.defaultCategoryId === categoryId ? null : found.defaultCategoryId,
                released_category_ids: JSON.stringify(released),
                updated_at: now,
              })
              .where('identifier', '=', found.identifier)
              .execute();
          }
          await trx.deleteFrom('hd_categories').where('id', '=', categoryId).execute();
        }),
      );
      return { ok: true };
    },

    /**
     * The options a system sees. A category the system names (its default, those released to it) that the
     * copy does not know was created a moment ago through another process: the catalog is read again.
     */
    async ticketOptions(system: PartnerSystem): Promise<TicketOptions> {
      const catalog = await cache.get();
      const known = systemCategoryIds(system).every((id) => catalog.categories.has(id));
      return ticketOptions(known ? catalog : await cache.fresh(), system);
    },

    /**
     * What a ticket request of the system is checked against (the same copy of the catalog); with
     * `fresh`, a copy read after this call, for a request naming an id the copy did not know.
     */
    async ticketCatalog(system: PartnerSystem, options: { fresh?: boolean } = {}): Promise<TicketCatalog> {
      return ticketCatalog(await (options.fresh === true ? cache.fresh() : cache.get()), system);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
