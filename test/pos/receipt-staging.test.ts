import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
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

  it('sums what the last version of each staged receipt counts per hour, every receipt of the place and again by event, and takes no receipt afterwards', async () => {
    const staging = openReceiptStaging({ sumHours: true });
    const hour = Date.UTC(2026, 10, 20, 21);
    try {
      staging.add([
        { receipt: receipt('R1'), position: 1 },
        {
          receipt: receipt('R2', { eventId: 'E1', amountCents: 300, occurredAt: hour + 59 * 60_000 }),
          position: 2,
        },
        // Does not count: never in the sums.
        { receipt: receipt('R3', { status: 'cancelled' }), position: 3 },
        // Counts until its later version moves it to the next hour and another brand.
        { receipt: receipt('R4', { paymentMethod: 'tef_credit', brand: 'VISA' }), position: 4 },
        // Cancelled by its later version: leaves the sums.
        { receipt: receipt('R5', { amountCents: 7 }), position: 5 },
      ]);
      staging.add([
        {
          receipt: receipt('R4', { paymentMethod: 'tef_credit', brand: 'ELO', occurredAt: hour + 3_600_000 }),
          position: 6,
        },
        { receipt: receipt('R5', { amountCents: 7, status: 'cancelled' }), position: 7 },
      ]);
      await staging.writeHourSums();
      expect(() => {
        staging.add([{ receipt: receipt('R6'), position: 8 }]);
      }).toThrow();
      const file = new SQLite(staging.path, { readonly: true });
      try {
        const rows = file.prepare('select * from hours order by rowid').all();
        expect(rows).toEqual([
          {
            place_id: 'p1',
            event_id: '',
            slot_start: hour,
            payment_method: 'cash',
            branded: 0,
            brand: '',
            receipts: 2,
            amount_cents: 1550,
          },
          {
            place_id: 'p1',
            event_id: '',
            slot_start: hour + 3_600_000,
            payment_method: 'tef_credit',
            branded: 1,
            brand: 'ELO',
            receipts: 1,
            amount_cents: 1250,
          },
          {
            place_id: 'p1',
            event_id: 'E1',
            slot_start: hour,
            payment_method: 'cash',
            branded: 0,
            brand: '',
            receipts: 1,
            amount_cents: 300,
          },
        ]);
      } finally {
        file.close();
      }
    } finally {
      staging.close();
    }
  });
});
