import { existsSync } from 'node:fs';
import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openReceiptStaging, PAGE_COLUMNS } from '../../src/pos/receipts/receipt-staging.js';
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
      const pages = [...staging.jsonPages(10)].map((page) => JSON.parse(page) as unknown[][]);
      expect(pages).toHaveLength(1);
      const rows = pages[0]!.map((row) =>
        Object.fromEntries(PAGE_COLUMNS.map((column, i) => [column, row[i]])),
      );
      expect(rows).toEqual([
        {
          id: 'R1',
          place_id: 'p1',
          event_id: null,
          occurred_at: Date.UTC(2026, 10, 20, 21),
          payment_method: 'cash',
          brand: null,
          amount_cents: 999,
          kind: 'sale',
          status: 'paid',
          demo: 0,
          counted: 1,
          // The first version, as JSON, beside the last; changed: a later version differed.
          first: JSON.stringify(receipt('R1')),
          changed: 1,
        },
        {
          id: 'R2',
          place_id: 'p1',
          event_id: null,
          occurred_at: Date.UTC(2026, 10, 20, 21),
          payment_method: 'cash',
          brand: null,
          amount_cents: 1250,
          kind: 'sale',
          status: 'cancelled',
          demo: 0,
          counted: 0,
          first: null,
          changed: 0,
        },
      ]);
    } finally {
      staging.close();
      other.close();
    }
    expect(existsSync(staging.path)).toBe(false);
    expect(existsSync(other.path)).toBe(false);
  });

  it('reads the staged receipts back by id, a page at a time, every text exactly as sent', () => {
    const staging = openReceiptStaging();
    try {
      const odd = ['quote"d', 'back\\slash', 'ção', 'emoji-🧾', 'tab\tand\nline', "apos'trophe"];
      const ids = [...Array.from({ length: 19 }, (_, i) => `R${String(i).padStart(2, '0')}`), ...odd];
      staging.add(
        ids.map((id, i) => ({
          receipt: receipt(id, { brand: id, kind: i % 2 === 0 ? null : 'tab' }),
          position: i,
        })),
      );
      const pages = [...staging.jsonPages(10)].map((page) => JSON.parse(page) as unknown[][]);
      expect(pages.map((page) => page.length)).toEqual([10, 10, 5]);
      const read = pages.flat();
      expect(read.map((row) => row[0])).toEqual([...ids].sort());
      // Every text comes back as sent (the brand holds the id here).
      for (const row of read) expect(row[PAGE_COLUMNS.indexOf('brand')]).toBe(row[0]);
      expect(new Set(read.map((row) => row[PAGE_COLUMNS.indexOf('kind')]))).toEqual(new Set([null, 'tab']));
      const empty = openReceiptStaging();
      expect([...empty.jsonPages(10)]).toEqual([]);
      empty.close();
    } finally {
      staging.close();
    }
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
