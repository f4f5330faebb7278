import type { Writable } from 'node:stream';

// What the commands print: JSON for scripts (`--json`, on stdout), or short human lines, tables and
// records, coloured only on a terminal and never when NO_COLOR is set (https://no-color.org).

/** Whether text written to `stream` may carry colours. */
export function colourAllowed(stream: Writable & { isTTY?: boolean }, env = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY === true;
}

/** The few styles the commands use; plain text when colours are not allowed. */
export interface Styles {
  readonly bold: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
}

const plain = (text: string) => text;
const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/** The styles of `stream`. */
export function stylesFor(stream: Writable & { isTTY?: boolean }, env = process.env): Styles {
  if (!colourAllowed(stream, env)) {
    return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain };
  }
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
  };
}

/** Where a command writes, and how. */
export interface Output {
  /** True with `--json`: results are printed as JSON on stdout, nothing else goes there. */
  readonly json: boolean;
  readonly out: Styles;
  readonly err: Styles;
  /** A line on stdout. */
  readonly line: (text?: string) => void;
  /** A line on stderr (notes, progress, warnings). */
  readonly note: (text: string) => void;
  /** Prints `value` as JSON (with `--json`) or as `human()` lines. */
  readonly result: (value: unknown, human: () => void) => void;
  /** A record as `field: value` lines. */
  readonly record: (value: Record<string, unknown>) => void;
  /** Rows as an aligned table of the given columns (a dash for null). */
  readonly table: (rows: readonly Record<string, unknown>[], columns: readonly string[]) => void;
}

/** A cell or field value as one line of text. */
function show(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.map(show).join(',');
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  return JSON.stringify(value);
}

const CELL_MAX = 60;

function cell(value: unknown): string {
  const text = show(value).replace(/\s+/g, ' ');
  return text.length > CELL_MAX ? `${text.slice(0, CELL_MAX - 1)}…` : text;
}

/** The output of one run of the command line. */
export function createOutput(options: {
  json: boolean;
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}): Output {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const out = stylesFor(stdout);
  const err = stylesFor(stderr);
  const line = (text = '') => {
    stdout.write(`${text}\n`);
  };
  return {
    json: options.json,
    out,
    err,
    line,
    note: (text) => {
      stderr.write(`${text}\n`);
    },
    result(value, human) {
      if (options.json) line(JSON.stringify(value, null, 2));
      else human();
    },
    record(value) {
      const width = Math.max(0, ...Object.keys(value).map((key) => key.length));
      for (const [key, field] of Object.entries(value)) {
        line(`${out.dim(`${key}:`.padEnd(width + 1))} ${show(field)}`);
      }
    },
    table(rows, columns) {
      if (rows.length === 0) {
        line(out.dim('(none)'));
        return;
      }
      const cells = rows.map((row) => columns.map((column) => cell(row[column])));
      const widths = columns.map((column, index) =>
        Math.max(column.length, ...cells.map((row) => (row[index] ?? '').length)),
      );
      const format = (values: readonly string[]) =>
        values
          .map((value, index) => (index === values.length - 1 ? value : value.padEnd(widths[index] ?? 0)))
          .join('  ');
      line(out.bold(format(columns)));
      for (const row of cells) line(format(row));
    },
  };
}
