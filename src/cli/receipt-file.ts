import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { NDJSON_LINE_MAX, ndjsonLines } from '../pos/receipts/ndjson-lines.js';
import { receiptInput } from '../pos/receipts/receipt-input.js';

// A file of receipts read row by row, never whole: NDJSON (one receipt a line) or CSV (a header row naming
// the same fields as the admin API's receipts). Every row carries its line number in the file, so that a
// bad row, or a receipt the server refuses, is named where the operator can find it.

/** The fields of a receipt (docs/admin-rules.md, Point of sale: POST receipts). */
const RECEIPT_FIELDS = [
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

/** One row of the file: a receipt as the admin API takes it, or why the row is not one. */
export type FileRow = { line: number; receipt: Record<string, unknown> } | { line: number; error: string };

export type FileFormat = 'ndjson' | 'csv';

/** A whole-file problem (a CSV header naming an unknown field, a quote never closed): reading stops. */
export class ReceiptFileError extends Error {
  constructor(
    message: string,
    readonly line: number | null,
  ) {
    super(message);
    this.name = 'ReceiptFileError';
  }
}

/** The format of `file` from its name: .csv, or .ndjson/.jsonl; else null. */
export function formatOf(file: string): FileFormat | null {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(ndjson|jsonl)$/i.test(file)) return 'ndjson';
  return null;
}

async function* ndjsonRows(
  file: string,
): AsyncGenerator<{ line: number; value: unknown } | { line: number; error: string }> {
  for await (const line of ndjsonLines(createReadStream(file), NDJSON_LINE_MAX)) {
    if ('tooLong' in line) {
      yield {
        line: line.number,
        error: `is longer than ${NDJSON_LINE_MAX} characters (reading stopped here)`,
      };
    } else if ('notUtf8' in line) {
      yield { line: line.number, error: 'is not valid UTF-8 (reading stopped here)' };
    } else {
      try {
        yield { line: line.number, value: JSON.parse(line.text) as unknown };
      } catch (error) {
        yield {
          line: line.number,
          error: `is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
        };
      }
    }
  }
}

/** A CSV cell as the receipt field it fills: empty optional fields are null or left to their default. */
function csvField(field: string, cell: string): unknown {
  switch (field) {
    case 'event':
    case 'brand':
    case 'kind':
      return cell === '' ? null : cell;
    case 'status':
    case 'place':
      return cell === '' ? undefined : cell;
    case 'demo':
      if (cell === '') return undefined;
      if (/^true$/i.test(cell)) return true;
      if (/^false$/i.test(cell)) return false;
      return cell; // refused by the receipt's rules, with their message
    default:
      return cell;
  }
}

async function* csvRows(
  file: string,
): AsyncGenerator<{ line: number; value: unknown } | { line: number; error: string }> {
  const parser = createReadStream(file).pipe(
    parse({
      bom: true,
      columns: (header: string[]) => {
        const names = header.map((name) => name.trim());
        const unknown = names.filter((name) => !(RECEIPT_FIELDS as readonly string[]).includes(name));
        if (unknown.length > 0) {
          throw new ReceiptFileError(
            `the header row names ${unknown.map((name) => `"${name}"`).join(', ')}, not a receipt field (${RECEIPT_FIELDS.join(', ')})`,
            1,
          );
        }
        return names;
      },
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
      raw: true,
    }),
  );
  try {
    for await (const item of parser as AsyncIterable<{
      record: Record<string, string>;
      raw: string;
      info: { lines: number; error?: Error };
    }>) {
      // `lines` is where the record ends (a quoted cell may span lines); `raw` may start with the blank
      // lines skipped before it.
      const line = item.info.lines - (item.raw.replace(/^[\r\n]+|[\r\n]+$/g, '').match(/\n/g)?.length ?? 0);
      if (item.info.error !== undefined) {
        yield { line, error: `has another number of cells than the header row (${item.info.error.message})` };
        continue;
      }
      const value: Record<string, unknown> = {};
      for (const [field, cell] of Object.entries(item.record)) {
        const converted = csvField(field, cell);
        if (converted !== undefined) value[field] = converted;
      }
      yield { line, value };
    }
  } catch (error) {
    if (error instanceof ReceiptFileError) throw error;
    const cause = error instanceof Error && error.cause instanceof ReceiptFileError ? error.cause : null;
    if (cause !== null) throw cause;
    const line =
      error instanceof Error && 'lines' in error && typeof error.lines === 'number' ? error.lines : null;
    throw new ReceiptFileError(
      `not readable as CSV: ${error instanceof Error ? error.message : String(error)}`,
      line,
    );
  }
}

/** Why a receipt breaks the admin API's rules, in its words (`amount: must be money text …`). */
function receiptProblem(value: unknown): string | null {
  const parsed = receiptInput.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.');
  if (issue?.code === 'unrecognized_keys') return `unknown field(s) ${issue.keys.join(', ')}`;
  if (path === '') return 'must be a receipt object';
  return `${path}: ${issue?.message ?? 'invalid'}`;
}

/**
 * The rows of `file`, each checked against the receipt rules the admin API applies (the places and
 * events themselves are checked by the server). `place` fills the place of rows that name none; a row
 * naming another place is bad.
 */
export async function* readReceiptFile(
  file: string,
  format: FileFormat,
  options: { place?: string } = {},
): AsyncGenerator<FileRow> {
  const rows = format === 'csv' ? csvRows(file) : ndjsonRows(file);
  for await (const row of rows) {
    if ('error' in row) {
      yield row;
      continue;
    }
    const { line, value } = row;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      yield { line, error: 'must be a receipt object' };
      continue;
    }
    const receipt = { ...(value as Record<string, unknown>) };
    if (options.place !== undefined) {
      if (receipt.place === undefined || receipt.place === null) receipt.place = options.place;
      else if (receipt.place !== options.place) {
        yield {
          line,
          error: `place: is ${JSON.stringify(receipt.place)}, not the --place "${options.place}"`,
        };
        continue;
      }
    }
    const problem = receiptProblem(receipt);
    yield problem === null ? { line, receipt } : { line, error: problem };
  }
}
