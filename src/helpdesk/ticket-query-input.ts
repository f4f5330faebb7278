import { z } from 'zod';
import { storedText } from '../lib/input-text.js';
import { SYSTEM_IDENTIFIER } from './system-input.js';

// The query of the back office's ticket listing (docs/admin-rules.md, Help desk: GET tickets).

export const ticketQueryInput = z.strictObject({
  system: z.string().regex(SYSTEM_IDENTIFIER, 'must be a system identifier').optional(),
  external_id: storedText(1000)
    .refine((value) => value !== '', 'must not be empty')
    .optional(),
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, 'must be the next_cursor of a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
