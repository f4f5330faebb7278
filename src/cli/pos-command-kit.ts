import type { Output } from './output.js';
import { ADMIN_API } from '../lib/api-registry.js';

// What the point-of-sale commands share: where the admin API serves the point of sale, and how an
// answer is printed.

/** The admin API's point-of-sale paths start here. */
export const POS_BASE = `${ADMIN_API.prefix}pos`;

/** One entry of an admin API answer (an account, a place, an event, a key, a user). */
export type Entry = Record<string, unknown>;

/** Prints one entry: as a record, or as JSON with --json. */
export function showOne(out: Output, entry: Entry): void {
  out.result(entry, () => {
    out.record(entry);
  });
}

/** Prints a list of entries: as a table of these columns, or as JSON with --json. */
export function showMany(out: Output, rows: Entry[], columns: readonly string[]): void {
  out.result(rows, () => {
    out.table(rows, columns);
  });
}
