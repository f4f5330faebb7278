import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openReceiptStaging } from '../../src/pos/receipts/receipt-staging.js';
import type { ReceiptData } from '../../src/pos/receipts/receipt-repository.js';

// The staging file of one upload (src/pos/receipts/receipt-staging.ts): a file of its own in the temporary
// folder while the upload runs, which a SQLite service database attaches for the last step; gone once the
// upload ends, whatever its outcome.

const receipt = (id: string, fields: Partial<ReceiptData> = {}): ReceiptData => ({
  id,
  placeId: 'p1',
  eventId: null,
  occurredAt: Date.UTC(2026, 10, 20, 21),
  paymentMethod: 'cash',
  brand: null,
  amountCents: 1250,
  kind: 'sale',
  status: 'paid',
  demo: false,
  ...fields,
});

describe('receipt staging', () => {
  it('keeps the upload in a file of its own, one row an id (the last version, the first kept beside it), and deletes the file on close', () => {
    const staging = openReceiptStaging();
    const other = openReceiptStaging();
    try {
      expect(staging.path).not.toBe(other.path);
      expect(existsSync(staging.path)).toBe(true);
      staging.add([
        { receipt: receipt('R1'), position: 1 },
        { receipt: receipt('R2', { status: 'cancelled' }), position: 2 },
      ]);
      staging.add([{ receipt: receipt('R1', { amountCents: 999 }), position: 3 }]);
      expect(staging.repeats()).toEqual({ updated: 1, unchanged: 0 });
      const [page] = [...staging.pages(10)];
      expect(page?.map((row) => [row.receipt.id, row.receipt.amountCents, row.first.amountCents])).toEqual([
        ['R1', 999, 1250],
        ['R2', 1250, 1250],
      ]);
      expect(page?.map((row) => row.changedInUpload)).toEqual([true, false]);
    } finally {
      staging.close();
      other.close();
    }
    expect(existsSync(staging.path)).toBe(false);
    expect(existsSync(other.path)).toBe(false);
  });
});
