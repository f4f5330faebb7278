import { existsSync, statSync } from 'node:fs';
import { Command, Option } from 'commander';
import { AdminRefusal, seg } from './admin-client.js';
import { CliError, EXIT, usageError } from './cli-error.js';
import { action, positiveNumber, type Context } from './context.js';
import { createProgress } from './progress.js';
import { formatOf, readReceiptFile, ReceiptFileError, type FileFormat } from './receipt-file.js';
import { ADMIN_API } from '../lib/api-registry.js';

// `import receipts FILE`: a file of any length sent to the admin API's NDJSON upload in chunks. An upload
// is all-or-nothing, so each chunk is: the file is checked first, whole, against the receipt rules (every
// bad row named by its line), and nothing is sent while one is bad; then chunk after chunk is uploaded,
// and at the first refused chunk the import stops, saying which chunk, which lines, and what was
// committed before it. Receipts are upserted by id, so sending a chunk again is harmless.

/** Receipts per upload by default: a few seconds of work for the server, a bar that moves. */
const DEFAULT_CHUNK = 5_000;
/** The most bad rows printed one by one (all are counted; --json lists them all). */
const BAD_ROWS_SHOWN = 100;

const HELP = `
Chunks: the file is sent as uploads of --chunk-size receipts (default ${DEFAULT_CHUNK.toLocaleString('en-US')}).
Each upload is all-or-nothing: a chunk is stored whole or not at all. The import
is therefore not all-or-nothing as a whole:
  - before sending anything, every row of the file is checked against the
    receipt rules; if any row is bad, each bad row is reported with its line
    number in FILE and nothing is sent (exit 1);
  - a chunk the server refuses (a place or event that does not exist, the
    account unknown) stops the import: the message names the chunk, its first
    and last line in FILE, the line of the refused receipt, and the counts of
    the chunks committed before it; nothing of that chunk or after is stored
    (exit 1). Fix the file and run again, or resume with --from-line N.
  - if the connection fails during a chunk, that chunk may or may not have been
    stored; sending it again is harmless: receipts are upserted by id.

CSV: a header row naming receipt fields (id, place, event, occurred_at,
payment_method, brand, amount, kind, status, demo); an empty event, brand or
kind is null, an empty status, demo or place takes its default. NDJSON: one
JSON receipt a line, as the admin API takes them.

Examples:
  $ partner-gateway import receipts sales.csv --account acme --place P1
  $ partner-gateway import receipts day.ndjson --account acme --check
`;

/** The counts the admin API answers for an upload. */
interface Counts {
  inserted: number;
  updated: number;
  unchanged: number;
}

const n = (value: number) => value.toLocaleString('en-US');

interface ImportOptions {
  account: string;
  place?: string;
  format?: FileFormat;
  chunkSize: number;
  fromLine: number;
  check?: boolean;
  quiet?: boolean;
}

/** The `import` command and its `receipts` subcommand. */
export function importCommand(): Command {
  const command = new Command('import').description(
    'Loads files into a running deployment through its admin API.',
  );
  command
    .command('receipts')
    .description(
      'Imports receipts from an NDJSON or CSV file into a merchant account, in chunks that are each all-or-nothing (see below).',
    )
    .argument('<file>', 'the file: .csv, .ndjson or .jsonl (or --format)')
    .requiredOption('--account <account>', 'the merchant account')
    .option('--place <place>', 'the place of rows that name none; a row naming another place is bad')
    .addOption(
      new Option('--format <format>', 'the file format, when its name does not say').choices([
        'ndjson',
        'csv',
      ]),
    )
    .option(
      '--chunk-size <n>',
      'receipts per upload (each upload is all-or-nothing)',
      positiveNumber,
      DEFAULT_CHUNK,
    )
    .option('--from-line <n>', 'skip the rows before this line of the file (to resume)', positiveNumber, 1)
    .option('--check', 'only check the file; send nothing')
    .option('--quiet', 'no progress display')
    .addHelpText('after', HELP)
    .action(
      action(async (context, file: string, options: ImportOptions) => {
        await importReceipts(context, file, options);
      }),
    );
  return command;
}

async function importReceipts({ out, admin }: Context, file: string, options: ImportOptions): Promise<void> {
  const format = options.format ?? formatOf(file);
  if (format === null)
    throw usageError(
      `cannot tell the format of "${file}" from its name: add --format ndjson or --format csv`,
    );
  if (!existsSync(file) || !statSync(file).isFile()) throw usageError(`no such file: ${file}`);
  const rows = () =>
    readReceiptFile(file, format, options.place === undefined ? {} : { place: options.place });
  const client = options.check === true ? null : admin();
  const started = performance.now();

  // 1. The whole file, checked row by row: nothing is sent while a row is bad.
  const bad: { line: number; error: string }[] = [];
  let total = 0;
  try {
    for await (const row of rows()) {
      if (row.line < options.fromLine) continue;
      if ('error' in row) bad.push(row);
      else total += 1;
    }
  } catch (error) {
    if (error instanceof ReceiptFileError) {
      throw new CliError(
        `${file}${error.line === null ? '' : `, line ${error.line}`}: ${error.message}; nothing was sent`,
        EXIT.failed,
        {
          error: 'unreadable_file',
          line: error.line,
          message: error.message,
        },
      );
    }
    throw error;
  }
  if (bad.length > 0) {
    if (!out.json) {
      for (const row of bad.slice(0, BAD_ROWS_SHOWN)) out.note(`${file}, line ${row.line}: ${row.error}`);
      if (bad.length > BAD_ROWS_SHOWN)
        out.note(`… and ${n(bad.length - BAD_ROWS_SHOWN)} more bad rows (--json lists them all)`);
    }
    throw new CliError(
      `${n(bad.length)} bad row${bad.length === 1 ? '' : 's'} in ${file} (and ${n(total)} good): nothing was sent`,
      EXIT.failed,
      { error: 'bad_rows', bad_rows: bad, good_rows: total },
    );
  }
  if (client === null) {
    out.result({ file, receipts: total, bad_rows: [] }, () => {
      out.line(`${file}: ${n(total)} receipts, all good (nothing sent: --check).`);
    });
    return;
  }

  // 2. Chunk after chunk; each upload is stored whole or not at all.
  const path = `${ADMIN_API.prefix}pos/accounts/${seg(options.account)}/receipts`;
  const progress = createProgress(total, 'receipts', { quiet: options.quiet === true });
  const committed: Counts & {
    chunks: number;
    receipts: number;
    firstLine: number | null;
    lastLine: number | null;
  } = {
    inserted: 0,
    updated: 0,
    unchanged: 0,
    chunks: 0,
    receipts: 0,
    firstLine: null,
    lastLine: null,
  };
  let lines: number[] = [];
  let body: string[] = [];

  const send = async () => {
    const chunk = committed.chunks + 1;
    try {
      const counts = await client.call<Counts>('POST', path, {
        rawBody: `${body.join('\n')}\n`,
        contentType: 'application/x-ndjson',
      });
      committed.inserted += counts.inserted;
      committed.updated += counts.updated;
      committed.unchanged += counts.unchanged;
      committed.chunks = chunk;
      committed.receipts += body.length;
      committed.firstLine ??= lines[0] ?? null;
      committed.lastLine = lines.at(-1) ?? null;
      progress.update(committed.receipts);
    } catch (error) {
      progress.stop();
      throw chunkFailure(file, chunk, lines, committed, error);
    }
    lines = [];
    body = [];
  };

  for await (const row of rows()) {
    if (row.line < options.fromLine || 'error' in row) continue; // checked above: the file has no bad row
    lines.push(row.line);
    body.push(JSON.stringify(row.receipt));
    if (body.length >= options.chunkSize) await send();
  }
  if (body.length > 0) await send();
  progress.stop();

  const seconds = (performance.now() - started) / 1000;
  const summary = {
    file,
    account: options.account,
    chunks: committed.chunks,
    receipts: committed.receipts,
    inserted: committed.inserted,
    updated: committed.updated,
    unchanged: committed.unchanged,
    seconds: Math.round(seconds * 100) / 100,
  };
  out.result(summary, () => {
    out.line(
      `Imported ${n(summary.receipts)} receipts into "${options.account}" in ${n(summary.chunks)} chunk${summary.chunks === 1 ? '' : 's'}: ` +
        `inserted ${n(summary.inserted)}, updated ${n(summary.updated)}, unchanged ${n(summary.unchanged)} ` +
        `(${seconds.toFixed(1)} s, ${n(Math.round(summary.receipts / Math.max(seconds, 0.001)))}/s).`,
    );
  });
}

/** What a refused or failed chunk means for the file: which lines, what was committed before it. */
function chunkFailure(
  file: string,
  chunk: number,
  lines: readonly number[],
  committed: Counts & { chunks: number; receipts: number; firstLine: number | null; lastLine: number | null },
  error: unknown,
): CliError {
  const first = lines[0] ?? 0;
  const last = lines.at(-1) ?? 0;
  const before =
    committed.chunks === 0
      ? 'Nothing was committed before it.'
      : `Committed before it: chunk${committed.chunks === 1 ? '' : 's'} 1–${committed.chunks}, ${n(committed.receipts)} receipts (lines ${committed.firstLine}–${committed.lastLine}): inserted ${n(committed.inserted)}, updated ${n(committed.updated)}, unchanged ${n(committed.unchanged)}.`;
  const json = {
    error: error instanceof AdminRefusal ? 'chunk_refused' : 'chunk_failed',
    chunk,
    first_line: first,
    last_line: last,
    committed: {
      chunks: committed.chunks,
      receipts: committed.receipts,
      first_line: committed.firstLine,
      last_line: committed.lastLine,
      inserted: committed.inserted,
      updated: committed.updated,
      unchanged: committed.unchanged,
    },
  };
  if (error instanceof AdminRefusal) {
    // The upload numbers its lines from 1; line k of the chunk is the k-th receipt sent.
    const at = typeof error.problem.line === 'number' ? lines[error.problem.line - 1] : undefined;
    const where = at === undefined ? '' : `\n  The refused receipt is on line ${at} of ${file}.`;
    return new CliError(
      `chunk ${chunk} (lines ${first}–${last} of ${file}) was refused: ${error.message}.${where}\n  Nothing of chunk ${chunk} or after was stored.\n  ${before}\n  Resume with --from-line ${first} once fixed.`,
      EXIT.failed,
      { ...json, line: at ?? null, status: error.status, problem: error.problem },
    );
  }
  const reason = error instanceof Error ? error.message : String(error);
  return new CliError(
    `chunk ${chunk} (lines ${first}–${last} of ${file}) failed: ${reason}.\n  It may or may not have been stored (sending it again is harmless: receipts are upserted by id); nothing after it was sent.\n  ${before}\n  Resume with --from-line ${first}.`,
    EXIT.failed,
    { ...json, reason },
  );
}
