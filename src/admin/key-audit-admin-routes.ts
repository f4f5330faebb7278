import { allKeyAuditQueryInput, keyAuditQueryInput } from '../audit/key-audit-input.js';
import { keyAuditPageBody, keyAuditPageView } from '../audit/key-audit-view.js';
import { systemPath } from '../helpdesk/system-input.js';
import { keyAccountPath, keyPath } from '../pos/keys/merchant-key-input.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The key audit trail in the back office (docs/back-office.md, Audit trail and last use): every lifecycle event of a
// partner system's key and of merchants' keys, newest first, one page at a time; the operator and support
// may read it.

/** The trail's readings: across all keys, per system, per account, per merchant key. */
export const keyAuditAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'listKeyAuditEvents',
    method: 'GET',
    path: `${ADMIN_API.prefix}audit/keys`,
    summary: 'Lifecycle events of every key (or of one `kind`), newest first, cursor-paginated.',
    access: 'support',
    query: allKeyAuditQueryInput,
    responses: { 200: keyAuditPageBody },
    problems: ['validation_failed'],
    handle: async ({ query }, { keyAudit }) => ({
      status: 200,
      body: keyAuditPageView(await keyAudit.all(query)),
    }),
  }),
  adminRoute({
    operationId: 'listHelpDeskSystemKeyAudit',
    method: 'GET',
    path: `${ADMIN_API.prefix}helpdesk/systems/{identifier}/audit`,
    summary: 'Lifecycle events of a partner system’s key, newest first, cursor-paginated.',
    access: 'support',
    params: systemPath,
    query: keyAuditQueryInput,
    responses: { 200: keyAuditPageBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, query }, { keyAudit }) => ({
      status: 200,
      body: keyAuditPageView(await keyAudit.ofSystem(params.identifier, query)),
    }),
  }),
  adminRoute({
    operationId: 'listMerchantAccountKeyAudit',
    method: 'GET',
    path: `${ADMIN_API.prefix}pos/accounts/{account}/audit`,
    summary: 'Lifecycle events of every key of a merchant account, newest first, cursor-paginated.',
    access: 'support',
    params: keyAccountPath,
    query: keyAuditQueryInput,
    responses: { 200: keyAuditPageBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, query }, { keyAudit }) => ({
      status: 200,
      body: keyAuditPageView(await keyAudit.ofAccount(params.account, query)),
    }),
  }),
  adminRoute({
    operationId: 'listMerchantKeyAudit',
    method: 'GET',
    path: `${ADMIN_API.prefix}pos/accounts/{account}/keys/{id}/audit`,
    summary: 'Lifecycle events of one merchant key, newest first, cursor-paginated.',
    access: 'support',
    params: keyPath,
    query: keyAuditQueryInput,
    responses: { 200: keyAuditPageBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, query }, { keyAudit }) => ({
      status: 200,
      body: keyAuditPageView(await keyAudit.ofMerchantKey(params.account, params.id, query)),
    }),
  }),
];
