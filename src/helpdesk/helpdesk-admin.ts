import { z } from 'zod';
import { displayName, storedText } from '../lib/input-text.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { putRow } from '../db/upsert.js';
import { generateApiKey, hashApiKey } from '../lib/api-key.js';
import { Problem } from '../errors/problem.js';
import { wireTime } from '../lib/wire-time.js';
import type { MaintenanceSwitch } from './maintenance-switch.js';
import { KEY_PREFIX, SCOPES } from './ticket-api-gates.js';
import { clearTicketCategory, listTickets, type Ticket } from './ticket-repository.js';
import {
  findSystem,
  listSystems,
  putSystem,
  rotateSystemKey,
  stopPreviousKey,
  withoutKeys,
  type PartnerSystem,
} from './system-repository.js';

// The help-desk half of the back office (admin-api.md, Help desk): the schemas of what the operator
// sends, and the service the admin API, a CLI or a web panel call. Bad input is refused before anything
// is written.

/** Identifier of a partner system: also the `{system}` of the webhook path. */
export const SYSTEM_IDENTIFIER = /^[a-z0-9_-]{1,40}$/;
/** Identifier of a company or a nature (the ticket's `company` and `nature`). */
export const CATALOG_IDENTIFIER = /^[A-Za-z0-9_.-]{1,64}$/;
/** Option descriptions are at most 500 characters (helpdesk-ticket-api.md, Limits). */
const DESCRIPTION_MAX = 500;

const name = displayName;
const description = storedText(DESCRIPTION_MAX).nullable().default(null);
const id = z.number().int().min(1).max(2_147_483_647);

export const companyInput = z.strictObject({ name, active: z.boolean().default(true) });
export const categoryTypeInput = z.strictObject({ name, description });
export const priorityInput = z.strictObject({
  name,
  description,
  level: id,
  response_time_hours: z.number().int().min(0).max(100_000),
});
export const categoryInput = z.strictObject({
  name,
  description,
  type_id: id,
  default_priority_id: id.nullable().default(null),
});
export const supportLevelInput = z.strictObject({ name, description });
export const natureInput = z.strictObject({ name, active: z.boolean().default(true) });
export const systemInput = z.strictObject({
  name,
  active: z.boolean().default(true),
  scopes: z
    .array(z.enum(SCOPES))
    .default(['help-desk-ticket.create'])
    .transform((scopes) => [...new Set(scopes)]),
  rate_limit_per_minute: z.number().int().min(1).max(1_000_000).default(120),
  key_grace_seconds: z
    .number()
    .int()
    .min(0)
    .max(365 * 86400)
    .default(86400),
  default_category_id: id.nullable(),
  released_category_ids: z
    .array(id)
    .max(1000)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});
export const maintenanceInput = z.strictObject({
  enabled: z.boolean(),
  retry_after_seconds: z.number().int().min(1).max(86400).default(300),
});
export const ticketQueryInput = z.strictObject({
  system: z.string().regex(SYSTEM_IDENTIFIER, 'must be a system identifier').optional(),
  external_id: storedText(1000)
    .refine((value) => value !== '', 'must not be empty')
    .optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'must be the next_cursor of a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** A catalog table the operator writes with PUT, and what its rows look like on the wire. */
type CatalogTable =
  | 'hd_companies'
  | 'hd_category_types'
  | 'hd_priorities'
  | 'hd_categories'
  | 'hd_support_levels'
  | 'hd_natures';

const KEY_COLUMN: Record<CatalogTable, 'id' | 'identifier'> = {
  hd_companies: 'id',
  hd_category_types: 'id',
  hd_priorities: 'id',
  hd_categories: 'id',
  hd_support_levels: 'id',
  hd_natures: 'identifier',
};

/** The wire form of a row: booleans as booleans. */
function shown(row: Record<string, unknown>): Record<string, unknown> {
  return 'active' in row ? { ...row, active: row.active === 1 } : row;
}

function stored(values: Record<string, unknown>): Record<string, unknown> {
  return 'active' in values ? { ...values, active: values.active === true ? 1 : 0 } : values;
}

/** The operator's view of a system (never its keys). */
export function systemView(system: PartnerSystem) {
  return {
    identifier: system.identifier,
    name: system.name,
    active: system.active,
    scopes: system.scopes,
    rate_limit_per_minute: system.rateLimitPerMinute,
    key_grace_seconds: system.keyGraceSeconds,
    default_category_id: system.defaultCategoryId,
    released_category_ids: system.releasedCategoryIds,
    has_key: system.hasKey,
    previous_key_valid_until: system.previousValidUntil === null ? null : wireTime(system.previousValidUntil),
    created_at: wireTime(system.createdAt),
    updated_at: wireTime(system.updatedAt),
  };
}

/** Everything stored of a ticket, cnpj and requester included. */
export function ticketView(ticket: Ticket) {
  return {
    ticket: ticket.number,
    id: ticket.id,
    system: ticket.systemId,
    external_id: ticket.externalId,
    source: ticket.source,
    company: ticket.companyId,
    description: ticket.description,
    category_id: ticket.categoryId,
    priority_id: ticket.priorityId,
    support_level: ticket.supportLevel,
    nature: ticket.nature,
    cnpj: ticket.cnpj,
    requester: { name: ticket.requesterName, contact: ticket.requesterContact },
    created_at: wireTime(ticket.createdAt),
  };
}

function notFound(what: string): Problem {
  return Problem.of('not_found', { detail: `There is no ${what}.` });
}

function invalid(param: string, detail: string): Problem {
  return Problem.of('validation_failed', { detail: `${param}: ${detail}`, param });
}

/** The back office's help-desk service. Methods throw a Problem for input they refuse. */
export function createHelpdeskAdmin(deps: { db: Db; clock: Clock; maintenance: MaintenanceSwitch }) {
  const { db, clock, maintenance } = deps;

  async function exists(table: keyof Database, column: string, value: number): Promise<boolean> {
    const row = await db
      .selectFrom(table)
      .select(column as never)
      .where(column as never, '=', value as never)
      .executeTakeFirst();
    return row !== undefined;
  }

  async function getRow(table: CatalogTable, key: string | number): Promise<Record<string, unknown>> {
    const column = KEY_COLUMN[table];
    const row = await db
      .selectFrom(table)
      .selectAll()
      .where(column as never, '=', key as never)
      .executeTakeFirstOrThrow();
    return shown(row);
  }

  async function system(identifier: string): Promise<PartnerSystem> {
    const found = await findSystem(db, identifier);
    if (found === undefined) throw notFound(`system "${identifier}"`);
    return withoutKeys(found);
  }

  return {
    /** Creates or replaces a catalog entry; returns it and whether it was created. */
    async putCatalogEntry(table: CatalogTable, key: string | number, values: Record<string, unknown>) {
      if (table === 'hd_categories') {
        if (!(await exists('hd_category_types', 'id', values.type_id as number))) {
          throw invalid('type_id', `there is no category type ${String(values.type_id)}`);
        }
        const priority = values.default_priority_id as number | null;
        if (priority !== null && !(await exists('hd_priorities', 'id', priority))) {
          throw invalid('default_priority_id', `there is no priority ${priority}`);
        }
      }
      const created = await putRow(db, table, KEY_COLUMN[table], key, stored(values));
      return { created, entry: await getRow(table, key) };
    },

    async listCatalog(table: CatalogTable): Promise<Record<string, unknown>[]> {
      const rows = await db
        .selectFrom(table)
        .selectAll()
        .orderBy(KEY_COLUMN[table] as never)
        .execute();
      return rows.map((row) => shown(row as Record<string, unknown>));
    },

    /** Deletes a category: tickets keep `category_id` null; systems lose it as default or release. */
    async deleteCategory(categoryId: number): Promise<void> {
      if (!(await exists('hd_categories', 'id', categoryId))) throw notFound(`category ${categoryId}`);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        await clearTicketCategory(trx, categoryId);
        for (const found of await listSystems(trx)) {
          const released = found.releasedCategoryIds.filter((released) => released !== categoryId);
          if (found.defaultCategoryId !== categoryId && released.length === found.releasedCategoryIds.length)
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
      });
    },

    async putSystem(identifier: string, input: z.infer<typeof systemInput>) {
      for (const [param, ids] of [
        ['default_category_id', input.default_category_id === null ? [] : [input.default_category_id]],
        ['released_category_ids', input.released_category_ids],
      ] as const) {
        for (const categoryId of ids) {
          if (!(await exists('hd_categories', 'id', categoryId)))
            throw invalid(param, `there is no category ${categoryId}`);
        }
      }
      const created = await putSystem(
        db,
        identifier,
        {
          name: input.name,
          active: input.active,
          scopes: input.scopes,
          rateLimitPerMinute: input.rate_limit_per_minute,
          keyGraceSeconds: input.key_grace_seconds,
          defaultCategoryId: input.default_category_id,
          releasedCategoryIds: input.released_category_ids,
        },
        clock.now(),
      );
      return { created, system: await system(identifier) };
    },

    system,

    async listSystems(): Promise<PartnerSystem[]> {
      return (await listSystems(db)).map(withoutKeys);
    },

    /**
     * Issues the system's first key, or rotates: the current key stays valid for the system's grace
     * period, an older previous key ends at once. The key is returned once and never stored.
     */
    async rotateKey(identifier: string): Promise<{ key: string; previousValidUntil: number | null }> {
      const before = await system(identifier);
      const key = generateApiKey(KEY_PREFIX);
      const now = clock.now();
      const previousValidUntil = now + before.keyGraceSeconds * 1000;
      await rotateSystemKey(db, identifier, hashApiKey(key), previousValidUntil, now);
      return { key, previousValidUntil: before.hasKey ? previousValidUntil : null };
    },

    /** Ends the previous key at once (a leak). */
    async stopPreviousKey(identifier: string): Promise<{ stopped: boolean; system: PartnerSystem }> {
      await system(identifier);
      const stopped = await stopPreviousKey(db, identifier, clock.now());
      return { stopped, system: await system(identifier) };
    },

    async listTickets(query: z.infer<typeof ticketQueryInput>) {
      const page = await listTickets(db, {
        ...(query.system === undefined ? {} : { systemId: query.system }),
        ...(query.external_id === undefined ? {} : { externalId: query.external_id }),
        ...(query.cursor === undefined ? {} : { beforeSeq: Number(query.cursor) }),
        limit: query.limit,
      });
      return {
        data: page.tickets.map(ticketView),
        next_cursor: page.nextBeforeSeq === null ? null : String(page.nextBeforeSeq),
      };
    },

    getMaintenance: () => maintenance.get(),
    setMaintenance: (input: z.infer<typeof maintenanceInput>) =>
      maintenance.set({ enabled: input.enabled, retryAfterSeconds: input.retry_after_seconds }),
  };
}

export type HelpdeskAdmin = ReturnType<typeof createHelpdeskAdmin>;
export type { CatalogTable };
