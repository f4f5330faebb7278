import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReceiptGroup } from '../../src/pos/sales/sales-figures.js';
import { salesFigures, shareText } from '../../src/pos/sales/sales-figures.js';
import {
  CODES,
  referenceFigures as reference,
  referenceShare,
  type RawReceipt,
} from './figures-reference.js';

// Properties of the receipts-by-payment-method figures (docs/pos-api.md, "Receipts-by-payment-method
// response", "Brand rules", payment method table; docs/pos-api.md, Settled details). The expected response
// comes from the hand-written reference in figures-reference.ts, which shares nothing with the module.

function groupLikeTheDatabase(receipts: readonly RawReceipt[]): ReceiptGroup[] {
  const groups = new Map<string, ReceiptGroup & { amountCents: bigint }>();
  for (const r of receipts) {
    const key = JSON.stringify([r.method, r.brand]);
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { paymentMethod: r.method, brand: r.brand, count: 1, amountCents: r.cents });
    } else {
      group.count += 1;
      group.amountCents += r.cents;
    }
  }
  return [...groups.values()].map((g) => {
    const asNumber = Number(g.amountCents);
    return Number.isSafeInteger(asNumber) ? { ...g, amountCents: asNumber } : g;
  });
}

/** Parses money text back into cents, by hand. */
function centsOf(text: string): bigint {
  const negative = text.startsWith('-');
  const value = BigInt(text.replace('-', '').replace('.', ''));
  return negative ? -value : value;
}

const spellingPiece = fc.constantFrom(
  'VISA',
  'Visa',
  'MASTER',
  'ELO',
  'OTHER',
  'x',
  '9',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u3000',
  '\n',
  '.',
  '&',
  '+',
  '/',
  '_',
  '-',
  'é',
  '€',
  '#',
  '\u200b',
  '😀',
);

const brand: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(null) },
  { weight: 6, arbitrary: fc.array(spellingPiece, { maxLength: 6 }).map((pieces) => pieces.join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 36, max: 46 }), fc.constantFrom('', ' ', '   ', '\t'))
      .map(([length, edge]) => `${edge}${'A'.repeat(length)}${edge}`),
  },
);

const method = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...CODES) },
  { weight: 2, arbitrary: fc.constantFrom('crypto', 'TEF_CREDIT', 'tef_new', '', ' cash') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

const cents = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map(BigInt),
  fc.integer({ min: -1_000_000, max: 1_000_000 }).map(BigInt),
  fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }),
);

const receipt: fc.Arbitrary<RawReceipt> = fc.record({ method, brand, cents });
const receipts = fc.array(receipt, { maxLength: 40 });

describe('sales figures, properties (Receipts-by-payment-method response; Brand rules)', () => {
  it('figures: equal an independent computation from the raw receipts', () => {
    fc.assert(
      fc.property(receipts, (raw) => {
        expect(salesFigures(groupLikeTheDatabase(raw))).toEqual(reference(raw));
      }),
      { numRuns: 500 },
    );
  });

  it('figures: do not depend on how the receipts were grouped or ordered', () => {
    fc.assert(
      fc.property(receipts, fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), (raw, order) => {
        const singles = raw.map((r) => ({
          paymentMethod: r.method,
          brand: r.brand,
          count: 1,
          amountCents: r.cents,
        }));
        const shuffled = singles.map((g, i) => ({ g, k: order[i]! })).sort((a, b) => a.k - b.k);
        expect(salesFigures(shuffled.map(({ g }) => g))).toEqual(salesFigures(groupLikeTheDatabase(raw)));
      }),
    );
  });

  it('share: the exact rational rounded half away from zero, exact halves included (docs/pos-api.md, Settled details)', () => {
    const big = fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n });
    // amount = (2m + 1)·k and total = 200000·k put the share exactly halfway between two thousandths.
    const half = fc
      .tuple(
        fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.boolean(),
      )
      .map(([m, k, flip]) => [(2n * m + 1n) * k, (flip ? -200_000n : 200_000n) * k] as const);
    fc.assert(
      fc.property(fc.oneof(fc.tuple(big, big), half), ([amount, total]) => {
        expect(shareText(amount, total)).toBe(referenceShare(amount, total));
      }),
      { numRuns: 1000 },
    );
  });

  it('total zero: every share is "0.000" (docs/pos-api.md, Settled details)', () => {
    fc.assert(
      fc.property(receipts, (raw) => {
        const balanced = [...raw, ...raw.map((r) => ({ ...r, method: 'cash', cents: -r.cents }))];
        const figures = salesFigures(groupLikeTheDatabase(balanced));
        expect(figures.total.amount).toBe('0.00');
        for (const line of figures.data) {
          expect(line.share).toBe('0.000');
          for (const item of line.brands) expect(item.share).toBe('0.000');
        }
      }),
    );
  });

  it('amounts: method lines sum to the total exactly, brand lines to their method line', () => {
    fc.assert(
      fc.property(receipts, (raw) => {
        const figures = salesFigures(groupLikeTheDatabase(raw));
        const sum = (values: bigint[]) => values.reduce((a, b) => a + b, 0n);
        expect(sum(figures.data.map((line) => centsOf(line.amount)))).toBe(centsOf(figures.total.amount));
        expect(figures.data.reduce((n, line) => n + line.count, 0)).toBe(figures.total.count);
        for (const line of figures.data) {
          if (line.brands.length === 0) continue;
          expect(sum(line.brands.map((item) => centsOf(item.amount)))).toBe(centsOf(line.amount));
          expect(line.brands.reduce((n, item) => n + item.count, 0)).toBe(line.count);
        }
      }),
    );
  });
});
