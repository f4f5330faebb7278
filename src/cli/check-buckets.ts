import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { wireTime } from '../lib/wire-time.js';
import {
  checkSalesBuckets,
  rebuildSalesBuckets,
  type BucketDifference,
  type BucketSums,
} from '../pos/sales/sales-bucket-audit.js';

// `npm run db:check-buckets`: compares every pre-aggregated sales bucket of the database of DATABASE_URL
// with the sums of the stored receipts. Exit 0 when they all match; 1 when some differ, listing them;
// 2 when the check could not run (configuration, database, usage).
//
//   --account <id>   only that account's buckets
//   --limit <n>      how many differing buckets to list (default 50)
//   --rebuild        first replace the buckets with the sums of the receipts (one transaction), then check

const USAGE = 'usage: npm run db:check-buckets -- [--account <id>] [--limit <n>] [--rebuild]';

/** A command line this command does not take. */
class UsageError extends Error {}

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

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        account: { type: 'string' },
        limit: { type: 'string', default: '50' },
        rebuild: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const limit = Number(values.limit);
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new UsageError(`--limit must be a whole number from 1 (got "${values.limit}")`);
  if (existsSync('.env')) process.loadEnvFile('.env');
  const config = loadConfig(process.env);
  const db = openDatabase(config.database);
  try {
    const scope = values.account === undefined ? {} : { accountId: values.account };
    const where = values.account === undefined ? '' : ` of account ${values.account}`;
    if (values.rebuild) {
      const count = await rebuildSalesBuckets(db, scope);
      process.stdout.write(
        `Rebuilt the sales buckets${where} from the receipts: ${plural(count, 'bucket')}.\n`,
      );
    }
    const check = await checkSalesBuckets(db, { ...scope, limit });
    if (check.differing === 0) {
      process.stdout.write(`The sales buckets${where} match the receipts they sum.\n`);
      return 0;
    }
    const listed =
      check.differences.length < check.differing ? ` (the first ${check.differences.length})` : '';
    process.stdout.write(
      `${plural(check.differing, 'sales bucket')}${where} differ from the receipts they sum${listed}:\n` +
        `${check.differences.map(differenceText).join('\n')}\n` +
        'Rebuild them from the receipts with: npm run db:check-buckets -- --rebuild\n',
    );
    return 1;
  } finally {
    await db.destroy();
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  const prefix = error instanceof ConfigError ? 'Invalid configuration: ' : '';
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${prefix}${message}\n${error instanceof UsageError ? `${USAGE}\n` : ''}`);
  process.exitCode = 2;
}
