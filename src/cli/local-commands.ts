import { Command } from 'commander';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { DEMO_SYSTEM, helpdeskIsEmpty, seedHelpdeskDemo } from '../helpdesk/demo.js';
import { DEMO_ACCOUNT, DEMO_RECEIPTS, posIsEmpty, seedPosDemo } from '../pos/demo.js';
import { seedPanelDemoUser } from '../panel/panel-demo.js';
import { createMemoryRateLimitStore } from '../rate-limit/memory-store.js';
import { createServices } from '../services.js';
import { CliError, EXIT } from './cli-error.js';
import { action, positiveNumber } from './context.js';
import { readConfig } from './read-config.js';

// The commands that run on this machine, on the database of DATABASE_URL: serve, migrate and demo.
// They read the same configuration as the server (the environment, and a `.env` file in the working
// directory).

function serveCommand(): Command {
  return new Command('serve')
    .description(
      'Runs the service in the foreground (as `node dist/server.js`): migrates, creates the demo on a first start with an empty embedded database, listens, and drains on SIGTERM/SIGINT.',
    )
    .option('--port <port>', 'port of both public APIs (PORT)')
    .option('--host <address>', 'address of both public APIs (HOST)')
    .option('--admin-port <port>', 'port of the admin API (ADMIN_PORT)')
    .option('--admin-host <address>', 'address of the admin API (ADMIN_HOST)')
    .action(
      action(
        async (
          _context,
          options: { port?: string; host?: string; adminPort?: string; adminHost?: string },
        ) => {
          // The options are the server's variables: the configuration checks them like any other.
          if (options.port !== undefined) process.env.PORT = options.port;
          if (options.host !== undefined) process.env.HOST = options.host;
          if (options.adminPort !== undefined) process.env.ADMIN_PORT = options.adminPort;
          if (options.adminHost !== undefined) process.env.ADMIN_HOST = options.adminHost;
          await import('../server.js');
        },
      ),
    );
}

function migrateCommand(): Command {
  return new Command('migrate')
    .description('Applies the pending migrations to the database of DATABASE_URL, and exits.')
    .action(
      action(async ({ out, env }) => {
        const config = readConfig(env);
        const db = openDatabase(config.database);
        try {
          const applied = await migrateToLatest(db);
          out.result({ applied }, () => {
            out.line(applied.length === 0 ? 'Database is up to date.' : `Applied: ${applied.join(', ')}`);
          });
        } finally {
          await db.destroy();
        }
      }),
    );
}

function demoCommand(): Command {
  return new Command('demo')
    .description(
      'Creates the demo data in the database of DATABASE_URL (migrating it first), as the server does on a first start: a help-desk catalog with the partner system "demo", and the merchant "demo" with three places, events and receipts. Each half is created only where its tables are empty; the keys are printed once.',
    )
    .option('--receipts <n>', 'how many demo receipts to write', positiveNumber, DEMO_RECEIPTS)
    .action(
      action(async ({ out, env }, options: { receipts: number }) => {
        const config = readConfig(env);
        const db = openDatabase(config.database);
        const rateLimits = createMemoryRateLimitStore();
        try {
          await migrateToLatest(db);
          const services = createServices({ db, rateLimits, config });
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
          if (helpDesk === null && pos === null) {
            throw new CliError(
              'the database already holds help-desk and point-of-sale data: the demo is created only on empty tables',
              EXIT.failed,
              { error: 'not_empty' },
            );
          }
          out.result({ help_desk: helpDesk, pos }, () => {
            if (helpDesk === null)
              out.note('The help-desk tables hold data already: no help-desk demo created.');
            else out.line(`Help-desk demo: partner system "${helpDesk.system}", key ${helpDesk.key}`);
            if (pos === null)
              out.note('The point-of-sale tables hold data already: no merchant demo created.');
            else
              out.line(
                `Point-of-sale demo: account "${pos.account}", places SP01, MAN01, REC01, key ${pos.key}`,
              );
            if (pos?.panel != null)
              out.line(`Merchant panel (/panel/): e-mail ${pos.panel.email} password ${pos.panel.password}`);
            out.note('The keys and the password are shown only this once.');
          });
        } finally {
          await rateLimits.close();
          await db.destroy();
        }
      }),
    );
}

/** The commands that work on this machine's database. */
export function localCommands(): Command[] {
  return [serveCommand(), migrateCommand(), demoCommand()];
}
