import {
  backOfficePageBody,
  backOfficePageView,
  backOfficeQueryInput,
} from '../audit/back-office-log-view.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The back-office action log in the back office (docs/back-office.md, Staff users): every change made through the
// admin API, the CLI and the console, newest first, one page at a time; the operator's to read.

/** The log's reading. */
export const backOfficeLogAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'listBackOfficeActions',
    method: 'GET',
    path: `${ADMIN_API.prefix}audit/actions`,
    summary:
      'Changes made through the back office (admin API, CLI, console), newest first, cursor-paginated; filter by `action` or staff `user`.',
    access: 'operator',
    query: backOfficeQueryInput,
    responses: { 200: backOfficePageBody },
    problems: ['validation_failed'],
    handle: async ({ query }, { backOfficeLog }) => ({
      status: 200,
      body: backOfficePageView(
        await backOfficeLog.list({
          limit: query.limit,
          ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          ...(query.action === undefined ? {} : { action: query.action }),
          ...(query.user === undefined ? {} : { userId: query.user }),
        }),
      ),
    }),
  }),
];
