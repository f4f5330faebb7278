import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CSV_PT_BR, csvCell, csvDocument, csvFigure, type CsvCell } from '../../src/lib/csv-document.js';

// The CSV documents the service writes (the panel's reports) against OWASP's rule for CSV injection: a
// text cell starting with `=`, `+`, `-`, `@`, tab or carriage return reaches the spreadsheet after a
// single quote, quoted as CSV requires; figures stay numbers. Each document is read back by an
// independent CSV reader (csv-parse).

const FORMULA_START = ['=', '+', '-', '@', '\t', '\r'];

/** Text that often starts like a formula and holds the characters CSV must quote. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc
    .tuple(
      fc.constantFrom(...FORMULA_START, '"', ',', ';', '\n', "'", ' ', 'a'),
      fc.string({ unit: 'binary', maxLength: 20 }),
    )
    .map(([start, rest]) => start + rest),
  fc.constantFrom('+1+1', '-cmd', '=HYPERLINK("http://x.test","ok")', '@SUM(1)', '-12.50', '\t=1', '\r=1'),
);

/** Money and shares as the API writes them: optional minus, digits, decimals. */
const figureText = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.constantFrom(0, 2, 3))
  .map(([negative, magnitude, decimals]) => {
    const digits = magnitude.toString().padStart(decimals + 1, '0');
    const whole = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
    return negative ? `-${whole}` : whole;
  });

/** What a spreadsheet gets for a text: the quote in front when it starts like a formula. */
const neutralised = (cell: string) =>
  FORMULA_START.some((start) => cell.startsWith(start)) ? `'${cell}` : cell;

const readBack = (document: string): string[][] =>
  parse(document, { bom: true, relax_column_count: true, record_delimiter: '\r\n' });

describe('CSV documents: OWASP CSV injection', () => {
  it('every text cell reads back as itself, after a single quote when it starts like a formula', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          expect(readBack(csvDocument(rows))).toEqual(rows.map((row) => row.map(neutralised)));
        },
      ),
    );
  });

  it('no text cell of a document starts with a character that makes it a formula', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 8 }), (row) => {
        for (const cell of readBack(csvDocument([row]))[0]!) {
          expect(FORMULA_START.some((start) => cell.startsWith(start))).toBe(false);
        }
      }),
    );
  });

  it('figures, negative ones too, are written as they are and unquoted: numbers equal to the cent', () => {
    fc.assert(
      fc.property(figureText, fc.integer({ min: -1e9, max: 1e9 }), (figure, count) => {
        expect(csvCell(csvFigure(figure))).toBe(figure);
        expect(csvCell(count)).toBe(String(count));
        const [cells] = readBack(csvDocument([['VISA', count, csvFigure(figure), 'BRL']]));
        expect(cells).toEqual(['VISA', String(count), figure, 'BRL']);
        expect(Number(cells![2])).toBe(Number(figure));
      }),
    );
  });

  it('a text that looks like a negative amount stays text (a brand "-12.50" is not a figure)', () => {
    expect(csvCell('-12.50')).toBe("'-12.50");
    expect(csvCell(csvFigure('-12.50'))).toBe('-12.50');
  });

  it('the quote goes inside the CSV quotes when the text must be quoted', () => {
    const cells: CsvCell[] = ['=1+1;2', '-a,b', '@"x"', '\tx', '\r\n=1'];
    expect(cells.map((cell) => csvCell(cell))).toEqual([
      '"\'=1+1;2"',
      '"\'-a,b"',
      '"\'@""x"""',
      '"\'\tx"',
      '"\'\r\n=1"',
    ]);
  });

  it('a figure that is not a decimal numeral is refused (no text passes as a number)', () => {
    for (const wrong of ['=1', '+1', '1e3', '1,5', '', ' 1', '-', '1.'])
      expect(() => csvFigure(wrong)).toThrow();
    expect(() => csvCell(Number.NaN)).toThrow();
  });

  describe('the pt-BR spreadsheet dialect (semicolons, comma decimals)', () => {
    const readBr = (document: string): string[][] =>
      parse(document, { bom: true, relax_column_count: true, record_delimiter: '\r\n', delimiter: ';' });

    it('the bytes: BOM, semicolons, comma decimals, CRLF, texts quoted on either separator', () => {
      const document = csvDocument(
        [
          ['brand', 'count', 'amount', 'share'],
          ['VISA; MASTER', 3, csvFigure('-1234.50'), csvFigure('12.345')],
          ['Crédito, à vista', 0, csvFigure('0.00'), csvFigure('100')],
          ['+1+1', 7, csvFigure('7'), csvFigure('0.000')],
        ],
        CSV_PT_BR,
      );
      expect([...Buffer.from(document, 'utf8')]).toEqual([
        ...[0xef, 0xbb, 0xbf],
        ...Buffer.from(
          'brand;count;amount;share\r\n' +
            '"VISA; MASTER";3;-1234,50;12,345\r\n' +
            '"Crédito, à vista";0;0,00;100\r\n' +
            "'+1+1;7;7;0,000\r\n",
          'utf8',
        ),
      ]);
    });

    it('every text cell reads back as itself (neutralised) and every figure with a comma for its decimals', () => {
      fc.assert(
        fc.property(
          fc.array(text, { minLength: 1, maxLength: 5 }),
          figureText,
          fc.integer({ min: -1e9, max: 1e9 }),
          (texts, figure, count) => {
            const [cells] = readBr(csvDocument([[...texts, count, csvFigure(figure)]], CSV_PT_BR));
            expect(cells).toEqual([...texts.map(neutralised), String(count), figure.replace('.', ',')]);
            expect(Number(cells!.at(-1)!.replace(',', '.'))).toBe(Number(figure));
          },
        ),
      );
    });
  });
});
