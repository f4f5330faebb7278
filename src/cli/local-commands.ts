import { Command } from 'commander';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';
import { action } from './context.js';
import { demoCommand } from './demo-commands.js';
import { readConfig } from './read-config.js';

// The commands that run on this machine, on the database of DATABASE_URL: serve, migrate and demo
// (src/cli/demo-commands.ts).
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

/** The commands that work on this machine's database. */
export function localCommands(): Command[] {
  return [serveCommand(), migrateCommand(), demoCommand()];
}
