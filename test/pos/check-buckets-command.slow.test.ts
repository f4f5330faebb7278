import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/migrate.js';
import { SLOT_LENGTHS } from '../../src/pos/sales/sales-bucket-layout.js';
import { testApp } from '../helper.js';
import { createProcessDatabase } from '../support/process-database.js';
import { seedBucketAccounts as seed, tamperBuckets as tamper } from './sales-bucket-fixtures.js';

// `npm run db:check-buckets` (`partner-gateway check-buckets`, src/cli/check-buckets.ts) answers with its exit code: 0 when the buckets
// match the receipts, 1 listing those that differ, 2 when it cannot check. The check itself is tested on
// both databases in sales-bucket-audit.test.ts; here the command, on a SQLite file.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Runs `npm run db:check-buckets` (its script) on the database; its exit code and output. */
function checkCommand(
  databaseUrl: string,
  args: string[] = [],
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'check-buckets', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const append = (chunk: Buffer) => {
      output += chunk.toString();
    };
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    child.once('close', (code) => {
      resolve({ code, output });
    });
  });
}

describe('npm run db:check-buckets', () => {
  it('exits 0 when the buckets match the receipts, 1 listing the ones that differ, 0 again after --rebuild; 2 on a bad command line', async () => {
    const database = await createProcessDatabase('sqlite');
    const db = database.open();
    try {
      await migrateToLatest(db);
      const t = testApp({ db });
      await seed(t);
      await t.app.close();

      let run = await checkCommand(database.url);
      expect(run.output).toBe('The sales buckets match the receipts they sum.\n');
      expect(run.code).toBe(0);

      await tamper(t);
      run = await checkCommand(database.url, ['--limit', '2']);
      expect(run.code).toBe(1);
      expect(run.output).toContain('3 sales buckets differ from the receipts they sum (the first 2):');
      expect(run.output).toContain(
        'account acme, place p1, every receipt, 1 h slot from 2026-11-20T21:00:00Z, method "cash", no brand: stored 2 receipts, 9999 cents; the receipts sum 1 receipt, 1250 cents',
      );
      expect(run.output).toContain(
        'account acme, place p1, event e1, 1 h slot from 2026-11-20T21:00:00Z, method "cash", no brand: stored no bucket; the receipts sum 1 receipt, 1250 cents',
      );
      expect(run.output).toContain('npm run db:check-buckets -- --rebuild');

      run = await checkCommand(database.url, ['--rebuild', '--account', 'acme']);
      expect(run.output).toBe(
        `Rebuilt the sales buckets of account acme from the receipts: ${3 * SLOT_LENGTHS.length} buckets.\n` +
          'The sales buckets of account acme match the receipts they sum.\n',
      );
      expect(run.code).toBe(0);
      expect((await checkCommand(database.url)).code).toBe(0);

      run = await checkCommand(database.url, ['--limit', '0']);
      expect(run.code).toBe(2);
      expect(run.output).toContain('usage: npm run db:check-buckets');
    } finally {
      await db.destroy();
      await database.drop();
    }
  }, 60_000);
});
