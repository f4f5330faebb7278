import { Command, InvalidArgumentError } from 'commander';
import { seg } from './admin-client.js';
import { usageError } from './cli-error.js';
import { action, list } from './context.js';
import type { Output } from './output.js';

// The point-of-sale commands: merchant accounts, places, events, merchants' keys, panel users (admin-api.md, Point of
// sale), each one admin API call. Receipts are `import receipts` (import-receipts.ts).

const BASE = '/admin/v1/pos';

type Entry = Record<string, unknown>;

function showOne(out: Output, entry: Entry): void {
  out.result(entry, () => {
    out.record(entry);
  });
}

function showMany(out: Output, rows: Entry[], columns: readonly string[]): void {
  out.result(rows, () => {
    out.table(rows, columns);
  });
}

/** `all`, or a comma-separated list of place ids. */
function placesOption(value: string): 'all' | string[] {
  if (value === 'all') return 'all';
  const ids = list(value);
  if (ids.length === 0) throw new InvalidArgumentError('must be "all" or comma-separated place ids');
  return ids;
}

function accountsCommand(): Command {
  const accounts = new Command('accounts').description("Merchants' accounts.");
  accounts
    .command('list')
    .description('Lists the merchant accounts.')
    .action(
      action(async ({ out, admin }) => {
        showMany(out, await admin().call<Entry[]>('GET', `${BASE}/accounts`), [
          'id',
          'name',
          'currency',
          'active',
        ]);
      }),
    );
  accounts
    .command('show')
    .description('Shows one merchant account.')
    .argument('<account>', 'the account id')
    .action(
      action(async ({ out, admin }, account: string) => {
        showOne(out, await admin().call<Entry>('GET', `${BASE}/accounts/${seg(account)}`));
      }),
    );
  accounts
    .command('put')
    .description('Creates or replaces a merchant account.')
    .argument('<account>', 'the account id: 1 to 64 letters or digits')
    .requiredOption('--name <name>', 'display name')
    .option('--currency <code>', 'currency of its receipts', 'BRL')
    .option('--inactive', 'an account that is switched off')
    .option(
      '--email <address>',
      "where the merchant's key e-mails go (a PUT replaces the account: without it, none are sent)",
    )
    .action(
      action(
        async (
          { out, admin },
          account: string,
          options: { name: string; currency: string; inactive?: boolean; email?: string },
        ) => {
          showOne(
            out,
            await admin().call<Entry>('PUT', `${BASE}/accounts/${seg(account)}`, {
              body: {
                name: options.name,
                currency: options.currency,
                active: options.inactive !== true,
                email: options.email ?? null,
              },
            }),
          );
        },
      ),
    );
  return accounts;
}

function placesCommand(): Command {
  const places = new Command('places').description("A merchant's places (stores, bars, arenas).");
  places
    .command('list')
    .description('Lists the places of an account.')
    .argument('<account>', 'the account id')
    .action(
      action(async ({ out, admin }, account: string) => {
        showMany(out, await admin().call<Entry[]>('GET', `${BASE}/accounts/${seg(account)}/places`), [
          'id',
          'name',
          'timezone',
          'active',
        ]);
      }),
    );
  places
    .command('put')
    .description('Creates or replaces a place of an account.')
    .argument('<account>', 'the account id')
    .argument('<place>', 'the place id: 1 to 64 letters or digits')
    .requiredOption('--timezone <zone>', 'IANA time zone, such as America/Sao_Paulo')
    .option('--name <name>', 'display name')
    .option('--active', 'mark it active')
    .option('--inactive', 'mark it inactive')
    .action(
      action(
        async (
          { out, admin },
          account: string,
          place: string,
          options: { timezone: string; name?: string; active?: boolean; inactive?: boolean },
        ) => {
          if (options.active === true && options.inactive === true) {
            throw usageError('--active and --inactive exclude each other');
          }
          const active = options.active === true ? true : options.inactive === true ? false : null;
          showOne(
            out,
            await admin().call<Entry>('PUT', `${BASE}/accounts/${seg(account)}/places/${seg(place)}`, {
              body: { name: options.name ?? null, timezone: options.timezone, active },
            }),
          );
        },
      ),
    );
  return places;
}

function eventsCommand(): Command {
  const events = new Command('events').description('The events of a place (shows, matches, festivals).');
  const path = (account: string, place: string) =>
    `${BASE}/accounts/${seg(account)}/places/${seg(place)}/events`;
  events
    .command('list')
    .description('Lists the events of a place, most recently registered first.')
    .argument('<account>', 'the account id')
    .argument('<place>', 'the place id')
    .action(
      action(async ({ out, admin }, account: string, place: string) => {
        showMany(out, await admin().call<Entry[]>('GET', path(account, place)), [
          'id',
          'name',
          'starts_at',
          'ends_at',
          'active',
          'registered_at',
        ]);
      }),
    );
  events
    .command('put')
    .description('Creates or replaces an event of a place (a replaced event keeps its registration instant).')
    .argument('<account>', 'the account id')
    .argument('<place>', 'the place id')
    .argument('<event>', 'the event id: 1 to 64 letters or digits')
    .requiredOption('--name <name>', 'display name')
    .option('--starts-at <instant>', 'ISO 8601 instant with an offset or Z')
    .option('--ends-at <instant>', 'ISO 8601 instant with an offset or Z')
    .option('--inactive', 'an event that is switched off')
    .action(
      action(
        async (
          { out, admin },
          account: string,
          place: string,
          event: string,
          options: { name: string; startsAt?: string; endsAt?: string; inactive?: boolean },
        ) => {
          showOne(
            out,
            await admin().call<Entry>('PUT', `${path(account, place)}/${seg(event)}`, {
              body: {
                name: options.name,
                starts_at: options.startsAt ?? null,
                ends_at: options.endsAt ?? null,
                active: options.inactive !== true,
              },
            }),
          );
        },
      ),
    );
  events
    .command('delete')
    .description('Deletes an event; receipts recorded with it keep the event id.')
    .argument('<account>', 'the account id')
    .argument('<place>', 'the place id')
    .argument('<event>', 'the event id')
    .action(
      action(async ({ out, admin }, account: string, place: string, event: string) => {
        await admin().call('DELETE', `${path(account, place)}/${seg(event)}`);
        out.result({ deleted: true, account, place, event }, () => {
          out.line(`Deleted event ${event} of place ${place}.`);
        });
      }),
    );
  return events;
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

function keysCommand(): Command {
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

/** `users`: the merchant panel's people of an account (issue 13, Who signs in). */
function usersCommand(): Command {
  const users = new Command('users').description(
    "The people of a merchant's account who sign in to the merchant panel (/panel/).",
  );
  users
    .command('list')
    .description('Lists the panel users of an account (never a password or its hash).')
    .argument('<account>', 'the account id')
    .action(
      action(async ({ out, admin }, account: string) => {
        showMany(out, await admin().call<Entry[]>('GET', `${BASE}/accounts/${seg(account)}/users`), [
          'id',
          'email',
          'name',
          'active',
        ]);
      }),
    );
  users
    .command('invite')
    .description(
      'Invites a person to the panel: the e-mail carries a one-time link (72 hours) to set a password; for one not yet accepted, a new link replaces the earlier one.',
    )
    .argument('<account>', 'the account id')
    .requiredOption('--email <address>', 'their e-mail address')
    .requiredOption('--name <name>', 'their name, as the panel greets them')
    .action(
      action(async ({ out, admin }, account: string, options: { email: string; name: string }) => {
        showOne(
          out,
          await admin().call<Entry>('POST', `${BASE}/accounts/${seg(account)}/users`, {
            body: { email: options.email, name: options.name },
          }),
        );
      }),
    );
  return users;
}

/** The point-of-sale commands (receipts apart). */
export function posCommands(): Command[] {
  return [accountsCommand(), placesCommand(), eventsCommand(), keysCommand(), usersCommand()];
}
