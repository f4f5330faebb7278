import { z } from 'zod';
import {
  keyAccountPath,
  keyCreateInput,
  keyEditInput,
  keyListInput,
  keyPath,
  keyRotateInput,
} from '../pos/keys/merchant-key-input.js';
import {
  createdKeyBody,
  createdKeyView,
  posKeyBody,
  posKeyView,
  rotatedKeyBody,
  rotatedKeyView,
} from '../pos/keys/merchant-key-view.js';
import { merchantKeyProblem } from '../pos/keys/merchant-key-problem.js';
import type { KeyOutcome } from '../pos/keys/merchant-key-refusal.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// Merchants' API keys (docs/admin-rules.md, Point of sale): the operator does everything; support may list
// keys (of one account or all) and revoke them.

const BASE = `${ADMIN_API.prefix}pos`;

/** The value of the service's outcome; a refusal becomes its problem of the catalogue. */
function answered<T>(outcome: KeyOutcome<T>): T {
  if (!outcome.ok) throw merchantKeyProblem(outcome);
  return outcome;
}

/** The merchant key routes of the back office, one entry per operation. */
export const merchantKeyAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'createMerchantKey',
    method: 'POST',
    path: `${BASE}/accounts/{account}/keys`,
    summary: 'Creates a key of the account; the key is shown this once (default 12 months, at most 24).',
    access: 'operator',
    params: keyAccountPath,
    body: { kind: 'json', schema: keyCreateInput },
    responses: { 201: createdKeyBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, body, actor }, { merchantKeys }) => ({
      status: 201,
      body: createdKeyView(answered(await merchantKeys.create(params.account, body, actor))),
    }),
  }),
  adminRoute({
    operationId: 'listMerchantKeys',
    method: 'GET',
    path: `${BASE}/accounts/{account}/keys`,
    summary: 'The keys of an account: metadata and state, never the key.',
    access: 'support',
    params: keyAccountPath,
    responses: { 200: z.array(posKeyBody) },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params }, { merchantKeys }) => ({
      status: 200,
      body: (await merchantKeys.list(params.account)).map(posKeyView),
    }),
  }),
  adminRoute({
    operationId: 'listAllMerchantKeys',
    method: 'GET',
    path: `${BASE}/keys`,
    summary: 'The keys of every account, or of one (`?account=`), for support.',
    access: 'support',
    query: keyListInput,
    responses: { 200: z.array(posKeyBody) },
    problems: ['validation_failed'],
    handle: async ({ query }, { merchantKeys }) => ({
      status: 200,
      body: (await merchantKeys.listAll(query)).map(posKeyView),
    }),
  }),
  adminRoute({
    operationId: 'editMerchantKey',
    method: 'PATCH',
    path: `${BASE}/accounts/{account}/keys/{id}`,
    summary: 'Changes a key’s name, permissions, places or validity (`expires_at`: the operator’s override).',
    access: 'operator',
    params: keyPath,
    body: { kind: 'json', schema: keyEditInput },
    responses: { 200: posKeyBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, body, actor }, { merchantKeys }) => ({
      status: 200,
      body: posKeyView(answered(await merchantKeys.edit(params.account, params.id, body, actor)).key),
    }),
  }),
  adminRoute({
    operationId: 'rotateMerchantKey',
    method: 'POST',
    path: `${BASE}/accounts/{account}/keys/{id}/rotate`,
    summary: 'Issues a new key text for the credential; the current one keeps the grace period.',
    access: 'operator',
    params: keyPath,
    // The body is optional: none means `{}` (`invalidate_current` false).
    body: { kind: 'json', schema: keyRotateInput, absent: {} },
    responses: { 201: rotatedKeyBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, body, actor }, { merchantKeys }) => ({
      status: 201,
      body: rotatedKeyView(answered(await merchantKeys.rotate(params.account, params.id, body, actor))),
    }),
  }),
  adminRoute({
    operationId: 'pauseMerchantKey',
    method: 'POST',
    path: `${BASE}/accounts/{account}/keys/{id}/pause`,
    summary: 'Pauses the key, effective on the next call.',
    access: 'operator',
    params: keyPath,
    responses: { 200: posKeyBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, actor }, { merchantKeys }) => ({
      status: 200,
      body: posKeyView(answered(await merchantKeys.pause(params.account, params.id, actor)).key),
    }),
  }),
  adminRoute({
    operationId: 'reactivateMerchantKey',
    method: 'POST',
    path: `${BASE}/accounts/{account}/keys/{id}/reactivate`,
    summary: 'The paused key works again, effective on the next call.',
    access: 'operator',
    params: keyPath,
    responses: { 200: posKeyBody },
    problems: ['validation_failed', 'not_found', 'conflict'],
    handle: async ({ params, actor }, { merchantKeys }) => ({
      status: 200,
      body: posKeyView(answered(await merchantKeys.reactivate(params.account, params.id, actor)).key),
    }),
  }),
  adminRoute({
    operationId: 'revokeMerchantKey',
    method: 'POST',
    path: `${BASE}/accounts/{account}/keys/{id}/revoke`,
    summary: 'Revokes the key for ever, its previous key too.',
    access: 'support',
    params: keyPath,
    responses: { 200: posKeyBody },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, actor }, { merchantKeys }) => ({
      status: 200,
      body: posKeyView(answered(await merchantKeys.revoke(params.account, params.id, actor)).key),
    }),
  }),
];
