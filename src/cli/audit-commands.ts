import { Command, InvalidArgumentError, Option } from 'commander';
import { seg } from './admin-client.js';
import { usageError } from './cli-error.js';
import { action, positiveNumber } from './context.js';
import { ADMIN_API } from '../lib/api-registry.js';

// `audit`: the key audit trail (docs/back-office.md, Audit trail and last use), and `audit actions`, the back-office
// action log (docs/back-office.md, Staff users); one page of the admin API's reading per call, newest first;
// `--cursor` takes the `next_cursor` the previous page printed.

type AuditEvent = Record<string, unknown> & {
  actor?: { role?: unknown; channel?: unknown; ip?: unknown; name?: unknown };
  details?: Record<string, unknown>;
};

interface AuditOptions {
  system?: string;
  account?: string;
  key?: string;
  kind?: 'system' | 'merchant';
  event?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
}

/** The admin API path of the trail the options name. */
function trailPath(options: AuditOptions): string {
  if (options.key !== undefined && options.account === undefined) {
    throw usageError('--key needs --account (a merchant key belongs to one account)');
  }
  if (options.system !== undefined && options.account !== undefined) {
    throw usageError('--system and --account name two different trails: give one');
  }
  if (options.kind !== undefined && (options.system !== undefined || options.account !== undefined)) {
    throw usageError('--kind filters the trail of every key: not with --system or --account');
  }
  if (options.system !== undefined) return `${ADMIN_API.prefix}helpdesk/systems/${seg(options.system)}/audit`;
  if (options.account !== undefined) {
    const account = `${ADMIN_API.prefix}pos/accounts/${seg(options.account)}`;
    return options.key === undefined ? `${account}/audit` : `${account}/keys/${seg(options.key)}/audit`;
  }
  return `${ADMIN_API.prefix}audit/keys`;
}

/** An ISO 8601 instant, as the admin API takes it. */
function instant(value: string): string {
  if (Number.isNaN(Date.parse(value)) || !/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    throw new InvalidArgumentError('must be an ISO 8601 instant, e.g. 2026-11-01T00:00:00Z');
  }
  return value;
}

type BackOfficeAction = Record<string, unknown> & {
  actor?: { role?: unknown; channel?: unknown; ip?: unknown; name?: unknown; user_id?: unknown };
  details?: Record<string, unknown>;
};

/** `audit actions`: the back-office action log. */
function actionsCommand(): Command {
  return new Command('actions')
    .description(
      'Lists the back-office action log, newest first: every change made through the admin API, the CLI and the console.',
    )
    .option('--action <operation>', 'only this operation (putHelpDeskCompany, createStaffUser, …)')
    .option('--user <id>', "only this staff user's actions in the console")
    .option('--limit <n>', 'actions on the page, 1 to 200 (default 50)', positiveNumber)
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
    .addHelpText(
      'after',
      `
Each action says who acted (role, name; channel: admin_api, cli, console),
from which IP, on what (a path under /admin/v1/) and what was sent. Never a
key, a link or a password. The operator's token only.

Examples:
  $ partner-gateway audit actions --limit 10
  $ partner-gateway audit actions --action createStaffUser --json`,
    )
    .action(
      action(
        async (
          { out, admin },
          options: { action?: string; user?: string; limit?: number; cursor?: string },
        ) => {
          const page = await admin().call<{ data: BackOfficeAction[]; next_cursor: string | null }>(
            'GET',
            `${ADMIN_API.prefix}audit/actions`,
            {
              query: {
                action: options.action,
                user: options.user,
                limit: options.limit,
                cursor: options.cursor,
              },
            },
          );
          out.result(page, () => {
            out.table(
              page.data.map((entry) => ({
                occurred_at: entry.occurred_at,
                action: entry.action,
                target: entry.target,
                by: [entry.actor?.role, entry.actor?.name]
                  .filter((part) => typeof part === 'string')
                  .join(' '),
                via: entry.actor?.channel,
                ip: entry.actor?.ip,
                details: Object.keys(entry.details ?? {}).length === 0 ? null : JSON.stringify(entry.details),
              })),
              ['occurred_at', 'action', 'target', 'by', 'via', 'ip', 'details'],
            );
            if (page.next_cursor !== null) out.note(`more: --cursor ${page.next_cursor}`);
          });
        },
      ),
    );
}

/** `audit keys`, also `audit` alone: the key audit trail. */
function keysCommand(): Command {
  return new Command('keys')
    .description(
      'Lists the key audit trail, newest first: every key, one system, one account, or one merchant key.',
    )
    .option('--system <identifier>', "a partner system's key")
    .option('--account <account>', "a merchant account's keys")
    .option('--key <id>', 'one merchant key of --account')
    .addOption(new Option('--kind <kind>', 'every key of one kind').choices(['system', 'merchant']))
    .option('--event <events>', 'only these events, comma-separated (issued, rotated, paused, …)')
    .option('--from <instant>', 'from this instant (inclusive)', instant)
    .option('--to <instant>', 'until this instant (exclusive)', instant)
    .option('--limit <n>', 'events on the page, 1 to 200 (default 50)', positiveNumber)
    .option('--cursor <cursor>', 'the next page: the cursor the previous page printed')
    .addHelpText(
      'after',
      `
Each event says who acted (role, channel: admin_api, cli, panel, console,
service), from which IP, and what changed. Never a key or a hash.

Examples:
  $ partner-gateway audit --kind merchant --limit 10
  $ partner-gateway audit --account acme --event paused,revoked
  $ partner-gateway audit --system erp-cli --json`,
    )
    .action(
      action(async ({ out, admin }, options: AuditOptions) => {
        const page = await admin().call<{ data: AuditEvent[]; next_cursor: string | null }>(
          'GET',
          trailPath(options),
          {
            query: {
              kind: options.kind,
              event: options.event,
              from: options.from,
              to: options.to,
              limit: options.limit,
              cursor: options.cursor,
            },
          },
        );
        out.result(page, () => {
          out.table(
            page.data.map((event) => ({
              occurred_at: event.occurred_at,
              event: event.event,
              key:
                event.kind === 'system'
                  ? `system ${String(event.system)}`
                  : `${String(event.account)}/${String(event.key)}`,
              by: [event.actor?.role, event.actor?.name].filter((part) => typeof part === 'string').join(' '),
              via: event.actor?.channel,
              ip: event.actor?.ip,
              details: Object.keys(event.details ?? {}).length === 0 ? null : JSON.stringify(event.details),
            })),
            ['occurred_at', 'event', 'key', 'by', 'via', 'ip', 'details'],
          );
          if (page.next_cursor !== null) out.note(`more: --cursor ${page.next_cursor}`);
        });
      }),
    );
}

/**
 * The `audit` command: the key audit trail (`audit keys`, or `audit` alone, as before the log existed)
 * and the back-office action log (`audit actions`). Subcommands, not options of one command: both take
 * --limit and --cursor, which a parent with options of its own would read before its subcommand could.
 */
export function auditCommand(): Command {
  return new Command('audit')
    .description(
      'The key audit trail (audit keys, the default: audit --account acme …) and the back-office action log (audit actions).',
    )
    .addCommand(keysCommand(), { isDefault: true })
    .addCommand(actionsCommand());
}
