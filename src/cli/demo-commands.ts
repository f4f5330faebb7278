import { Command } from 'commander';
import type { Config } from '../config.js';
import { openDatabase, type Db } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { credentialLines } from '../demo/banner.js';
import { reissueDemoCredentials } from '../demo/credentials.js';
import { Problem } from '../errors/problem.js';
import { DEMO_SYSTEM, helpdeskIsEmpty, seedHelpdeskDemo } from '../helpdesk/demo.js';
import { seedPanelDemoUser } from '../panel/panel-demo.js';
import { DEMO_ACCOUNT, DEMO_RECEIPTS, posIsEmpty, seedPosDemo } from '../pos/demo.js';
import { createMemoryRateLimitStore } from '../rate-limit/memory-store.js';
import { createServices, type Services } from '../services.js';
import { CliError, EXIT } from './cli-error.js';
import { action, positiveNumber } from './context.js';
import { readConfig } from './read-config.js';

// `partner-gateway demo`: creates the demo data where its tables are empty, as the server's first start
// does; `partner-gateway demo credentials` gives the demo new keys and a new panel password, for the
// reader whose first-start banner scrolled away (docs/getting-started.md, The demo's credentials). Both
// work on the database of DATABASE_URL, with the server's configuration.

/** Runs `work` with the services over the migrated database of the configuration, then closes it. */
async function withServices<T>(config: Config, work: (services: Services, db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(config.database);
  const rateLimits = createMemoryRateLimitStore();
  try {
    await migrateToLatest(db);
    return await work(createServices({ db, rateLimits, config }), db);
  } finally {
    await rateLimits.close();
    await db.destroy();
  }
}

function credentialsCommand(): Command {
  return new Command('credentials')
    .description(
      'Gives the demo new credentials and prints them once, as shell export lines with curl commands: rotates the key of partner system "demo" and the demo merchant\'s key (the old keys stop working at once; the audit trail records both) and sets a new password for the demo panel user. Refused in production.',
    )
    .action(
      action(async ({ out, env }) => {
        const config = readConfig(env);
        if (config.env === 'production') {
          throw new CliError(
            'NODE_ENV=production: the demo credentials are not re-issued here; rotate keys from the console or the admin API (docs/back-office.md)',
            EXIT.failed,
            { error: 'production' },
          );
        }
        const credentials = await withServices(config, async (services) => {
          try {
            return await reissueDemoCredentials(services, { panel: config.panel });
          } catch (error) {
            // A refusal of the keys service (the account's 20 active keys, say), in its own words.
            if (error instanceof Problem)
              throw new CliError(error.detail, EXIT.failed, { error: error.code, detail: error.detail });
            throw error;
          }
        });
        if (credentials === null) {
          throw new CliError(
            `the database of DATABASE_URL holds no demo (no partner system "${DEMO_SYSTEM}", no account "${DEMO_ACCOUNT}"): create it with \`partner-gateway demo\``,
            EXIT.failed,
            { error: 'no_demo' },
          );
        }
        const { ticketKey, posKey, panel } = credentials;
        const json = {
          help_desk: ticketKey === null ? null : { system: DEMO_SYSTEM, key: ticketKey },
          pos: posKey === null ? null : { account: DEMO_ACCOUNT, key: posKey, panel },
        };
        out.result(json, () => {
          for (const line of credentialLines(config, credentials, null)) out.line(line);
          out.note(
            'New demo credentials, shown only this once; the previous keys and password no longer work.',
          );
        });
      }),
    );
}

/** `partner-gateway demo` and its `credentials`. */
export function demoCommand(): Command {
  return new Command('demo')
    .description(
      'Creates the demo data in the database of DATABASE_URL (migrating it first), as the server does on a first start: a help-desk catalog with the partner system "demo", and the merchant "demo" with three places, events and receipts. Each half is created only where its tables are empty; the keys are printed once. `demo credentials` issues new ones.',
    )
    .option('--receipts <n>', 'how many demo receipts to write', positiveNumber, DEMO_RECEIPTS)
    .addCommand(credentialsCommand())
    .action(
      action(async ({ out, env }, options: { receipts: number }) => {
        const config = readConfig(env);
        const created = await withServices(config, async (services, db) => {
          const helpDesk = (await helpdeskIsEmpty(db))
            ? { system: DEMO_SYSTEM, key: await seedHelpdeskDemo(services) }
            : null;
          const pos = (await posIsEmpty(db))
            ? {
                account: DEMO_ACCOUNT,
                key: (await seedPosDemo(services, { receipts: options.receipts })).key,
                panel: config.panel ? await seedPanelDemoUser(services) : null,
              }
            : null;
          return { helpDesk, pos };
        });
        const { helpDesk, pos } = created;
        if (helpDesk === null && pos === null) {
          throw new CliError(
            'the database already holds help-desk and point-of-sale data: the demo is created only on empty tables (new credentials: `partner-gateway demo credentials`)',
            EXIT.failed,
            { error: 'not_empty' },
          );
        }
        out.result({ help_desk: helpDesk, pos }, () => {
          if (helpDesk === null)
            out.note('The help-desk tables hold data already: no help-desk demo created.');
          else out.line(`Help-desk demo: partner system "${helpDesk.system}", key ${helpDesk.key}`);
          if (pos === null) out.note('The point-of-sale tables hold data already: no merchant demo created.');
          else
            out.line(
              `Point-of-sale demo: account "${pos.account}", places SP01, MAN01, REC01, key ${pos.key}`,
            );
          if (pos?.panel != null)
            out.line(`Merchant panel (/panel/): e-mail ${pos.panel.email} password ${pos.panel.password}`);
          out.note('The keys and the password are shown only this once.');
        });
      }),
    );
}
