// The CSV documents the service writes (the merchant panel's reports), read by spreadsheet programs.
// A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and some programs take a
// leading tab or carriage return the same way (OWASP, CSV Injection): text that came from outside, such
// as a brand the store's terminal recorded (`+1+1`, `-cmd`), must reach the reader as text. So every text
// cell that starts with one of them is written after a single quote, which the spreadsheet shows as
// text; figures (counts, money, shares, which may be negative) are written as they are, so that they
// stay numbers and equal the API's to the cent.

/** A figure of a CSV document: a number, or a decimal numeral such as the API's money text `-12.50`. */
export interface CsvFigure {
  readonly figure: string;
}

/** A cell: text (neutralised), a whole or decimal number, or a figure kept as written. */
export type CsvCell = string | number | CsvFigure;

const decimal = /^-?\d+(\.\d+)?$/;

/** A figure from the API's decimal text (money, shares); anything else is a programming error. */
export function csvFigure(text: string): CsvFigure {
  if (!decimal.test(text)) throw new Error(`not a decimal figure: ${JSON.stringify(text)}`);
  return { figure: text };
}

/** The characters that make a spreadsheet read a cell as a formula when the cell starts with them. */
const formulaStart = /^[=+\-@\t\r]/;
/** The characters that oblige a cell to be quoted (`;` too: pt-BR spreadsheets split on it). */
const needsQuotes = /[",;\n\r\t]/;

/**
 * One cell as written in the document: a text starting like a formula gets a single quote in front,
 * then any text with a separator, quote, tab or line break is quoted with its quotes doubled (RFC 4180);
 * numbers and figures are written as they are.
 */
export function csvCell(cell: CsvCell): string {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw new Error(`not a finite number: ${String(cell)}`);
    return String(cell);
  }
  if (typeof cell !== 'string') return cell.figure;
  const text = formulaStart.test(cell) ? `'${cell}` : cell;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole document: a byte-order mark (spreadsheets then read accents as UTF-8), CRLF line ends. */
export function csvDocument(rows: readonly (readonly CsvCell[])[]): string {
  return '\uFEFF' + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
