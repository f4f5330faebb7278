import { TICKET_URL } from '../helpdesk/fixtures.js';
import { adminCall, http, type HttpResponse, type ServerProcess } from '../support/server-process.js';

// What the fleet suites need on a real server process: its environment, and a partner system with a
// key, set up through the admin API as the operator would (docs/admin-rules.md, Help desk).

export const FLEET_ADMIN_TOKEN = 'fleet-admin-token-0123456789';

/** The partner system every fleet suite opens tickets for. */
export const FLEET_SYSTEM = 'fleet';

/** The environment of a fleet process on a database: no demo data, the fleet's admin token. */
export function fleetEnv(
  databaseUrl: string,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    DEMO: 'false',
    ADMIN_TOKEN: FLEET_ADMIN_TOKEN,
    CURSOR_SECRET: 'fleet-cursor-secret-0123456789',
    // Request logs would cost more than the requests; startup waits on sockets, not on log lines.
    LOG_LEVEL: 'warn',
    ...overrides,
  };
}

async function admin(server: ServerProcess, method: string, path: string, body?: unknown) {
  const response = await adminCall(server.adminPort, FLEET_ADMIN_TOKEN, method, path, body);
  if (response.status >= 300) {
    throw new Error(`admin ${method} ${path} answered ${response.status}: ${response.text}`);
  }
  return response;
}

/**
 * Writes a minimal catalog (company `acme`, category 10 with priority 1) and the system `fleet` with
 * the given limit per minute, and returns its first key.
 */
export async function setUpTicketSystem(
  server: ServerProcess,
  options: { rateLimitPerMinute?: number } = {},
): Promise<string> {
  const put = (path: string, body: unknown) => admin(server, 'PUT', `/admin/v1/helpdesk/${path}`, body);
  await put('companies/acme', { name: 'Acme Comércio' });
  await put('category-types/1', { name: 'Incidente' });
  await put('priorities/1', { name: 'Alta', level: 1, response_time_hours: 4 });
  await put('categories/10', { name: 'Terminal sem comunicação', type_id: 1, default_priority_id: 1 });
  await put('support-levels/1', { name: 'N1' });
  await put(`systems/${FLEET_SYSTEM}`, {
    name: 'Fleet',
    rate_limit_per_minute: options.rateLimitPerMinute ?? 120,
    default_category_id: 10,
  });
  const rotated = await admin(server, 'POST', `/admin/v1/helpdesk/systems/${FLEET_SYSTEM}/keys/rotate`);
  return (rotated.json as { key: string }).key;
}

/** POSTs a minimal ticket with the external_id (docs/ticket-api.md, POST help-desk-ticket). */
export function postTicket(port: number, key: string, externalId: string): Promise<HttpResponse> {
  return http(port, 'POST', TICKET_URL, {
    headers: { authorization: `Bearer ${key}` },
    body: { external_id: externalId, company: 'acme', description: 'Opened under load.' },
  });
}
