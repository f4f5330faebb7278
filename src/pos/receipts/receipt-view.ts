import { z } from 'zod';

// What the operator reads back from POST receipts (docs/admin-rules.md, Point of sale).

/** 200 of POST receipts: how many receipts were new, changed, or the same as stored. */
export const receiptCountsBody = z
  .strictObject({
    inserted: z.number().int(),
    updated: z.number().int(),
    unchanged: z.number().int(),
  })
  .meta({ id: 'ReceiptCounts', examples: [{ inserted: 2, updated: 1, unchanged: 0 }] });
