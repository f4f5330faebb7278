// What the help-desk commands share: where the admin API serves the help desk, and the shape of its
import { ADMIN_API } from '../lib/api-registry.js';
// entries as the printers take them.

/** The admin API's help-desk paths start here. */
export const HELPDESK_BASE = `${ADMIN_API.prefix}helpdesk`;

/** One entry of an admin API answer (a catalog entry, a system, a ticket). */
export type Entry = Record<string, unknown>;
