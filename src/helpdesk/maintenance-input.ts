import { z } from 'zod';

// What the operator sends to switch the ticket API's maintenance (docs/admin-rules.md, Help desk:
// maintenance).

export const maintenanceInput = z.strictObject({
  enabled: z.boolean(),
  retry_after_seconds: z.number().int().min(1).max(86400).default(300),
});
