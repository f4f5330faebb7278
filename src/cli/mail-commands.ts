import { Command } from 'commander';
import { systemClock } from '../clock.js';
import type { Config } from '../config.js';
import { openDatabase } from '../db/database.js';
import {
  createDevMailbox,
  DEV_MAILBOX_SIZE,
  linksIn,
  type DevMailbox,
  type MailboxEntry,
} from '../mail/dev-mailbox.js';
import { CliError, EXIT } from './cli-error.js';
import { action, positiveNumber } from './context.js';
import { readConfig } from './read-config.js';

// `mail list` and `mail show`: the development mailbox (docs/operations.md, Reading e-mail locally), read
// on the database of DATABASE_URL as the other local commands read it, with the server's configuration.
// Outside production only: a production deployment keeps no message, and the commands say so.

/** Why the commands refuse to run in production, on one line. */
const PRODUCTION =
  'NODE_ENV is production: the development mailbox is off there (e-mail goes to SMTP_URL and no message is kept)';

/** The mailbox of the configuration's database, for `work`; closed after. */
async function withMailbox<T>(config: Config, work: (mailbox: DevMailbox) => Promise<T>): Promise<T> {
  if (config.env === 'production') throw new CliError(PRODUCTION, EXIT.usage, { error: 'production' });
  const db = openDatabase(config.database);
  try {
    return await work(createDevMailbox({ db, clock: systemClock }));
  } catch (error) {
    // A database the service never migrated (or not since the mailbox came) has no table to read.
    if (
      error instanceof Error &&
      error.message.includes('dev_mailbox') &&
      /no such table|does not exist/.test(error.message)
    ) {
      throw new CliError(
        'the database of DATABASE_URL has no development mailbox yet: run `partner-gateway migrate` (or start the service) first',
        EXIT.failed,
        { error: 'not_migrated' },
      );
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

/** A list's entry as `--json` prints it (the admin API's spelling: snake case, ISO instants). */
const entryJson = (entry: MailboxEntry) => ({
  id: entry.id,
  delivered_at: new Date(entry.deliveredAt).toISOString(),
  to: entry.to,
  kind: entry.kind,
  subject: entry.subject,
  transport: entry.transport,
});

function listCommand(): Command {
  return new Command('list')
    .description(
      `Lists the messages of the development mailbox, newest first (it keeps the newest ${String(DEV_MAILBOX_SIZE)}).`,
    )
    .option('--to <address>', 'only the messages to this address')
    .option('--limit <n>', `at most this many (default: all it keeps)`, positiveNumber)
    .action(
      action(async ({ out, env }, options: { to?: string; limit?: number }) => {
        const entries = await withMailbox(readConfig(env), (mailbox) =>
          mailbox.list({
            ...(options.to === undefined ? {} : { to: options.to }),
            ...(options.limit === undefined ? {} : { limit: options.limit }),
          }),
        );
        const rows = entries.map(entryJson);
        out.result(rows, () => {
          out.table(rows, ['id', 'delivered_at', 'to', 'kind', 'subject']);
          if (rows.length > 0) out.note('Read one whole: partner-gateway mail show <id>');
        });
      }),
    );
}

function showCommand(): Command {
  return new Command('show')
    .description(
      'Prints one message of the development mailbox whole: its fields, then its text with every link.',
    )
    .argument('<id>', 'the message id (mail list)')
    .action(
      action(async ({ out, env }, id: string) => {
        const message = await withMailbox(readConfig(env), (mailbox) => mailbox.find(id));
        if (message === undefined) {
          throw new CliError(
            `no message ${id} in the development mailbox (it keeps the newest ${String(DEV_MAILBOX_SIZE)}; see mail list)`,
            EXIT.failed,
            { error: 'not_found', id },
          );
        }
        const links = linksIn(message.text);
        out.result({ ...entryJson(message), text: message.text, html: message.html, links }, () => {
          out.record(entryJson(message));
          out.line();
          out.line(message.text.trimEnd());
        });
      }),
    );
}

/** The `mail` command. */
export function mailCommand(): Command {
  return new Command('mail')
    .description(
      'The development mailbox: e-mail the service sent, kept whole (links included) outside production only, on the database of DATABASE_URL.',
    )
    .addCommand(listCommand())
    .addCommand(showCommand())
    .addHelpText(
      'after',
      `
Outside production (NODE_ENV other than production) every message the service
delivers is kept whole, so that an invitation or a password reset can be
finished without a mail server. In production these commands refuse (exit 2).

Examples:
  $ partner-gateway mail list --to ana@acme.example
  $ partner-gateway mail show 0193a1b2-… --json`,
    );
}
