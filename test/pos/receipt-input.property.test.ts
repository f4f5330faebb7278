import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength } from '../../src/lib/unicode-text.js';
import { quickReceiptInput, receiptInput } from '../../src/pos/receipts/receipt-input.js';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from '../../src/pos/receipts/receipt-rules.js';

// The receipts of an upload are read without the schema library when they are good
// (src/pos/receipts/receipt-input.ts, `quickReceiptInput`): it must read exactly what `receiptInput` reads, and
// leave every receipt it does not accept to `receiptInput`, which says why.

/** Field values near the rules' edges: good ones and bad ones of every field. */
const text = fc.oneof(
  fc.string({ maxLength: 70 }),
  fc.string({ unit: 'grapheme', maxLength: 70 }),
  fc.constantFrom('', 'a\u0000b', '\ud800', 'x\udc00y', '😀'.repeat(64), '😀'.repeat(65), 'é'.repeat(201)),
  fc.string({ unit: 'binary', maxLength: 210 }),
);
const identifier = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9]{1,64}$/),
  fc.constantFrom('', 'a'.repeat(65), 'a-b', 'é', 'A1\n'),
);
const value = fc.oneof(
  text,
  identifier,
  fc.constantFrom(null, undefined, true, false, 0, 12.5, [], {}),
  fc.constantFrom(
    '2026-11-20T21:30:00-03:00',
    '2026-11-20T21:30:00.123Z',
    '2026-02-30T00:00:00Z',
    '2026-11-20',
  ),
  fc.constantFrom('12.50', '-0.99', '0', '12.505', '1e3', '99999999999999999.99', ' 1.00'),
  fc.constantFrom(...RECEIPT_KINDS, ...RECEIPT_STATUSES, 'Sale', 'PAID'),
);
const FIELDS = [
  'id',
  'place',
  'event',
  'occurred_at',
  'payment_method',
  'brand',
  'amount',
  'kind',
  'status',
  'demo',
] as const;

/** A good receipt, every optional field present or left out. */
const goodReceipt = fc.record(
  {
    id: fc.stringMatching(/^[A-Za-z0-9]{1,64}$/),
    place: fc.stringMatching(/^[A-Za-z0-9]{1,64}$/),
    event: fc.option(fc.stringMatching(/^[A-Za-z0-9]{1,64}$/)),
    occurred_at: fc
      .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) })
      .map((ms) => new Date(ms).toISOString()),
    payment_method: text.filter(
      (code) => code !== '' && !code.includes('\u0000') && codePointLength(code) <= 64,
    ),
    brand: fc.option(fc.string({ unit: 'grapheme', maxLength: 50 })),
    amount: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map((cents) => {
      const digits = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
      return `${cents < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
    }),
    kind: fc.constantFrom(...RECEIPT_KINDS, null),
    status: fc.constantFrom(...RECEIPT_STATUSES),
    demo: fc.boolean(),
  },
  { requiredKeys: ['id', 'place', 'occurred_at', 'payment_method', 'amount', 'kind'] },
);

describe('a receipt read without the schema library', () => {
  it('reads every good receipt, as receiptInput reads it', () => {
    fc.assert(
      fc.property(goodReceipt, (receipt) => {
        const parsed = receiptInput.safeParse(receipt);
        expect(parsed.success).toBe(true);
        expect(quickReceiptInput(receipt)).toStrictEqual(parsed.data);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts nothing receiptInput refuses, and what it accepts it reads as receiptInput does', () => {
    const anyReceipt = fc.oneof(
      // A good receipt with one field replaced, removed or added.
      fc
        .tuple(goodReceipt, fc.constantFrom(...FIELDS, '__proto__', 'extra'), value, fc.boolean())
        .map(([receipt, field, replaced, removed]) => {
          const copy = Object.fromEntries(Object.entries(receipt).filter(([key]) => key !== field));
          if (!removed)
            Object.defineProperty(copy, field, { value: replaced, enumerable: true, writable: true });
          return copy;
        }),
      fc.dictionary(fc.constantFrom(...FIELDS), value),
      fc.anything(),
      // As JSON.parse reads a line (a "__proto__" key is an own field there).
      goodReceipt.map(
        (receipt) => JSON.parse(JSON.stringify(receipt).replace('{', '{"__proto__":{},')) as unknown,
      ),
    );
    fc.assert(
      fc.property(anyReceipt, (input) => {
        const quick = quickReceiptInput(input);
        const parsed = receiptInput.safeParse(input);
        if (quick !== undefined) {
          expect(parsed.success).toBe(true);
          expect(quick).toStrictEqual(parsed.data);
        }
      }),
      { numRuns: 5000 },
    );
  });
});
