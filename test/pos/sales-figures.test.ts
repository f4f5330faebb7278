import { describe, expect, it } from 'vitest';
import { foldBrand } from '../../src/pos/sales/brand.js';
import { PAYMENT_METHODS, isTefMethod, methodCode } from '../../src/pos/receipts/payment-methods.js';
import type { ReceiptGroup } from '../../src/pos/sales/sales-figures.js';
import { salesFigures, shareText } from '../../src/pos/sales/sales-figures.js';
import { TABLE } from './figures-reference.js';

// The figures of the receipts-by-payment-method response, one rule per test (docs/pos-api.md,
// "Receipts-by-payment-method response", "Brand rules", payment method table; docs/pos-api.md, Settled
// details).

const group = (
  paymentMethod: string,
  amountCents: bigint | number,
  brand: string | null = null,
  count = 1,
): ReceiptGroup => ({ paymentMethod, brand, count, amountCents });

/** The brand lines of one method, as `[brand, count, amount, share]`. */
function brandLines(groups: ReceiptGroup[], method = 'tef_credit') {
  const line = salesFigures(groups).data.find((item) => item.payment_method === method);
  return line?.brands.map((b) => [b.brand, b.count, b.amount, b.share]);
}

describe('payment methods (docs/pos-api.md, payment method table)', () => {
  it('methods: the table in document order with its Portuguese labels (payment method table)', () => {
    // The table as the document writes it, kept by hand in figures-reference.ts.
    expect(PAYMENT_METHODS.map((m) => [m.code, m.label])).toEqual(TABLE);
  });

  it('methods: the TEF methods are the tef_* codes (Receipts-by-payment-method response, brands)', () => {
    expect(PAYMENT_METHODS.filter((m) => isTefMethod(m.code)).map((m) => m.code)).toEqual([
      'tef_virtual_wallet',
      'tef_credit',
      'tef_debit',
      'tef_voucher',
      'tef_voucher_2',
      'tef_others',
      'tef_pix',
      'tef_unspecified',
    ]);
  });

  it('methods: an unknown stored code is other, compared exactly (payment method table)', () => {
    expect(methodCode('tef_credit')).toBe('tef_credit');
    expect(methodCode('crypto')).toBe('other');
    expect(methodCode('tef_new')).toBe('other');
    expect(methodCode('TEF_CREDIT')).toBe('other');
    expect(methodCode(' cash')).toBe('other');
    expect(methodCode('')).toBe('other');
  });
});

describe('brand folding (Brand rules; docs/pos-api.md, Settled details)', () => {
  it('brands: spaces are trimmed and inner runs collapsed (docs/pos-api.md, Settled details)', () => {
    expect(foldBrand('  MASTER   CARD  ')).toBe('MASTER CARD');
    expect(foldBrand('VISA\t ELECTRON\u00a0')).toBe('VISA ELECTRON');
  });

  it('brands: case is kept (docs/pos-api.md, Settled details)', () => {
    expect(foldBrand('Visa')).toBe('Visa');
    expect(foldBrand('VISA')).toBe('VISA');
  });

  it('brands: the format is 1 to 40 letters, digits, space and . & + / _ - (Brand rules)', () => {
    expect(foldBrand('A.B&C+D/E_F-G 9')).toBe('A.B&C+D/E_F-G 9');
    expect(foldBrand('X'.repeat(40))).toBe('X'.repeat(40));
    expect(foldBrand('X'.repeat(41))).toBe('OTHER');
    expect(foldBrand(` ${'X'.repeat(40)}   `)).toBe('X'.repeat(40));
    expect(foldBrand('ELO CRÉDITO')).toBe('OTHER');
    expect(foldBrand('VISA*')).toBe('OTHER');
    expect(foldBrand('VISA\u200b')).toBe('OTHER');
    expect(foldBrand('VISA\n')).toBe('VISA');
  });

  it('brands: only an absent brand is null (Brand rules)', () => {
    expect(foldBrand(null)).toBeNull();
    expect(foldBrand(undefined)).toBeNull();
  });

  it('brands: an empty or all-space text fails the 1-to-40 format and is OTHER (docs/pos-api.md, Settled details)', () => {
    expect(foldBrand('')).toBe('OTHER');
    expect(foldBrand(' \t\u3000 ')).toBe('OTHER');
  });

  it('brands: a very long run of spaces is folded in linear time (Brand rules)', () => {
    const started = performance.now();
    expect(foldBrand(`A${' '.repeat(200_000)}B${' '.repeat(200_000)}x`)).toBe('A B x');
    expect(foldBrand(`${' '.repeat(200_000)}!`)).toBe('OTHER');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('sales figures (Receipts-by-payment-method response)', () => {
  it('empty: no receipts give data [] and a zero total (Receipts-by-payment-method response)', () => {
    expect(salesFigures([])).toEqual({ total: { count: 0, amount: '0.00' }, data: [] });
  });

  it('total: count and amount of every counted receipt (What counts toward the total)', () => {
    const figures = salesFigures([group('cash', 1050, null, 2), group('tef_pix', 2000n), group('pos', -50)]);
    expect(figures.total).toEqual({ count: 4, amount: '30.00' });
  });

  it('data: only methods with receipts, in the order of the table (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([
      group('other', 100),
      group('voucher', 100),
      group('cash', 100),
      group('tef_debit', 100),
      group('tef_credit', 100),
    ]);
    expect(figures.data.map((line) => [line.payment_method, line.label])).toEqual([
      ['cash', 'Dinheiro'],
      ['tef_credit', 'TEF - Crédito'],
      ['tef_debit', 'TEF - Débito'],
      ['voucher', 'Voucher'],
      ['other', 'Outros'],
    ]);
  });

  it('data: a line is count, amount, share and brands (Receipts-by-payment-method response)', () => {
    expect(salesFigures([group('cash', 123456, null, 3)]).data).toEqual([
      {
        payment_method: 'cash',
        label: 'Dinheiro',
        count: 3,
        amount: '1234.56',
        share: '100.000',
        brands: [],
      },
    ]);
  });

  it('data: a group of zero receipts makes no line (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([
      group('cash', 0, null, 0),
      group('tef_credit', 100),
      group('tef_credit', 0, 'ELO', 0),
    ]);
    expect(figures.data.map((line) => line.payment_method)).toEqual(['tef_credit']);
    expect(brandLines([group('tef_credit', 100), group('tef_credit', 0, 'ELO', 0)])).toEqual([
      [null, 1, '1.00', '100.000'],
    ]);
  });

  it('other: unknown stored codes are summed into the other line, label Outros (payment method table)', () => {
    const figures = salesFigures([
      group('crypto', 100, 'VISA'),
      group('other', 200),
      group('tef_new', 300, null, 2),
      group('cash', 400),
    ]);
    expect(figures.data).toEqual([
      { payment_method: 'cash', label: 'Dinheiro', count: 1, amount: '4.00', share: '40.000', brands: [] },
      { payment_method: 'other', label: 'Outros', count: 4, amount: '6.00', share: '60.000', brands: [] },
    ]);
  });

  it('brands: empty outside TEF methods (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([group('pos', 100, 'VISA'), group('voucher', 100, 'Alelo')]);
    expect(figures.data.map((line) => line.brands)).toEqual([[], []]);
  });

  it('brands: every TEF method has its breakdown (Receipts-by-payment-method response)', () => {
    const tef = PAYMENT_METHODS.filter((m) => isTefMethod(m.code)).map((m) => m.code);
    const figures = salesFigures(tef.map((code) => group(code, 100, 'VISA')));
    expect(figures.data.map((line) => line.brands.map((b) => b.brand))).toEqual(tef.map(() => ['VISA']));
  });

  it('brands: a spelling with extra spaces is merged (Brand rules)', () => {
    expect(
      brandLines([group('tef_credit', 100, 'MASTER CARD'), group('tef_credit', 250, '  MASTER    CARD ', 2)]),
    ).toEqual([['MASTER CARD', 3, '3.50', '100.000']]);
  });

  it('brands: spellings differing in case are two lines (docs/pos-api.md, Settled details)', () => {
    expect(brandLines([group('tef_credit', 300, 'VISA'), group('tef_credit', 100, 'Visa')])).toEqual([
      ['VISA', 1, '3.00', '75.000'],
      ['Visa', 1, '1.00', '25.000'],
    ]);
  });

  it('brands: everything outside the format is summed into one OTHER line (Brand rules)', () => {
    expect(
      brandLines(
        [
          group('tef_debit', 100, 'ELO DÉBITO'),
          group('tef_debit', 200, 'X'.repeat(41), 2),
          group('tef_debit', 300, 'visa#1'),
          group('tef_debit', 400, 'OTHER'),
          group('tef_debit', 1000, 'ELO'),
        ],
        'tef_debit',
      ),
    ).toEqual([
      ['ELO', 1, '10.00', '50.000'],
      ['OTHER', 5, '10.00', '50.000'],
    ]);
  });

  it('brands: OTHER changes no count, amount or total (Brand rules)', () => {
    const plain = salesFigures([group('tef_credit', 700, 'A', 2), group('tef_credit', 300, 'B')]);
    const odd = salesFigures([group('tef_credit', 700, 'á', 2), group('tef_credit', 300, 'ç')]);
    expect(odd.total).toEqual(plain.total);
    expect(odd.data.map(({ brands: _, ...line }) => line)).toEqual(
      plain.data.map(({ brands: _, ...line }) => line),
    );
    expect(odd.data[0]!.brands).toEqual([{ brand: 'OTHER', count: 3, amount: '10.00', share: '100.000' }]);
  });

  it('brands: null groups the receipts without a brand (Brand rules)', () => {
    expect(brandLines([group('tef_credit', 100, null), group('tef_credit', 200, null)])).toEqual([
      [null, 2, '3.00', '100.000'],
    ]);
  });

  it('brands: ordered by amount descending (Brand rules)', () => {
    expect(
      brandLines([
        group('tef_credit', 100, 'A'),
        group('tef_credit', 300, 'B'),
        group('tef_credit', -50, 'C'),
      ])?.map(([brand]) => brand),
    ).toEqual(['B', 'A', 'C']);
  });

  it('brands: ties by name in binary order, not by count (docs/pos-api.md, Settled details)', () => {
    expect(
      brandLines([
        group('tef_credit', 100, 'visa'),
        group('tef_credit', 100, 'Visa', 5),
        group('tef_credit', 100, 'VISA'),
        group('tef_credit', 100, 'OTHER'),
        group('tef_credit', 100, 'ELO'),
        group('tef_credit', 100, '_x'),
        group('tef_credit', 100, '10'),
        group('tef_credit', 100, '9'),
      ])?.map(([brand]) => brand),
    ).toEqual(['10', '9', 'ELO', 'OTHER', 'VISA', 'Visa', '_x', 'visa']);
  });

  it('brands: no-brand last, even with the largest amount (Brand rules)', () => {
    expect(
      brandLines([
        group('tef_credit', 100_000, null),
        group('tef_credit', 100, 'ELO'),
        group('tef_credit', -100, 'VISA'),
      ])?.map(([brand]) => brand),
    ).toEqual(['ELO', 'VISA', null]);
  });

  it('brands: share is of the period total, not of the method line (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([group('cash', 300), group('tef_credit', 100, 'VISA')]);
    expect(figures.data[1]).toMatchObject({ share: '25.000', brands: [{ brand: 'VISA', share: '25.000' }] });
  });

  it('share: half away from zero, three decimals (docs/pos-api.md, Settled details)', () => {
    expect(shareText(1n, 3n)).toBe('33.333');
    expect(shareText(2n, 3n)).toBe('66.667');
    expect(shareText(1n, 200_000n)).toBe('0.001');
    expect(shareText(-1n, 200_000n)).toBe('-0.001');
    expect(shareText(1n, 200_001n)).toBe('0.000');
    expect(shareText(1n, 1n)).toBe('100.000');
    expect(shareText(1n, 8n)).toBe('12.500');
    expect(shareText(1n, 16n)).toBe('6.250');
    expect(shareText(3n, 200_000n)).toBe('0.002');
    expect(shareText(-3n, 200_000n)).toBe('-0.002');
    expect(shareText(1n, 64n)).toBe('1.563');
    expect(shareText(-1n, 64n)).toBe('-1.563');
    expect(shareText(1n, -64n)).toBe('-1.563');
    expect(shareText(-1n, -64n)).toBe('1.563');
  });

  it('share: computed from exact integers, even beyond safe numbers (docs/pos-api.md, Settled details)', () => {
    const total = 2n ** 70n;
    expect(shareText(total / 3n, total)).toBe('33.333');
    expect(shareText(total - 1n, total)).toBe('100.000');
    const figures = salesFigures([group('cash', 2n ** 64n), group('pos', 2n ** 64n)]);
    expect(figures.total.amount).toBe('368934881474191032.32');
    expect(figures.data.map((line) => line.share)).toEqual(['50.000', '50.000']);
  });

  it('share: the sum may differ from 100.000 by rounding (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([group('cash', 1), group('pos', 1), group('voucher', 1)]);
    expect(figures.data.map((line) => line.share)).toEqual(['33.333', '33.333', '33.333']);
  });

  it('negative receipts: a share may be negative or above 100 (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([group('cash', 1500), group('pos', -500), group('tef_credit', -0, 'ELO')]);
    expect(figures.total).toEqual({ count: 3, amount: '10.00' });
    expect(figures.data.map((line) => [line.payment_method, line.amount, line.share])).toEqual([
      ['cash', '15.00', '150.000'],
      ['tef_credit', '0.00', '0.000'],
      ['pos', '-5.00', '-50.000'],
    ]);
  });

  it('negative receipts: a negative total keeps the sign of each part (Receipts-by-payment-method response)', () => {
    const figures = salesFigures([group('cash', -300), group('pos', 100)]);
    expect(figures.total.amount).toBe('-2.00');
    expect(figures.data.map((line) => line.share)).toEqual(['150.000', '-50.000']);
  });

  it('negative receipts: a share rounding to zero is "0.000", never "-0.000" (docs/pos-api.md, Settled details)', () => {
    expect(shareText(-1n, 10_000_000n)).toBe('0.000');
    expect(shareText(1n, -10_000_000n)).toBe('0.000');
  });

  it('total zero: every share is "0.000" (docs/pos-api.md, Settled details)', () => {
    const figures = salesFigures([group('cash', 500), group('tef_credit', -500, 'VISA'), group('pos', 0)]);
    expect(figures.total).toEqual({ count: 3, amount: '0.00' });
    expect(figures.data.map((line) => line.share)).toEqual(['0.000', '0.000', '0.000']);
    expect(figures.data[1]!.brands).toEqual([{ brand: 'VISA', count: 1, amount: '-5.00', share: '0.000' }]);
  });

  it('money: amounts are text with two decimals (Conventions)', () => {
    const figures = salesFigures([group('cash', 5), group('cash', -1), group('pos', 100_000_050n)]);
    expect(figures.data.map((line) => line.amount)).toEqual(['0.04', '1000000.50']);
    expect(figures.total.amount).toBe('1000000.54');
  });

  it('input: numbers and bigints are the same cents; groups may repeat (Receipts-by-payment-method response)', () => {
    expect(salesFigures([group('cash', 250), group('cash', 250n, 'x')])).toEqual(
      salesFigures([group('cash', 500n, null, 2)]),
    );
  });

  it('input: a fractional amount or count is refused, never guessed (Conventions)', () => {
    expect(() => salesFigures([group('cash', 1.5)])).toThrow(RangeError);
    expect(() => salesFigures([group('cash', 1, null, 1.5)])).toThrow(RangeError);
    expect(() => salesFigures([group('cash', 1, null, -1)])).toThrow(RangeError);
  });
});
