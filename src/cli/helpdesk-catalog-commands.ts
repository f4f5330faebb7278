import { Command, InvalidArgumentError } from 'commander';
import { seg } from './admin-client.js';
import { CliError } from './cli-error.js';
import { action, wholeNumber } from './context.js';
import { HELPDESK_BASE as BASE, type Entry } from './helpdesk-command-kit.js';

// `catalog`: the help-desk catalog's collections, listed, written and (categories only) deleted.

/** The catalog's collections, as the admin API names them in its paths. */
const CATALOG_COLLECTIONS = [
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

/** `catalog`: list, put and delete entries of the catalog. */
export function catalogCommand(): Command {
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
