import { z } from 'zod';
import { problemDocPath } from '../docs/problem-codes.js';
import { Problem } from '../errors/problem.js';
import { systemPath } from '../helpdesk/system-input.js';
import { REFUSALS_KEPT, type Refusal } from '../observability/refusal-log.js';
import type { Subject } from '../observability/request-facts.js';
import { accountPath } from '../pos/places/pos-data-input.js';
import type { Services } from '../services.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The last refusals of a partner system or a merchant account (docs/operations.md, Why did my call fail): support
// reads what a partner's or merchant's refused calls got (status, code, operation, time, request id)
// without reading logs. Kept for the last 100 refusals of each, in the shared store of a fleet.

const refusalQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(REFUSALS_KEPT).default(REFUSALS_KEPT),
});

const refusal = z
  .strictObject({
    at: z.iso.datetime().meta({ description: 'When the refusal was answered (UTC).' }),
    request_id: z.string().meta({ description: 'The `X-Request-Id` of the answer.' }),
    api: z.enum(['helpdesk', 'pos', 'docs', 'admin', 'other']),
    operation: z.string().meta({ description: 'The operation’s name in its API’s document.' }),
    status: z.number().int(),
    code: z.string().nullable().meta({ description: 'The problem’s `code`; null for one without.' }),
    credential: z.string().nullable().meta({
      description: 'The merchant key’s id, or `current`/`previous` for a system’s key.',
    }),
    param: z.string().nullable().meta({
      description:
        'The field or query parameter the answer named in its `param` (`limit`, `requester.name`); null when it named none, and for refusals recorded before this field was.',
    }),
    detail: z.string().nullable().meta({
      description:
        'The answer’s `detail` as the caller read it (English), at most 500 characters, anything shaped like a key redacted; null for refusals recorded before this field was.',
    }),
    doc_url: z.string().nullable().meta({
      description:
        'Where the documentation pages explain the code and what to do about it (`{PUBLIC_BASE_URL}/docs/problems#problem-<code>`); null without a code.',
    }),
  })
  .meta({ id: 'Refusal' });

const refusalList = z.strictObject({ data: z.array(refusal) }).meta({
  id: 'RefusalList',
  examples: [
    {
      data: [
        {
          at: '2026-11-20T12:00:03.000Z',
          request_id: '0b8e6f0e-3a52-4f1e-9d55-7a4c1e2b9f10',
          api: 'pos',
          operation: 'listEvents',
          status: 422,
          code: 'invalid_parameter',
          credential: '01J8Z6Q5R8J1K2M3N4P5Q6R7S8',
          param: 'limit',
          detail: '"limit" must be an integer from 1 to 100.',
          doc_url: 'https://gateway.example.com/docs/problems#problem-invalid_parameter',
        },
      ],
    },
  ],
});

/** The subject's last refusals, or 503 when the shared store does not answer. */
async function refusalsOf(
  services: Services,
  subject: Subject,
  limit: number,
): Promise<{ status: number; body: { data: (Refusal & { doc_url: string | null })[] } }> {
  let refusals: Refusal[];
  try {
    refusals = await services.refusals.list(subject, limit);
  } catch {
    services.metrics.refusalLogFailed();
    throw Problem.of(
      'temporarily_unavailable',
      { detail: 'The shared store does not answer; ask again in a moment.' },
      { 'retry-after': '5' },
    );
  }
  const base = services.config.publicBaseUrl;
  const data = refusals.map((refusal) => {
    const path = problemDocPath(refusal.code);
    return { ...refusal, doc_url: path === null ? null : `${base}${path}` };
  });
  return { status: 200, body: { data } };
}

const DESCRIPTION = `Newest first, the last ${REFUSALS_KEPT} kept. A refusal is any answer of 400 or above to a call whose key was recognized (an expired, revoked or rotated-out key included), so calls refused before their key was read (an IP block, say) are not here. Written in the background: a refusal may take a moment to appear.`;

/** The refusal routes of the back office; the operator and support may read them. */
export const refusalAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'listHelpDeskSystemRefusals',
    method: 'GET',
    path: `${ADMIN_API.prefix}helpdesk/systems/{identifier}/refusals`,
    summary: 'The last refused calls of a partner system.',
    description: DESCRIPTION,
    access: 'support',
    params: systemPath,
    query: refusalQuery,
    responses: { 200: refusalList },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, query }, services) => {
      await services.systems.get(params.identifier);
      return refusalsOf(services, { kind: 'system', id: params.identifier }, query.limit);
    },
  }),
  adminRoute({
    operationId: 'listPosAccountRefusals',
    method: 'GET',
    path: `${ADMIN_API.prefix}pos/accounts/{account}/refusals`,
    summary: 'The last refused calls of a merchant account’s keys.',
    description: DESCRIPTION,
    access: 'support',
    params: accountPath,
    query: refusalQuery,
    responses: { 200: refusalList },
    problems: ['validation_failed', 'not_found'],
    handle: async ({ params, query }, services) => {
      await services.posData.account(params.account);
      return refusalsOf(services, { kind: 'account', id: params.account }, query.limit);
    },
  }),
];
