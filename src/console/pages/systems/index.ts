import type { ConsoleKit } from '../../console-kit.js';
import { registerSystemActivationPages } from './activation.js';
import { registerSystemPage } from './detail.js';
import { registerEditSystemPages } from './edit.js';
import { registerSystemListPage } from './list.js';
import { registerNewSystemPage } from './new.js';
import { registerSystemRefusalsPage } from './refusals.js';
import { registerRotateKeyPages } from './rotate.js';
import { registerStopPreviousKeyPages } from './stop-previous.js';
import { registerSystemTicketsPage } from './tickets.js';

// The help desk's partner systems in the console (issue 14): support finds a system, reads its settings,
// its key's state, last use and history (never a key or a hash), its last refusals and its tickets, and
// stops a leaked previous key at once; the operator also creates a system (its first key shown once),
// changes its settings (never its keys), deactivates or reactivates it, and rotates its key (the new key
// shown once, the current one kept for the system's grace period). Every change goes through the systems
// service the admin API uses, with the staff user as the audit trail's actor, and into the back-office
// log under the admin operation of the same change.
//
// Routes:
//   GET  /console/systems                             read
//   GET  /console/systems/new                         systems
//   POST /console/systems/new                         systems
//   GET  /console/systems/:identifier                 read
//   GET  /console/systems/:identifier/refusals        readRefusals
//   GET  /console/systems/:identifier/tickets         readTickets
//   GET  /console/systems/:identifier/stop-previous   stopPreviousKey
//   POST /console/systems/:identifier/stop-previous   stopPreviousKey
//   GET  /console/systems/:identifier/edit            systems
//   POST /console/systems/:identifier/edit            systems
//   GET  /console/systems/:identifier/deactivate      systems
//   POST /console/systems/:identifier/deactivate      systems
//   GET  /console/systems/:identifier/reactivate      systems
//   POST /console/systems/:identifier/reactivate      systems
//   GET  /console/systems/:identifier/rotate          systems
//   POST /console/systems/:identifier/rotate          systems
//
// One file a page: each registers its routes, in the order of the table above.

/** Registers the partner systems' pages. */
export function registerSystemPages(kit: ConsoleKit): void {
  registerSystemListPage(kit);
  registerNewSystemPage(kit);
  registerSystemPage(kit);
  registerSystemRefusalsPage(kit);
  registerSystemTicketsPage(kit);
  registerStopPreviousKeyPages(kit);
  registerEditSystemPages(kit);
  registerSystemActivationPages(kit);
  registerRotateKeyPages(kit);
}
