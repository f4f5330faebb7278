import { z } from 'zod';

// How instants leave the service, on both public APIs and the admin API.

/**
 * An instant on the wire: UTC with `Z`, whole seconds, fractions dropped (docs/api-conventions.md: "Times on
 * the wire"; docs/pos-api.md, Conventions: "Output dates: always UTC with `Z`"). `ms` is milliseconds
 * since the epoch: 1_795_694_400_250 → `2026-11-26T12:00:00Z`.
 */
export function wireTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The text of an instant on the wire, as a schema of the route tables: `2026-11-26T12:00:00Z`. */
export const wireTimeText = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
