import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { auditCommand } from './audit-commands.js';
import { backupCommands } from './backup-commands.js';
import { checkBucketsCommand } from './check-buckets.js';
import { CliError, EXIT } from './cli-error.js';
import { helpdeskCommands } from './helpdesk-commands.js';
import { importCommand } from './import-receipts.js';
import { nativeAddonFailure } from '../runtime-check.js';
import { localCommands } from './local-commands.js';
import { mailCommand } from './mail-commands.js';
import { stylesFor } from './output.js';
import { posCommands } from './pos-commands.js';
import { refusalsCommand } from './refusals-command.js';
import { staffCommand } from './staff-commands.js';

// The `partner-gateway` program (main.ts runs it). Built with commander: every command has --help,
// usage errors exit 2, refusals and failures exit 1.

const HELP = `
Local commands (serve, migrate, demo, backup, restore, check-buckets, mail) work on the database of
DATABASE_URL, with the same configuration as the server (environment, or a .env file here).
Every other command calls the admin API of a running deployment: --admin-url
(or ADMIN_URL; default http://ADMIN_HOST:ADMIN_PORT, 127.0.0.1:8081), with the
token in ADMIN_TOKEN (or SUPPORT_TOKEN), never on the command line.

Output: human lines and tables; --json prints what the API answered, as JSON,
on stdout. Colours only on a terminal, never with NO_COLOR set.

Exit codes: 0 done; 1 refused by the API or failed (the problem's title,
detail, code and param are printed); 2 usage (an unknown command or option,
a missing argument or setting).

Examples:
  $ partner-gateway systems list
  $ partner-gateway keys create acme --name ERP --permissions event.view --json
  $ partner-gateway import receipts sales.csv --account acme --place P1
  $ partner-gateway staff create --email ana@example.com --name Ana --role operator
`;

/** The version in the package.json above this file (dist/ may be a link into build/). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'partner-gateway') return manifest.version ?? '0.0.0';
    }
    const parent = dirname(dir);
    if (parent === dir) return '0.0.0';
    dir = parent;
  }
}

/** The program with every command. */
export function buildProgram(): Command {
  const errStyles = stylesFor(process.stderr);
  const program = new Command('partner-gateway')
    .description('Runs and manages the partner gateway: the service, its database, and its back office.')
    .version(packageVersion())
    .option('--json', 'print results as JSON on stdout (for scripts)')
    .option('--admin-url <url>', 'admin API of the deployment to manage (default: the local admin listener)')
    .exitOverride()
    .configureOutput({
      outputError: (text, write) => {
        write(errStyles.red(text));
      },
    })
    .showSuggestionAfterError()
    .addHelpText('after', HELP);
  for (const command of [
    ...localCommands(),
    ...backupCommands(),
    checkBucketsCommand(),
    mailCommand(),
    ...helpdeskCommands(),
    ...posCommands(),
    importCommand(),
    auditCommand(),
    refusalsCommand(),
    staffCommand(),
  ]) {
    program.addCommand(command);
  }
  // Settings that subcommands built apart do not inherit: the exit override, the error output.
  const inherit = (command: Command) => {
    for (const sub of command.commands) {
      sub.copyInheritedSettings(program);
      inherit(sub);
    }
  };
  inherit(program);
  return program;
}

/** Whether --json was given (before a `--`), known even when parsing failed. */
function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

/** Runs the command line; answers the exit code. */
export async function run(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander printed the message (or the help) already.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      return EXIT.usage;
    }
    const json = wantsJson(argv);
    if (error instanceof CliError) {
      // A command that printed everything itself ends with an empty message: only its exit code.
      if (error.message === '') return error.exitCode;
      if (json) process.stdout.write(`${JSON.stringify(error.json ?? { error: error.message }, null, 2)}\n`);
      process.stderr.write(`${stylesFor(process.stderr).red('error:')} ${error.message}\n`);
      return error.exitCode;
    }
    // better-sqlite3 loads its addon when a command first opens a database: one built for another Node
    // is one line naming the rebuild, not a stack trace.
    const addon = nativeAddonFailure(error);
    if (addon !== null) {
      process.stderr.write(`${stylesFor(process.stderr).red('error:')} ${addon}\n`);
      return EXIT.failed;
    }
    process.stderr.write(
      `${stylesFor(process.stderr).red('error:')} ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.failed;
  }
}
