import { Command, InvalidArgumentError, Option } from 'commander';
import { AdminRefusal, seg } from './admin-client.js';
import { CliError } from './cli-error.js';
import { action, list, numberList, positiveNumber, wholeNumber } from './context.js';
import type { Output } from './output.js';

// The help-desk commands: catalog, partner systems, the maintenance switch, tickets (admin-api.md, Help
// desk), each one or a few admin API calls.

const BASE = '/admin/v1/helpdesk';

/** The maintenance switch as the admin API shows it. */
interface State {
  enabled: boolean;
  retry_after_seconds: number;
}

/** The catalog's collections, as the admin API names them in its paths. */
export const CATALOG_COLLECTIONS = [
  'companies',
  'category-types',
  'priorities',
  'categories',
  'support-levels',
  'natures',
] as const;

function collection(value: string): string {
  if (!(CATALOG_COLLECTIONS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${CATALOG_COLLECTIONS.join(', ')}`);
  }
  return value;
}

type Entry = Record<string, unknown>;

/** A partner system as the admin API shows it. */
interface SystemView extends Entry {
  identifier: string;
  name: string;
  active: boolean;
  scopes: string[];
  rate_limit_per_minute: number;
  key_grace_seconds: number;
  default_category_id: number | null;
  released_category_ids: number[];
}

/** The settings of a system, as PUT takes them (everything but the identifier and has_key). */
function systemSettings(system: SystemView): Entry {
  return {
    name: system.name,
    active: system.active,
    scopes: system.scopes,
    rate_limit_per_minute: system.rate_limit_per_minute,
    key_grace_seconds: system.key_grace_seconds,
    default_category_id: system.default_category_id,
    released_category_ids: system.released_category_ids,
  };
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

function catalogCommand(): Command {
  const catalog = new Command('catalog').description(
    `The help-desk catalog: ${CATALOG_COLLECTIONS.join(', ')}.`,
  );
  catalog
    .command('list')
    .description('Lists one collection of the catalog, by id.')
    .argument('<collection>', CATALOG_COLLECTIONS.join(' | '), collection)
    .action(
      action(async ({ out, admin }, name: string) => {
        const entries = await admin().call<Entry[]>('GET', `${BASE}/${name}`);
        out.result(entries, () => {
          out.table(entries, Object.keys(entries[0] ?? { id: null }));
        });
      }),
    );
  catalog
    .command('put')
    .description(
      'Creates or replaces an entry (fields not given keep their default). Which fields a collection takes: ' +
        'companies and natures: --name, --inactive; category-types and support-levels: --name, --description; ' +
        'priorities: --name, --level, --response-time-hours, --description; ' +
        'categories: --name, --type-id, --default-priority-id, --description.',
    )
    .argument('<collection>', CATALOG_COLLECTIONS.join(' | '), collection)
    .argument('<id>', 'the entry id (a number, or text for companies and natures)')
    .requiredOption('--name <name>', 'display name')
    .option('--description <text>', 'description (at most 500 characters)')
    .option('--type-id <id>', 'category type of a category', wholeNumber)
    .option('--default-priority-id <id>', 'default priority of a category', wholeNumber)
    .option('--level <n>', 'level of a priority (1 is the most urgent)', wholeNumber)
    .option('--response-time-hours <n>', 'response time of a priority', wholeNumber)
    .option('--inactive', 'a company or nature that is no longer offered')
    .action(
      action(
        async (
          { out, admin },
          name: string,
          id: string,
          options: {
            name: string;
            description?: string;
            typeId?: number;
            defaultPriorityId?: number;
            level?: number;
            responseTimeHours?: number;
            inactive?: boolean;
          },
        ) => {
          const body: Entry = { name: options.name };
          if (options.description !== undefined) body.description = options.description;
          if (options.typeId !== undefined) body.type_id = options.typeId;
          if (options.defaultPriorityId !== undefined) body.default_priority_id = options.defaultPriorityId;
          if (options.level !== undefined) body.level = options.level;
          if (options.responseTimeHours !== undefined) body.response_time_hours = options.responseTimeHours;
          if (options.inactive === true) body.active = false;
          const entry = await admin().call<Entry>('PUT', `${BASE}/${name}/${seg(id)}`, { body });
          out.result(entry, () => {
            out.record(entry);
          });
        },
      ),
    );
  catalog
    .command('delete')
    .description(
      'Deletes a category (the only collection that can be deleted): tickets keep category_id null.',
    )
    .argument('<collection>', 'categories')
    .argument('<id>', 'the category id', wholeNumber)
    .action(
      action(async ({ out, admin }, name: string, id: number) => {
        if (name !== 'categories') {
          throw new CliError(`only categories can be deleted (got "${name}")`, 2);
        }
        await admin().call('DELETE', `${BASE}/categories/${id}`);
        out.result({ deleted: true, collection: name, id }, () => {
          out.line(`Deleted category ${id}.`);
        });
      }),
    );
  return catalog;
}

function systemsCommand(): Command {
  const systems = new Command('systems').description('Partner systems of the ticket API and their keys.');
  const showSystem = (out: Output, system: Entry) => {
    out.result(system, () => {
      out.record(system);
    });
  };
  systems
    .command('list')
    .description('Lists the partner systems (never keys or hashes).')
    .action(
      action(async ({ out, admin }) => {
        const rows = await admin().call<SystemView[]>('GET', `${BASE}/systems`);
        out.result(rows, () => {
          out.table(rows, [
            'identifier',
            'name',
            'active',
            'has_key',
            'default_category_id',
            'rate_limit_per_minute',
          ]);
        });
      }),
    );
  systems
    .command('show')
    .description('Shows one partner system (never its keys or hashes).')
    .argument('<identifier>', 'the system identifier (also the webhook path)')
    .action(
      action(async ({ out, admin }, identifier: string) => {
        showSystem(out, await admin().call<Entry>('GET', `${BASE}/systems/${seg(identifier)}`));
      }),
    );
  systems
    .command('create')
    .description(
      'Creates a partner system; refuses one that exists unless --replace (then its settings are replaced, its keys stay). Issue its first key with `systems rotate`.',
    )
    .argument('<identifier>', 'the system identifier: ^[a-z0-9_-]{1,40}$ (also the webhook path)')
    .requiredOption('--name <name>', 'display name')
    .requiredOption(
      '--default-category <id>',
      'category of tickets that name none, or of a category not released',
      wholeNumber,
    )
    .option('--released <ids>', 'comma-separated categories the system may name', numberList, [])
    .option('--scopes <scopes>', 'comma-separated scopes', list, ['help-desk-ticket.create'])
    .option('--rate-limit <n>', 'calls per minute', positiveNumber, 120)
    .option('--key-grace-seconds <n>', 'validity of the previous key after a rotation', wholeNumber, 86400)
    .option('--inactive', 'create it switched off')
    .option('--replace', 'replace the settings of a system that exists')
    .action(
      action(
        async (
          { out, admin },
          identifier: string,
          options: {
            name: string;
            defaultCategory: number;
            released: number[];
            scopes: string[];
            rateLimit: number;
            keyGraceSeconds: number;
            inactive?: boolean;
            replace?: boolean;
          },
        ) => {
          const client = admin();
          const path = `${BASE}/systems/${seg(identifier)}`;
          if (options.replace !== true) {
            try {
              await client.call('GET', path);
              throw new CliError(
                `partner system "${identifier}" exists already; add --replace to replace its settings`,
                1,
                { error: 'exists', identifier },
              );
            } catch (error) {
              if (!(error instanceof AdminRefusal && error.status === 404)) throw error;
            }
          }
          const system = await client.call<Entry>('PUT', path, {
            body: {
              name: options.name,
              active: options.inactive !== true,
              scopes: options.scopes,
              rate_limit_per_minute: options.rateLimit,
              key_grace_seconds: options.keyGraceSeconds,
              default_category_id: options.defaultCategory,
              released_category_ids: options.released,
            },
          });
          showSystem(out, system);
        },
      ),
    );
  for (const [name, active] of [
    ['deactivate', false],
    ['activate', true],
  ] as const) {
    systems
      .command(name)
      .description(
        active
          ? 'Switches a partner system on again.'
          : 'Switches a partner system off: its calls are refused until `systems activate`; settings and keys stay.',
      )
      .argument('<identifier>', 'the system identifier')
      .action(
        action(async ({ out, admin }, identifier: string) => {
          const client = admin();
          const path = `${BASE}/systems/${seg(identifier)}`;
          const current = await client.call<SystemView>('GET', path);
          const system = await client.call<Entry>('PUT', path, {
            body: { ...systemSettings(current), active },
          });
          showSystem(out, system);
        }),
      );
  }
  systems
    .command('rotate')
    .description(
      "Issues the system's first key, or a new one: the current key keeps working for the system's key grace. The key is shown once.",
    )
    .argument('<identifier>', 'the system identifier')
    .action(
      action(async ({ out, admin }, identifier: string) => {
        const rotated = await admin().call<{ key: string; previous_valid_until: string | null }>(
          'POST',
          `${BASE}/systems/${seg(identifier)}/keys/rotate`,
        );
        out.result(rotated, () => {
          out.line(rotated.key);
          out.note(
            `The key of "${identifier}" is shown only this once. ${
              rotated.previous_valid_until === null
                ? 'No previous key.'
                : `The previous key works until ${rotated.previous_valid_until}.`
            }`,
          );
        });
      }),
    );
  systems
    .command('stop-previous')
    .description('Ends the previous key of a rotation at once (a leak); the current key stays.')
    .argument('<identifier>', 'the system identifier')
    .action(
      action(async ({ out, admin }, identifier: string) => {
        const result = await admin().call<{ stopped: boolean }>(
          'POST',
          `${BASE}/systems/${seg(identifier)}/keys/stop-previous`,
        );
        out.result(result, () => {
          out.line(
            result.stopped
              ? `The previous key of "${identifier}" no longer works.`
              : `"${identifier}" had no previous key in its grace.`,
          );
        });
      }),
    );
  return systems;
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
