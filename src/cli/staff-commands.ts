import { Command, Option } from 'commander';
import { seg } from './admin-client.js';
import { action } from './context.js';
import type { Output } from './output.js';
import { ADMIN_API } from '../lib/api-registry.js';

// `staff`: the operator's staff users of the back-office console (docs/back-office.md, Staff users), each one admin
// API call. A new user, or one who lost their link or forgot their password, gets a one-time link where
// they set a password: printed here for the operator to hand over (nothing is e-mailed).

const BASE = `${ADMIN_API.prefix}staff/users`;

type Entry = Record<string, unknown>;

interface PasswordLink {
  set_password_url: string;
  set_password_expires_at: string;
}

const USER_COLUMNS = ['id', 'email', 'name', 'role', 'active', 'disabled_at', 'created_at'];

/** Prints a set-password link on stdout (for a script to read) and what it is on stderr. */
function showLink(out: Output, link: PasswordLink, who: string): void {
  out.line(link.set_password_url);
  out.note(
    `One-time link for ${who}: it sets their password once, until ${link.set_password_expires_at}. Hand it over yourself; a fresh one (staff link) ends it.`,
  );
}

/** The `staff` command. */
export function staffCommand(): Command {
  const staff = new Command('staff').description(
    "The operator's staff who sign in to the back-office console (/console/ on the admin listener).",
  );
  staff
    .command('create')
    .description(
      'Creates a staff user with a role and prints the one-time link (72 hours) where they set their password.',
    )
    .requiredOption('--email <address>', 'the address they sign in with')
    .requiredOption('--name <name>', 'their name, as the console greets them')
    .addOption(
      new Option('--role <role>', 'operator: everything; support: read-mostly')
        .choices(['operator', 'support'])
        .makeOptionMandatory(),
    )
    .action(
      action(async ({ out, admin }, options: { email: string; name: string; role: string }) => {
        const created = await admin().call<Entry & PasswordLink>('POST', BASE, {
          body: { email: options.email, name: options.name, role: options.role },
        });
        out.result(created, () => {
          showLink(
            out,
            created,
            `${String(created.email)} (${String(created.role)}, id ${String(created.id)})`,
          );
        });
      }),
    );
  staff
    .command('list')
    .description('Lists the staff users, disabled ones too (never a password or its hash).')
    .action(
      action(async ({ out, admin }) => {
        const users = await admin().call<Entry[]>('GET', BASE);
        out.result(users, () => {
          out.table(users, USER_COLUMNS);
        });
      }),
    );
  staff
    .command('link')
    .description(
      'Prints a fresh one-time link (72 hours) where a staff user sets a password (a lost link, a forgotten password); their earlier links stop working.',
    )
    .argument('<id>', 'the staff user id (staff list)')
    .action(
      action(async ({ out, admin }, id: string) => {
        const link = await admin().call<PasswordLink>('POST', `${BASE}/${seg(id)}/password-link`);
        out.result(link, () => {
          showLink(out, link, `staff user ${id}`);
        });
      }),
    );
  staff
    .command('disable')
    .description(
      'Disables a staff user: they can no longer sign in, their links stop working and their console sessions end.',
    )
    .argument('<id>', 'the staff user id (staff list)')
    .action(
      action(async ({ out, admin }, id: string) => {
        const user = await admin().call<Entry>('POST', `${BASE}/${seg(id)}/disable`);
        out.result(user, () => {
          out.record(user);
        });
      }),
    );
  return staff;
}
