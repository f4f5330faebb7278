import { z } from 'zod';
import { adminDocument } from './admin-document.js';
import type { Json } from '../openapi/schema-components.js';
import { adminRoute, type AdminRoute } from './admin-route.js';
import { ADMIN_API } from '../lib/api-registry.js';

// The back office's own OpenAPI document (docs/admin-rules.md: "Everything here is documented in the
// project's OpenAPI document"), generated from the admin route table that also lists this route.

/** 200 of GET openapi.json: an OpenAPI 3.1 document. */
const openApiBody = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string() }),
    paths: z.record(z.string(), z.unknown()),
  })
  .meta({
    examples: [{ openapi: '3.1.0', info: { title: 'Admin API (back office)', version: 'v1' }, paths: {} }],
  });

/** The route of the document; `table` is the whole admin route table, read on the first call. */
export function openApiAdminRoutes(table: () => readonly AdminRoute[]): readonly AdminRoute[] {
  let document: Json | undefined;
  return [
    adminRoute({
      operationId: 'getAdminOpenApiDocument',
      method: 'GET',
      path: `${ADMIN_API.prefix}openapi.json`,
      summary: 'This API’s OpenAPI 3.1 document, generated from its route table.',
      access: 'operator',
      responses: { 200: openApiBody },
      problems: [],
      handle: () => {
        document ??= adminDocument(table());
        return Promise.resolve({ status: 200, body: document });
      },
    }),
  ];
}
