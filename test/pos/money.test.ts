import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, parseMoney } from '../../src/pos/receipts/money.js';

// Money on the wire is text with a dot and two decimals, possibly negative, and integer cents everywhere
// else (docs/pos-api.md, Conventions).

describe('money (docs/pos-api.md, Conventions)', () => {
  it('format: a dot and two decimals, negative with a minus (Conventions)', () => {
    expect(formatMoney(123450)).toBe('1234.50');
    expect(formatMoney(-99)).toBe('-0.99');
    expect(formatMoney(0)).toBe('0.00');
    expect(formatMoney(-0)).toBe('0.00');
    expect(formatMoney(5n)).toBe('0.05');
    expect(formatMoney(10n ** 20n + 1n)).toBe('1000000000000000000.01');
  });

  it('format: fractional cents are refused, never rounded (Conventions)', () => {
    expect(() => formatMoney(1.5)).toThrow(RangeError);
  });

  it('parse: digits with none, one or two decimals, optionally negative (Conventions)', () => {
    expect(parseMoney('12')).toBe(1200);
    expect(parseMoney('12.5')).toBe(1250);
    expect(parseMoney('12.50')).toBe(1250);
    expect(parseMoney('-0.99')).toBe(-99);
    expect(parseMoney('0.00')).toBe(0);
    expect(Object.is(parseMoney('-0.00'), 0)).toBe(true);
  });

  it('parse: the largest safe amount is the limit (Conventions)', () => {
    expect(parseMoney('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
    expect(parseMoney('-90071992547409.91')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(parseMoney('90071992547409.92')).toBeNull();
    expect(parseMoney('90071992547410')).toBeNull();
  });

  it.each(['1e3', '1,00', '1.234', ' 1.00', '1.00 ', '', '-', '+1.00', '.50', '1.', '0x10', 'NaN', '١٢'])(
    'parse: %j is refused, amounts are never guessed (Conventions)',
    (text) => {
      expect(parseMoney(text)).toBeNull();
    },
  );

  it('parse: more than 16 integer digits is refused (Conventions)', () => {
    expect(parseMoney('12345678901234567')).toBeNull();
    expect(parseMoney('-12345678901234567.00')).toBeNull();
    expect(parseMoney('1'.repeat(1000))).toBeNull();
  });

  it('round trip: parse(format(cents)) is cents for every safe amount (Conventions)', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(parseMoney(formatMoney(cents))).toBe(cents === 0 ? 0 : cents);
        expect(formatMoney(BigInt(cents))).toBe(formatMoney(cents));
      }),
      { numRuns: 2000 },
    );
  });

  it('round trip: format(parse(text)) is the canonical text of an accepted text (Conventions)', () => {
    const text = fc
      .tuple(fc.boolean(), fc.stringMatching(/^[1-9]\d{0,12}$|^0$/), fc.stringMatching(/^(\.\d{1,2})?$/))
      .map(([minus, units, decimals]) => `${minus ? '-' : ''}${units}${decimals}`);
    fc.assert(
      fc.property(text, (input) => {
        const [units = '', decimals = ''] = input.replace('-', '').split('.');
        const zero = /^[0.]*$/.test(units + decimals);
        const expected = `${input.startsWith('-') && !zero ? '-' : ''}${units}.${decimals.padEnd(2, '0')}`;
        expect(formatMoney(parseMoney(input)!)).toBe(expected);
      }),
    );
  });
});
