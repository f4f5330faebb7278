// The CSV documents the service writes (the merchant panel's reports), read by spreadsheet programs.
// A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and some programs take a
// leading tab or carriage return the same way (OWASP, CSV Injection): text that came from outside, such
// as a brand the store's terminal recorded (`+1+1`, `-cmd`), must reach the reader as text. So every text
// cell that starts with one of them is written after a single quote, which the spreadsheet shows as
// text; figures (counts, money, shares, which may be negative) are written as they are, so that they
// stay numbers and equal the API's to the cent.
//
// Two dialects: the plain one (commas between cells, a dot before decimals: what programs and English
// spreadsheets read) and the Brazilian one (semicolons between cells, a comma before decimals: what Excel
// and LibreOffice read in columns under pt-BR regional settings, where the comma is the decimal mark).
// Both start with a byte-order mark and need no `sep=;` line: that line would make Excel ignore the mark
// and read accents wrong, and the semicolon is already the pt-BR list separator.

/** A figure of a CSV document: a number, or a decimal numeral such as the API's money text `-12.50`. */
export interface CsvFigure {
  readonly figure: string;
}

/** A cell: text (neutralised), a whole or decimal number, or a figure kept as written. */
export type CsvCell = string | number | CsvFigure;

const decimal = /^-?\d+(\.\d+)?$/;

/** How cells are separated and how a decimal figure writes its decimal mark. */
export interface CsvDialect {
  readonly separator: ',' | ';';
  readonly decimalMark: '.' | ',';
}

/** Commas between cells, dot decimals (`12.50`): the default, read by programs. */
export const CSV_PLAIN: CsvDialect = { separator: ',', decimalMark: '.' };
/** Semicolons between cells, comma decimals (`12,50`): a pt-BR spreadsheet opens it in columns. */
export const CSV_PT_BR: CsvDialect = { separator: ';', decimalMark: ',' };

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
 * then any text with a separator (of either dialect), quote, tab or line break is quoted with its quotes
 * doubled (RFC 4180); numbers are written as they are, figures with the dialect's decimal mark.
 */
export function csvCell(cell: CsvCell, dialect: CsvDialect = CSV_PLAIN): string {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw new Error(`not a finite number: ${String(cell)}`);
    return String(cell).replace('.', dialect.decimalMark);
  }
  if (typeof cell !== 'string') return cell.figure.replace('.', dialect.decimalMark);
  const text = formulaStart.test(cell) ? `'${cell}` : cell;
  return needsQuotes.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A whole document: a byte-order mark (spreadsheets then read accents as UTF-8), CRLF line ends. */
export function csvDocument(rows: readonly (readonly CsvCell[])[], dialect: CsvDialect = CSV_PLAIN): string {
  const line = (row: readonly CsvCell[]) => row.map((cell) => csvCell(cell, dialect)).join(dialect.separator);
  return '\uFEFF' + rows.map(line).join('\r\n') + '\r\n';
}
