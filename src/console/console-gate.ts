import type { StaffRole } from '../staff/staff-user-input.js';

// Who may do what in the back-office console (issue 14): one table, read by every console route before
// its handler and by every page before it shows a link or a button. Support is read-mostly, as
// docs/admin-rules.md has it ("can list and revoke keys but cannot create or rotate them"): it finds systems
// and accounts, reads keys, their history, refusals and tickets, stops a system's previous key and
// revokes a merchant key. The operator does all of that and everything else. A route that a role may not
// use answers 403, whether its page was asked for or its form was forged, and nothing of it is shown.

/** What a console route does, as the gate knows it. */
export type ConsoleAbility =
  /** Find systems and accounts; read their keys (never a key or a hash), states, last use, history. */
  | 'read'
  /** A system's tickets. */
  | 'readTickets'
  /** The last refusals of a system or an account. */
  | 'readRefusals'
  /** End a system's previous key at once (a leak). */
  | 'stopPreviousKey'
  /** Revoke a merchant's key, with a reason. */
  | 'revokeMerchantKey'
  /** The help-desk catalog: companies, category types, categories, priorities, support levels, natures. */
  | 'catalog'
  /** Partner systems: create, settings, rotate, deactivate. */
  | 'systems'
  /** The ticket API's maintenance switch. */
  | 'maintenance'
  /** Merchant accounts, places and events; inviting merchant users. */
  | 'merchants'
  /** Receipts from a file. */
  | 'receipts'
  /** The service's state: traffic, database and Redis. */
  | 'dashboard'
  /** Staff users and the back-office action log. */
  | 'staff';

const SUPPORT: readonly ConsoleAbility[] = [
  'read',
  'readTickets',
  'readRefusals',
  'stopPreviousKey',
  'revokeMerchantKey',
];

/** Each role's abilities. */
export const ROLE_ABILITIES: Readonly<Record<StaffRole, ReadonlySet<ConsoleAbility>>> = {
  support: new Set(SUPPORT),
  operator: new Set<ConsoleAbility>([
    ...SUPPORT,
    'catalog',
    'systems',
    'maintenance',
    'merchants',
    'receipts',
    'dashboard',
    'staff',
  ]),
};

/** Whether a role may do this. */
export function can(role: StaffRole, ability: ConsoleAbility): boolean {
  return ROLE_ABILITIES[role].has(ability);
}
