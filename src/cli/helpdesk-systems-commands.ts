import { Command } from 'commander';
import { AdminRefusal, seg } from './admin-client.js';
import { CliError } from './cli-error.js';
import { action, list, numberList, positiveNumber, wholeNumber } from './context.js';
import { HELPDESK_BASE as BASE, type Entry } from './helpdesk-command-kit.js';
import type { Output } from './output.js';

// `systems`: the partner systems of the ticket API, their settings, their switch and their keys.

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

function showSystem(out: Output, system: Entry): void {
  out.result(system, () => {
    out.record(system);
  });
}

/** `systems`: list, show, create, activate, deactivate, rotate and stop-previous. */
export function systemsCommand(): Command {
  const systems = new Command('systems').description('Partner systems of the ticket API and their keys.');
  addReading(systems);
  addCreate(systems);
  addSwitches(systems);
  addKeys(systems);
  return systems;
}

/** `systems list` and `systems show`. */
function addReading(systems: Command): void {
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
}

/** `systems create`: refuses a system that exists unless --replace. */
function addCreate(systems: Command): void {
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
}

/** `systems deactivate` and `systems activate`: the switch, settings kept. */
function addSwitches(systems: Command): void {
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
}

/** `systems rotate` and `systems stop-previous`: the system's keys. */
function addKeys(systems: Command): void {
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
}
