import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReceiptGroup, SalesFigures } from '../../src/pos/sales-figures.js';
import { salesFigures, shareText } from '../../src/pos/sales-figures.js';

// Properties of the receipts-by-payment-method figures (pos-data-api.md, "Receipts-by-payment-method
// response", "Brand rules", payment method table; DECISIONS, POS data API). The expected response is
// computed here from the raw receipts, by hand, without the module's helpers or regular expressions:
// its own method table, brand folding code point by code point, shares as exact rationals.

/** The method table as the document writes it, in its order. */
const TABLE: readonly (readonly [string, string])[] = [
  ['cash', 'Dinheiro'],
  ['tef_virtual_wallet', 'TEF - Carteira digital'],
  ['tef_credit', 'TEF - Crédito'],
  ['tef_debit', 'TEF - Débito'],
  ['tef_voucher', 'TEF - Voucher'],
  ['tef_voucher_2', 'TEF - Voucher 2'],
  ['tef_others', 'TEF - Outros'],
  ['tef_pix', 'TEF - Pix'],
  ['tef_unspecified', 'TEF - Não informado'],
  ['pos', 'POS'],
  ['voucher', 'Voucher'],
  ['not_identified', 'Não identificado'],
  ['other', 'Outros'],
];
const CODES = TABLE.map(([code]) => code);

/** Unicode White_Space (PropList.txt), listed by hand. */
const WHITE_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

/** A character the brand format accepts: ASCII letter or digit, space, `. & + / _ -`. */
function inFormat(cp: number): boolean {
  const isDigit = cp >= 0x30 && cp <= 0x39;
  const isLetter = (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
  return isDigit || isLetter || ' .&+/_-'.includes(String.fromCodePoint(cp));
}

/** Reference folding: spaces collapsed and trimmed, then the format (1 to 40), else OTHER. */
function referenceBrand(raw: string | null): string | null {
  if (raw === null) return null;
  const kept: number[] = [];
  let pendingSpace = false;
  for (const char of raw) {
    const cp = char.codePointAt(0)!;
    if (WHITE_SPACE.has(cp)) {
      pendingSpace = kept.length > 0;
      continue;
    }
    if (pendingSpace) kept.push(0x20);
    pendingSpace = false;
    kept.push(cp);
  }
  if (kept.length === 0 || kept.length > 40 || !kept.every(inFormat)) return 'OTHER';
  return String.fromCodePoint(...kept);
}

/** Reference money text: sign, units, dot, two decimals. */
function referenceMoney(cents: bigint): string {
  const digits = (cents < 0n ? -cents : cents).toString().padStart(3, '0');
  return `${cents < 0n ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/**
 * Reference share: the rational amount * 100 / total rounded half away from zero to three decimals, as
 * floor((2 * |x| * 1000 + 1) / 2) with |x| = |amount| * 100 / |total|, i.e. floor((2|a|·10⁵ + |t|) / 2|t|).
 */
function referenceShare(amount: bigint, total: bigint): string {
  if (total === 0n) return '0.000';
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const thousandths = (2n * abs(amount) * 100_000n + abs(total)) / (2n * abs(total));
  const negative = amount < 0n !== total < 0n && thousandths !== 0n;
  const digits = thousandths.toString().padStart(4, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -3)}.${digits.slice(-3)}`;
}

/** Binary (UTF-16 code unit) comparison, written out. */
function compareUnits(a: string, b: string): number {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  return a.length - b.length;
}

interface RawReceipt {
  method: string;
  brand: string | null;
  cents: bigint;
}

/** The expected response, from the raw receipts. */
function reference(receipts: readonly RawReceipt[]): SalesFigures {
  const total = receipts.reduce((sum, r) => sum + r.cents, 0n);
  const data: SalesFigures['data'] = [];
  for (const [code, label] of TABLE) {
    const mine = receipts.filter((r) => (CODES.includes(r.method) ? r.method : 'other') === code);
    if (mine.length === 0) continue;
    const amount = mine.reduce((sum, r) => sum + r.cents, 0n);
    const brands: SalesFigures['data'][number]['brands'] = [];
    if (code.startsWith('tef_')) {
      const names: (string | null)[] = [];
      for (const r of mine) {
        const name = referenceBrand(r.brand);
        if (!names.includes(name)) names.push(name);
      }
      const lines = names.map((name) => {
        const of = mine.filter((r) => referenceBrand(r.brand) === name);
        return { name, count: of.length, cents: of.reduce((sum, r) => sum + r.cents, 0n) };
      });
      const named = lines.filter((line) => line.name !== null);
      named.sort((a, b) =>
        a.cents === b.cents ? compareUnits(a.name!, b.name!) : a.cents > b.cents ? -1 : 1,
      );
      for (const line of [...named, ...lines.filter((l) => l.name === null)]) {
        brands.push({
          brand: line.name,
          count: line.count,
          amount: referenceMoney(line.cents),
          share: referenceShare(line.cents, total),
        });
      }
    }
    data.push({
      payment_method: code as SalesFigures['data'][number]['payment_method'],
      label,
      count: mine.length,
      amount: referenceMoney(amount),
      share: referenceShare(amount, total),
      brands,
    });
  }
  return { total: { count: receipts.length, amount: referenceMoney(total) }, data };
}

/** Groups by stored method and brand, as the database does, with cents as a number when it is safe. */
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

  it('share: the exact rational rounded half away from zero, exact halves included (DECISIONS, POS data API)', () => {
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

  it('total zero: every share is "0.000" (DECISIONS, POS data API)', () => {
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
