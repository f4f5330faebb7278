import { Command } from 'commander';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import { wireTime } from '../lib/wire-time.js';
import type { BucketDifference, BucketSums } from '../pos/sales/sales-bucket-audit.js';
import { createMemoryRateLimitStore } from '../rate-limit/memory-store.js';
import { createServices } from '../services.js';
import { CliError, EXIT } from './cli-error.js';
import { action } from './context.js';
import { readConfig } from './read-config.js';

// `partner-gateway check-buckets` (`npm run db:check-buckets`): compares every pre-aggregated sales bucket
// of the database of DATABASE_URL with the sums of the stored receipts. Exit 0 when they all match; 1 when
// some differ, listing them; 2 when the check could not run (configuration, database, usage). Its messages are its
// own, as they were when it was a script of its own: no `error:` line, the usage after a refusal.
//
//   --account <id>   only that account's buckets
//   --limit <n>      how many differing buckets to list (default 50)
//   --rebuild        first replace the buckets with the sums of the receipts (one transaction), then check

const USAGE = 'usage: npm run db:check-buckets -- [--account <id>] [--limit <n>] [--rebuild]';

/** Ends the command with `exitCode` after it printed what it had to say. */
const quietExit = (exitCode: number) => new CliError('', exitCode);

/** Refuses the command line: the reason and the usage on stderr, exit 2. */
function refuseUsage(message: string): CliError {
  process.stderr.write(`${message}\n${USAGE}\n`);
  return quietExit(EXIT.usage);
}

/** The configuration; a bad one is said on stderr, exit 2. */
function configOf(env: NodeJS.ProcessEnv): Config {
  try {
    return readConfig(env);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    process.stderr.write(`${error.message}\n`);
    throw quietExit(EXIT.usage);
  }
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const sumsText = (sums: BucketSums | null) =>
  sums === null ? 'no bucket' : `${plural(sums.receipts, 'receipt')}, ${sums.amountCents} cents`;

function slotText(ms: number): string {
  const minutes = ms / 60_000;
  return minutes % 60 === 0 ? `${minutes / 60} h` : `${minutes} min`;
}

function differenceText(d: BucketDifference): string {
  const event = d.eventKey === '' ? 'every receipt' : `event ${d.eventKey}`;
  const brand = d.brand === null ? 'no brand' : `brand ${JSON.stringify(d.brand)}`;
  const slot = `${slotText(d.slotMs)} slot from ${wireTime(d.slotStart)}`;
  return (
    `  account ${d.accountId}, place ${d.placeId}, ${event}, ${slot}, method ${JSON.stringify(d.paymentMethod)}, ${brand}: ` +
    `stored ${sumsText(d.stored)}; the receipts sum ${sumsText(d.expected)}`
  );
}

/** Checks the sales buckets against the receipts, after rebuilding them with `--rebuild`. */
async function checkBuckets(
  env: NodeJS.ProcessEnv,
  options: { account?: string; limit: string; rebuild: boolean },
): Promise<void> {
  const limit = Number(options.limit);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw refuseUsage(`--limit must be a whole number from 1 (got "${options.limit}")`);
  const config = configOf(env);
  const db = openDatabase(config.database);
  const rateLimits = createMemoryRateLimitStore();
  try {
    const { salesBuckets } = createServices({ db, rateLimits, config });
    const scope = options.account === undefined ? {} : { accountId: options.account };
    const where = options.account === undefined ? '' : ` of account ${options.account}`;
    if (options.rebuild) {
      const count = await salesBuckets.rebuild(scope);
      process.stdout.write(
        `Rebuilt the sales buckets${where} from the receipts: ${plural(count, 'bucket')}.\n`,
      );
    }
    const check = await salesBuckets.check({ ...scope, limit });
    if (check.differing === 0) {
      process.stdout.write(`The sales buckets${where} match the receipts they sum.\n`);
      return;
    }
    const listed =
      check.differences.length < check.differing ? ` (the first ${check.differences.length})` : '';
    process.stdout.write(
      `${plural(check.differing, 'sales bucket')}${where} differ from the receipts they sum${listed}:\n` +
        `${check.differences.map(differenceText).join('\n')}\n` +
        'Rebuild them from the receipts with: npm run db:check-buckets -- --rebuild\n',
    );
    throw quietExit(EXIT.failed);
  } finally {
    await rateLimits.close();
    await db.destroy();
  }
}

/** The `check-buckets` command. */
export function checkBucketsCommand(): Command {
  return new Command('check-buckets')
    .description(
      'Compares the pre-aggregated sales buckets of the database of DATABASE_URL with the sums of the stored receipts: exit 0 when they match, 1 listing those that differ.',
    )
    .option('--account <id>', "only that account's buckets")
    .option('--limit <n>', 'how many differing buckets to list', '50')
    .option(
      '--rebuild',
      'first replace the buckets with the sums of the receipts (one transaction), then check',
      false,
    )
    .action(
      action(async ({ env }, options: { account?: string; limit: string; rebuild: boolean }) => {
        try {
          await checkBuckets(env, options);
        } catch (error) {
          if (error instanceof CliError) throw error;
          // The database could not be read: the check did not run.
          process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
          throw quietExit(EXIT.usage);
        }
      }),
    );
}
