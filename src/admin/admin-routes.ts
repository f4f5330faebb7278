import type { AdminRoute } from './admin-route.js';
import { backOfficeLogAdminRoutes } from './back-office-log-admin-routes.js';
import { healthAdminRoutes } from './health-admin-routes.js';
import { helpdeskAdminRoutes } from './helpdesk-admin-routes.js';
import { keyAuditAdminRoutes } from './key-audit-admin-routes.js';
import { merchantKeyAdminRoutes } from './merchant-key-admin-routes.js';
import { merchantUserAdminRoutes } from './merchant-user-admin-routes.js';
import { openApiAdminRoutes } from './openapi-admin-routes.js';
import { posDataAdminRoutes } from './pos-data-admin-routes.js';
import { refusalAdminRoutes } from './refusal-admin-routes.js';
import { staffAdminRoutes } from './staff-admin-routes.js';

/**
 * Every route of the admin listener (docs/admin-rules.md), as the registrar and the OpenAPI document read
 * them.
 */
export const adminRoutes: readonly AdminRoute[] = [
  ...healthAdminRoutes,
  // The document of this very table: read when first asked for, once the table is whole.
  ...openApiAdminRoutes(() => adminRoutes),
  ...helpdeskAdminRoutes,
  ...posDataAdminRoutes,
  ...merchantKeyAdminRoutes,
  ...merchantUserAdminRoutes,
  ...keyAuditAdminRoutes,
  ...refusalAdminRoutes,
  ...staffAdminRoutes,
  ...backOfficeLogAdminRoutes,
];
