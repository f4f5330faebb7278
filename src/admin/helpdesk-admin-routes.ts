import { z } from 'zod';
import type { Problem } from '../errors/problem.js';
import { invalidInput, notFound } from '../errors/refusals.js';
import { integerIdPath } from '../helpdesk/catalog-input.js';
import { CATALOG_COLLECTIONS } from '../helpdesk/catalog-collections.js';
import type { PutEntryOutcome } from '../helpdesk/catalog-service.js';
import { catalogEntryBodies } from '../helpdesk/catalog-view.js';
import { maintenanceInput } from '../helpdesk/maintenance-input.js';
import { maintenanceBody, maintenanceView } from '../helpdesk/maintenance-view.js';
import { systemInput, systemPath } from '../helpdesk/system-input.js';
import { systemProblem, type SystemOutcome } from '../helpdesk/system-refusal.js';
import {
  stoppedKeyBody,
  stoppedKeyView,
  systemBody,
  systemKeyBody,
  systemKeyView,
  systemView,
} from '../helpdesk/system-view.js';
import { ticketQueryInput } from '../helpdesk/ticket-query-input.js';
import { ticketPageBody, ticketPageView } from '../helpdesk/ticket-view.js';
import { adminRoute, putStatus, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The help-desk half of the back office (docs/admin-rules.md, Help desk), one entry per operation.

const BASE = `${ADMIN_API.prefix}helpdesk`;

/** The value of the systems service's outcome; a refusal becomes its problem of the catalogue. */
function systemAnswered<T>(outcome: SystemOutcome<T>): T {
  if (!outcome.ok) throw systemProblem(outcome);
  return outcome;
}

/** The 422 of a category naming a category type or a priority the catalog does not have. */
function catalogRefusal(refused: Extract<PutEntryOutcome, { ok: false }>): Problem {
  const what = refused.reason === 'unknown_priority' ? 'priority' : 'category type';
  return invalidInput(refused.param, `there is no ${what} ${refused.id}`);
}

const catalogRoutes = CATALOG_COLLECTIONS.flatMap(({ path, table, one, many, id, input }): AdminRoute[] => [
  adminRoute({
    operationId: `putHelpDesk${one}`,
    method: 'PUT',
    path: `${BASE}/${path}/{id}`,
    summary: `Creates or replaces an entry of the catalog's ${path}.`,
    access: 'operator',
    params: id,
    body: { kind: 'json', schema: input },
    responses: { 200: catalogEntryBodies[table], 201: catalogEntryBodies[table] },
    problems: ['validation_failed'],
    handle: async ({ params, body }, { catalog }) => {
      const put = await catalog.putEntry(table, params.id, body);
      if (!put.ok) throw catalogRefusal(put);
      return { status: putStatus(put.created), body: put.entry };
    },
  }),
  adminRoute({
    operationId: `listHelpDesk${many}`,
    method: 'GET',
    path: `${BASE}/${path}`,
    summary: `Lists the catalog's ${path}, by id.`,
    access: 'operator',
    responses: { 200: z.array(catalogEntryBodies[table]) },
    problems: [],
    handle: async (_input, { catalog }) => ({ status: 200, body: await catalog.listEntries(table) }),
  }),
]);

/** The help-desk routes of the back office (docs/admin-rules.md, Help desk). */
export const helpdeskAdminRoutes: readonly AdminRoute[] = [
  ...catalogRoutes,
  adminRoute({
    operationId: 'deleteHelpDeskCategory',
    method: 'DELETE',
    path: `${BASE}/categories/{id}`,
    summary: 'Deletes a category: tickets keep `category_id` null; systems lose it as default or release.',
    access: 'operator',
    params: integerIdPath,
    responses: { 204: null },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { catalog }) => {
      const deleted = await catalog.deleteCategory(params.id);
      if (!deleted.ok) throw notFound(`category ${params.id}`);
      return { status: 204 };
    },
  }),

  adminRoute({
    operationId: 'putHelpDeskSystem',
    method: 'PUT',
    path: `${BASE}/systems/{identifier}`,
    summary: 'Creates or replaces a partner system’s settings; its keys stay.',
    access: 'operator',
    params: systemPath,
    body: { kind: 'json', schema: systemInput },
    responses: { 200: systemBody, 201: systemBody },
    problems: ['validation_failed'],
    handle: async ({ params, body, actor }, { systems }) => {
      const { created, system } = systemAnswered(await systems.put(params.identifier, body, actor));
      return { status: putStatus(created), body: systemView(system) };
    },
  }),
  adminRoute({
    operationId: 'listHelpDeskSystems',
    method: 'GET',
    path: `${BASE}/systems`,
    summary: 'Lists the partner systems; never shows keys or hashes.',
    access: 'support',
    responses: { 200: z.array(systemBody) },
    problems: [],
    handle: async (_input, { systems }) => ({ status: 200, body: (await systems.list()).map(systemView) }),
  }),
  adminRoute({
    operationId: 'getHelpDeskSystem',
    method: 'GET',
    path: `${BASE}/systems/{identifier}`,
    summary: 'One partner system; never shows keys or hashes.',
    access: 'support',
    params: systemPath,
    responses: { 200: systemBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { systems }) => ({
      status: 200,
      body: systemView(await systems.get(params.identifier)),
    }),
  }),
  adminRoute({
    operationId: 'rotateHelpDeskSystemKey',
    method: 'POST',
    path: `${BASE}/systems/{identifier}/keys/rotate`,
    summary: 'Issues the system’s first key, or rotates: the current key keeps its grace period.',
    access: 'operator',
    params: systemPath,
    responses: { 201: systemKeyBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, actor }, { systems }) => ({
      status: 201,
      body: systemKeyView(systemAnswered(await systems.rotateKey(params.identifier, actor))),
    }),
  }),
  adminRoute({
    operationId: 'stopPreviousHelpDeskSystemKey',
    method: 'POST',
    path: `${BASE}/systems/{identifier}/keys/stop-previous`,
    summary: 'Ends the previous key at once (a leak).',
    access: 'support',
    params: systemPath,
    responses: { 200: stoppedKeyBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, actor }, { systems }) => ({
      status: 200,
      body: stoppedKeyView(systemAnswered(await systems.stopPreviousKey(params.identifier, actor))),
    }),
  }),

  adminRoute({
    operationId: 'listHelpDeskTickets',
    method: 'GET',
    path: `${BASE}/tickets`,
    summary: 'Tickets, newest first, cursor-paginated, everything stored (cnpj and requester too).',
    access: 'support',
    query: ticketQueryInput,
    responses: { 200: ticketPageBody },
    problems: ['validation_failed'],
    handle: async ({ query }, { tickets }) => {
      const page = await tickets.list({
        ...(query.system === undefined ? {} : { systemId: query.system }),
        ...(query.external_id === undefined ? {} : { externalId: query.external_id }),
        ...(query.cursor === undefined ? {} : { beforeSeq: Number(query.cursor) }),
        limit: query.limit,
      });
      return { status: 200, body: ticketPageView(page) };
    },
  }),

  adminRoute({
    operationId: 'getHelpDeskMaintenance',
    method: 'GET',
    path: `${BASE}/maintenance`,
    summary: 'Whether the ticket API is switched off for maintenance, and its Retry-After.',
    access: 'operator',
    responses: { 200: maintenanceBody },
    problems: [],
    handle: async (_input, { maintenance }) => ({
      status: 200,
      body: maintenanceView(await maintenance.get()),
    }),
  }),
  adminRoute({
    operationId: 'putHelpDeskMaintenance',
    method: 'PUT',
    path: `${BASE}/maintenance`,
    summary: 'Switches the ticket API’s maintenance on or off.',
    access: 'operator',
    body: { kind: 'json', schema: maintenanceInput },
    responses: { 200: maintenanceBody },
    problems: ['validation_failed'],
    handle: async ({ body }, { maintenance }) => ({
      status: 200,
      body: maintenanceView(
        await maintenance.set({ enabled: body.enabled, retryAfterSeconds: body.retry_after_seconds }),
      ),
    }),
  }),
];
