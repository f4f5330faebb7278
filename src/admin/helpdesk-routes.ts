import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import {
  CATALOG_IDENTIFIER,
  categoryInput,
  categoryTypeInput,
  companyInput,
  createHelpdeskAdmin,
  maintenanceInput,
  natureInput,
  priorityInput,
  supportLevelInput,
  SYSTEM_IDENTIFIER,
  systemInput,
  systemView,
  ticketQueryInput,
  type CatalogTable,
} from '../helpdesk/helpdesk-admin.js';
import { wireTime } from '../lib/wire-time.js';
import { parseInput, type AdminDeps } from './admin-api.js';

const BASE = '/admin/v1/helpdesk';

const integerId = z.strictObject({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, 'must be a positive integer')
    .transform(Number)
    // Ids live in 32-bit integer columns: a larger one must be refused here, not fail in PostgreSQL.
    .refine((id) => id <= 2_147_483_647, 'must be at most 2147483647'),
});
const textId = z.strictObject({
  id: z.string().regex(CATALOG_IDENTIFIER, 'must be 1 to 64 letters, digits, ".", "_" or "-"'),
});
const systemId = z.strictObject({
  identifier: z.string().regex(SYSTEM_IDENTIFIER, 'must match ^[a-z0-9_-]{1,40}$ (the webhook path)'),
});

/** The catalog collections: path, table, shape of the id, and the schema of the body. */
const catalog: {
  path: string;
  table: CatalogTable;
  id: typeof integerId | typeof textId;
  input: z.ZodType<Record<string, unknown>>;
}[] = [
  { path: 'companies', table: 'hd_companies', id: textId, input: companyInput },
  { path: 'category-types', table: 'hd_category_types', id: integerId, input: categoryTypeInput },
  { path: 'priorities', table: 'hd_priorities', id: integerId, input: priorityInput },
  { path: 'categories', table: 'hd_categories', id: integerId, input: categoryInput },
  { path: 'support-levels', table: 'hd_support_levels', id: integerId, input: supportLevelInput },
  { path: 'natures', table: 'hd_natures', id: textId, input: natureInput },
];

const putStatus = (reply: FastifyReply, created: boolean) => reply.code(created ? 201 : 200);

/** The help-desk routes of the back office (admin-api.md, Help desk). */
export function registerHelpdeskAdminRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const admin = createHelpdeskAdmin(deps);

  for (const { path, table, id, input } of catalog) {
    // Natures are named by `identifier` in admin-api.md; the path parameter is the same either way.
    app.put(`${BASE}/${path}/:id`, async (request, reply) => {
      const key = parseInput(id, request.params, 'path').id;
      const body = parseInput(input, request.body, 'body');
      const { created, entry } = await admin.putCatalogEntry(table, key, body);
      return putStatus(reply, created).send(entry);
    });
    app.get(`${BASE}/${path}`, () => admin.listCatalog(table));
  }

  app.delete(`${BASE}/categories/:id`, async (request, reply) => {
    await admin.deleteCategory(parseInput(integerId, request.params, 'path').id);
    return reply.code(204).send();
  });

  app.put(`${BASE}/systems/:identifier`, async (request, reply) => {
    const { identifier } = parseInput(systemId, request.params, 'path');
    const { created, system } = await admin.putSystem(
      identifier,
      parseInput(systemInput, request.body, 'body'),
    );
    return putStatus(reply, created).send(systemView(system));
  });
  app.get(`${BASE}/systems`, { config: { support: true } }, async () =>
    (await admin.listSystems()).map(systemView),
  );
  app.get(`${BASE}/systems/:identifier`, { config: { support: true } }, async (request) =>
    systemView(await admin.system(parseInput(systemId, request.params, 'path').identifier)),
  );
  app.post(`${BASE}/systems/:identifier/keys/rotate`, async (request, reply) => {
    const { key, previousValidUntil } = await admin.rotateKey(
      parseInput(systemId, request.params, 'path').identifier,
    );
    return reply.code(201).send({
      key,
      previous_valid_until: previousValidUntil === null ? null : wireTime(previousValidUntil),
    });
  });
  app.post(
    `${BASE}/systems/:identifier/keys/stop-previous`,
    { config: { support: true } },
    async (request) => {
      const { stopped, system } = await admin.stopPreviousKey(
        parseInput(systemId, request.params, 'path').identifier,
      );
      return { stopped, system: systemView(system) };
    },
  );

  app.get(`${BASE}/tickets`, { config: { support: true } }, (request) =>
    admin.listTickets(parseInput(ticketQueryInput, request.query, 'query')),
  );

  const maintenanceView = (m: { enabled: boolean; retryAfterSeconds: number }) => ({
    enabled: m.enabled,
    retry_after_seconds: m.retryAfterSeconds,
  });
  app.get(`${BASE}/maintenance`, async () => maintenanceView(await admin.getMaintenance()));
  app.put(`${BASE}/maintenance`, async (request) =>
    maintenanceView(await admin.setMaintenance(parseInput(maintenanceInput, request.body, 'body'))),
  );
}
