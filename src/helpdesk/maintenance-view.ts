import { z } from 'zod';
import type { Maintenance } from './maintenance-switch.js';

// What the operator reads of the ticket API's maintenance switch (docs/admin-rules.md, Help desk:
// maintenance).

/** 200 of GET and PUT maintenance. */
export const maintenanceBody = z
  .strictObject({
    enabled: z.boolean(),
    retry_after_seconds: z.number().int(),
  })
  .meta({ id: 'Maintenance', examples: [{ enabled: false, retry_after_seconds: 300 }] });

export function maintenanceView(maintenance: Maintenance): z.infer<typeof maintenanceBody> {
  return { enabled: maintenance.enabled, retry_after_seconds: maintenance.retryAfterSeconds };
}
