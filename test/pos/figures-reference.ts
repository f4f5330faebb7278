import type { SalesFigures } from '../../src/pos/sales/sales-figures.js';

// An independent computation of the receipts-by-payment-method figures from raw receipts
// (docs/pos-api.md, "Receipts-by-payment-method response", "Brand rules", payment method table;
// docs/pos-api.md, Settled details), written by hand without the module's helpers or regular expressions: its
// own method table, brand folding code point by code point, money text and shares as exact rationals.

/** The method table as the document writes it, in its order. */
export const TABLE: readonly (readonly [string, string])[] = [
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
export const CODES = TABLE.map(([code]) => code);

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
export function referenceShare(amount: bigint, total: bigint): string {
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

/** One counted receipt, as stored: method and brand as recorded, amount in cents. */
export interface RawReceipt {
  method: string;
  brand: string | null;
  cents: bigint;
}

/** The expected `total` and `data`, from the counted receipts one by one. */
export function referenceFigures(receipts: readonly RawReceipt[]): SalesFigures {
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
