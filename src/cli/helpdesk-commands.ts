import { Command, InvalidArgumentError, Option } from 'commander';
import { action, positiveNumber } from './context.js';
import { HELPDESK_BASE as BASE, type Entry } from './helpdesk-command-kit.js';
import { catalogCommand } from './helpdesk-catalog-commands.js';
import { systemsCommand } from './helpdesk-systems-commands.js';
import type { Output } from './output.js';

// The help-desk commands: catalog, partner systems, the maintenance switch, tickets (docs/admin-rules.md,
// Help desk), each one or a few admin API calls.

/** The maintenance switch as the admin API shows it. */
interface State {
  enabled: boolean;
  retry_after_seconds: number;
}

/** An instant for --since/--until: a date (midnight UTC) or an ISO 8601 instant with an offset. */
function instantOption(value: string): Date {
  const text = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
  const date = new Date(text);
  if (!/^\d{4}-\d{2}-\d{2}(T.+(Z|[+-]\d{2}:?\d{2}))?$/i.test(text) || Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError('must be a date (YYYY-MM-DD, midnight UTC) or an instant with an offset');
  }
  return date;
}

function maintenanceCommand(): Command {
  const maintenance = new Command('maintenance').description(
    "The ticket API's maintenance switch: while on, every ticket call is answered 503 with Retry-After.",
  );
  const report = (out: Output, state: { enabled: boolean; retry_after_seconds: number }) => {
    out.result(state, () => {
      out.line(
        state.enabled
          ? `Maintenance is on: ticket calls get 503 with Retry-After: ${state.retry_after_seconds}.`
          : 'Maintenance is off.',
      );
    });
  };
  maintenance
    .command('on')
    .description('Switches maintenance on (turn it off again with `maintenance off`).')
    .option('--retry-after <seconds>', 'Retry-After of the 503s', positiveNumber, 300)
    .action(
      action(async ({ out, admin }, options: { retryAfter: number }) => {
        report(
          out,
          await admin().call<State>('PUT', `${BASE}/maintenance`, {
            body: { enabled: true, retry_after_seconds: options.retryAfter },
          }),
        );
      }),
    );
  maintenance
    .command('off')
    .description('Switches maintenance off.')
    .action(
      action(async ({ out, admin }) => {
        report(out, await admin().call<State>('PUT', `${BASE}/maintenance`, { body: { enabled: false } }));
      }),
    );
  maintenance
    .command('status')
    .description('Says whether maintenance is on.')
    .action(
      action(async ({ out, admin }) => {
        report(out, await admin().call<State>('GET', `${BASE}/maintenance`));
      }),
    );
  return maintenance;
}

/** The most tickets one page of the admin API holds. */
const TICKET_PAGE_MAX = 200;

function ticketsCommand(): Command {
  const tickets = new Command('tickets').description('Tickets opened by partner systems.');
  tickets
    .command('list')
    .description(
      'Lists tickets, newest first, with everything stored (cnpj and requester too). --since and --until are applied while paging through the newest-first list, which stops at the first ticket older than --since.',
    )
    .option('--system <identifier>', 'only the tickets of this partner system')
    .option('--external-id <id>', "only the ticket with this partner's external_id")
    .addOption(
      new Option('--since <date>', 'only tickets created at or after (YYYY-MM-DD is midnight UTC)').argParser(
        instantOption,
      ),
    )
    .addOption(new Option('--until <date>', 'only tickets created before').argParser(instantOption))
    .option('--limit <n>', 'at most this many tickets', positiveNumber, 50)
    .option('--all', 'every matching ticket (no --limit)')
    .action(
      action(
        async (
          { out, admin },
          options: {
            system?: string;
            externalId?: string;
            since?: Date;
            until?: Date;
            limit: number;
            all?: boolean;
          },
        ) => {
          const client = admin();
          const wanted = options.all === true ? Number.POSITIVE_INFINITY : options.limit;
          const found: Entry[] = [];
          let cursor: string | undefined;
          paging: for (;;) {
            const page = await client.call<{ data: Entry[]; next_cursor: string | null }>(
              'GET',
              `${BASE}/tickets`,
              {
                query: {
                  system: options.system,
                  external_id: options.externalId,
                  cursor,
                  limit: Math.min(
                    TICKET_PAGE_MAX,
                    Number.isFinite(wanted) ? Math.max(wanted - found.length, 1) : TICKET_PAGE_MAX,
                  ),
                },
              },
            );
            for (const ticket of page.data) {
              const created = new Date(String(ticket.created_at));
              if (options.until !== undefined && created >= options.until) continue;
              if (options.since !== undefined && created < options.since) break paging;
              found.push(ticket);
              if (found.length >= wanted) break paging;
            }
            if (page.next_cursor === null) break;
            cursor = page.next_cursor;
          }
          out.result(found, () => {
            out.table(
              found.map((ticket) => ({
                ...ticket,
                requester: (ticket.requester as { name?: unknown } | null)?.name,
              })),
              [
                'ticket',
                'created_at',
                'system',
                'external_id',
                'company',
                'category_id',
                'priority_id',
                'description',
              ],
            );
          });
        },
      ),
    );
  return tickets;
}

/** The help-desk commands. */
export function helpdeskCommands(): Command[] {
  return [catalogCommand(), systemsCommand(), maintenanceCommand(), ticketsCommand()];
}
