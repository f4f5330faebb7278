import { Command, InvalidArgumentError } from 'commander';
import { seg } from './admin-client.js';
import { usageError } from './cli-error.js';
import { action, list } from './context.js';
import { POS_BASE as BASE, showMany, showOne, type Entry } from './pos-command-kit.js';

// `keys`: the merchants' API keys of the point-of-sale data API, issued, listed, edited, rotated,
// paused, reactivated and revoked.

/** `all`, or a comma-separated list of place ids. */
function placesOption(value: string): 'all' | string[] {
  if (value === 'all') return 'all';
  const ids = list(value);
  if (ids.length === 0) throw new InvalidArgumentError('must be "all" or comma-separated place ids');
  return ids;
}
const KEY_COLUMNS = [
  'id',
  'account',
  'name',
  'state',
  'permissions',
  'places',
  'expires_at',
  'previous_key_valid_until',
];
/** `keys`: create, list, edit, rotate, pause, reactivate and revoke. */
export function keysCommand(): Command {
  const keys = new Command('keys').description("Merchants' API keys of the point-of-sale data API.");
  const path = (account: string) => `${BASE}/accounts/${seg(account)}/keys`;
  keys
    .command('create')
    .description('Issues a key; it is shown once. Validity ends at 23:59:59 UTC-03:00 of --expires-on.')
    .argument('<account>', 'the account id')
    .requiredOption('--name <name>', 'what the key is for')
    .option('--permissions <list>', 'comma-separated: event.view, sale-by-payment-method.view', list, [])
    .option('--places <places>', '"all" or comma-separated place ids', placesOption, 'all')
    .option('--expires-on <date>', 'YYYY-MM-DD (default 12 months, at most 24)')
    .action(
      action(
        async (
          { out, admin },
          account: string,
          options: { name: string; permissions: string[]; places: 'all' | string[]; expiresOn?: string },
        ) => {
          const created = await admin().call<{ id: string; key: string; expires_at: string }>(
            'POST',
            path(account),
            {
              body: {
                name: options.name,
                permissions: options.permissions,
                places: options.places,
                ...(options.expiresOn === undefined ? {} : { expires_on: options.expiresOn }),
              },
            },
          );
          out.result(created, () => {
            out.line(created.key);
            out.note(
              `Key ${created.id} of "${account}", valid until ${created.expires_at}; shown only this once.`,
            );
          });
        },
      ),
    );
  keys
    .command('list')
    .description(
      "Lists keys: an account's, or every account's without one (support may too). Never the keys.",
    )
    .argument('[account]', 'the account id')
    .action(
      action(async ({ out, admin }, account: string | undefined) => {
        const rows = await admin().call<Entry[]>(
          'GET',
          account === undefined ? `${BASE}/keys` : path(account),
        );
        showMany(out, rows, KEY_COLUMNS);
      }),
    );
  keys
    .command('edit')
    .description(
      'Changes a key: any of its name, permissions, places and validity (--expires-at may be past).',
    )
    .argument('<account>', 'the account id')
    .argument('<id>', 'the key id')
    .option('--name <name>', 'what the key is for')
    .option('--permissions <list>', 'comma-separated permissions (replaces them)', list)
    .option('--places <places>', '"all" or comma-separated place ids (replaces them)', placesOption)
    .option('--expires-on <date>', 'YYYY-MM-DD')
    .option('--expires-at <instant>', "the operator's exact override, ISO 8601 with an offset or Z")
    .action(
      action(
        async (
          { out, admin },
          account: string,
          id: string,
          options: {
            name?: string;
            permissions?: string[];
            places?: 'all' | string[];
            expiresOn?: string;
            expiresAt?: string;
          },
        ) => {
          const body: Entry = {};
          if (options.name !== undefined) body.name = options.name;
          if (options.permissions !== undefined) body.permissions = options.permissions;
          if (options.places !== undefined) body.places = options.places;
          if (options.expiresOn !== undefined) body.expires_on = options.expiresOn;
          if (options.expiresAt !== undefined) body.expires_at = options.expiresAt;
          if (Object.keys(body).length === 0) {
            throw usageError(
              'nothing to change: give --name, --permissions, --places, --expires-on or --expires-at',
            );
          }
          showOne(out, await admin().call<Entry>('PATCH', `${path(account)}/${seg(id)}`, { body }));
        },
      ),
    );
  keys
    .command('rotate')
    .description(
      'Issues a new key text for the key, shown once. The old text keeps working for the grace (POS_ROTATION_GRACE_SECONDS) unless --invalidate-current.',
    )
    .argument('<account>', 'the account id')
    .argument('<id>', 'the key id')
    .option('--invalidate-current', 'the old text (and any previous one) stops at once')
    .action(
      action(
        async ({ out, admin }, account: string, id: string, options: { invalidateCurrent?: boolean }) => {
          const rotated = await admin().call<{ key: string; previous_valid_until: string | null }>(
            'POST',
            `${path(account)}/${seg(id)}/rotate`,
            { body: { invalidate_current: options.invalidateCurrent === true } },
          );
          out.result(rotated, () => {
            out.line(rotated.key);
            out.note(
              `New text of key ${id}, shown only this once. ${
                rotated.previous_valid_until === null
                  ? 'The old text no longer works.'
                  : `The old text works until ${rotated.previous_valid_until}.`
              }`,
            );
          });
        },
      ),
    );
  const changes = [
    [
      'pause',
      'Pauses a key (401 paused) until `keys reactivate`; a previous key in its grace ends for good.',
    ],
    ['reactivate', 'Makes a paused key work again.'],
    ['revoke', 'Revokes a key for ever (support may too).'],
  ] as const;
  for (const [name, description] of changes) {
    keys
      .command(name)
      .description(description)
      .argument('<account>', 'the account id')
      .argument('<id>', 'the key id')
      .action(
        action(async ({ out, admin }, account: string, id: string) => {
          showOne(
            out,
            await admin().call<Entry>('POST', `${path(account)}/${seg(id)}/${name}`, { body: {} }),
          );
        }),
      );
  }
  return keys;
}
