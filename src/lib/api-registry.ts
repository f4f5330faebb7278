// Every part of the service a request can reach, said once: its name, where it lives (listener and path
// prefix) and the label it is counted under (docs/operations.md, Metrics). The app routes by it, the request log and
// the metrics label by it, the closing listeners pick each API's 503 by it (each domain supplies its own
// refusal; the app pairs them), and the console and the route tables build their paths on it.

/** A part of a listener: one of the public APIs, the documentation pages, the back office's API or console. */
export interface ApiEntry {
  /** What the documents call it. */
  readonly name: string;
  /** The listener it answers on. */
  readonly listener: 'public' | 'admin';
  /** Its path prefix; one without a trailing `/` also covers the bare path (`/docs`). */
  readonly prefix: string;
  /** Its label in the metrics, the traffic counts and the request log. */
  readonly label: string;
}

/** The help-desk ticket API (openapi/help-desk.json). */
export const TICKET_API = {
  name: 'Help-desk ticket API',
  listener: 'public',
  prefix: '/v1/api-external-system/',
  label: 'helpdesk',
} as const satisfies ApiEntry;

/** The point-of-sale data API (openapi/pos.json). */
export const POS_API = {
  name: 'POS data API',
  listener: 'public',
  prefix: '/v1/api-public/',
  label: 'pos',
} as const satisfies ApiEntry;

/** The documentation pages, beside the public APIs (docs/). */
export const DOCS_PAGES = {
  name: 'Documentation pages',
  listener: 'public',
  prefix: '/docs',
  label: 'docs',
} as const satisfies ApiEntry;

/** The back office's API (openapi/admin.json); on its listener, everything that is not the console. */
export const ADMIN_API = {
  name: 'Admin API',
  listener: 'admin',
  prefix: '/admin/v1/',
  label: 'admin',
} as const satisfies ApiEntry;

/** The back-office console's pages, on the admin listener. */
export const CONSOLE_PAGES = {
  name: 'Back-office console',
  listener: 'admin',
  prefix: '/console',
  label: 'console',
} as const satisfies ApiEntry;

/** Every entry, in the order the traffic counts list them. */
export const API_REGISTRY = [TICKET_API, POS_API, DOCS_PAGES, ADMIN_API, CONSOLE_PAGES] as const;

/** The public APIs, whose paths under any version get the APIs' JSON 404 rather than a page. */
const PUBLIC_APIS = [TICKET_API, POS_API] as const;

/** Whether a request path (without its query) belongs to the entry. */
export function isUnder(entry: ApiEntry, path: string): boolean {
  const { prefix } = entry;
  return prefix.endsWith('/') ? path.startsWith(prefix) : path === prefix || path.startsWith(`${prefix}/`);
}

/** The public entry a path belongs to, if any. */
export function publicEntryOf(path: string): (typeof API_REGISTRY)[number] | undefined {
  return API_REGISTRY.find((entry) => entry.listener === 'public' && isUnder(entry, path));
}

/**
 * Paths that look like one of the public APIs under another version or none (`/v2/api-public/…`,
 * `/api-public/…`): the segment after the version, as the registry gives it.
 */
export const API_LOOKING_PATH = new RegExp(
  `^/(?:v[^/]*/)?(?:${PUBLIC_APIS.map((api) => api.prefix.split('/')[2]).join('|')})/`,
);
