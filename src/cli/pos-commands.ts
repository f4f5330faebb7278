import { Command } from 'commander';
import { seg } from './admin-client.js';
import { usageError } from './cli-error.js';
import { action } from './context.js';
import { POS_BASE as BASE, showMany, showOne, type Entry } from './pos-command-kit.js';
import { keysCommand } from './pos-keys-commands.js';

// The point-of-sale commands: merchant accounts, places, events, merchants' keys, panel users
// (docs/admin-rules.md, Point of sale), each one admin API call. Receipts are `import receipts`
// (import-receipts.ts).

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
