import { adminRoutes } from '../admin/admin-routes.js';
import { adminDocument } from '../admin/admin-document.js';
import { helpDeskDocument } from '../openapi/help-desk-document.js';
import { posDocument } from '../openapi/pos-document.js';

// The three documents as the repository keeps them under openapi/ (`npm run openapi` writes them; a
// test fails when the committed files differ from what the route tables generate).

/** `{base_url}` of the committed files: the default PUBLIC_BASE_URL. A running service serves its own. */
const COMMITTED_BASE_URL = 'http://localhost:8080';

/** Each committed file's path under the repository, and its text. */
export function openApiFiles(): Record<string, string> {
  const text = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;
  return {
    'openapi/help-desk.json': text(helpDeskDocument(COMMITTED_BASE_URL)),
    'openapi/pos.json': text(posDocument(COMMITTED_BASE_URL)),
    'openapi/admin.json': text(adminDocument(adminRoutes)),
  };
}
