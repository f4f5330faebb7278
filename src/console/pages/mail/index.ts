import type { ConsoleKit } from '../../console-kit.js';
import { registerMailboxListPage } from './list.js';
import { registerMailboxMessagePages } from './message.js';

// The development mailbox (docs/operations.md, Reading e-mail locally): outside production, every e-mail
// the service sent, kept whole with its one-time links (src/mail/dev-mailbox.ts). It holds other
// people's invitations and password resets, so it is the operator's only (ability `staff`, the one that
// already hands staff users' set-password links over); support does not see it. In production the
// services keep no mailbox: none of these routes exists (the console's page not found, 404) and the
// navigation does not name it.
//
// Routes (outside production only):
//   GET  /console/mailbox              staff     the messages, newest first
//   GET  /console/mailbox/:id          staff     one message: its fields, its links, its text
//   GET  /console/mailbox/:id/html     staff     its HTML version, alone, under a sandboxing CSP
//
// One file a page: each registers its routes, in the order of the table above.

/** Registers the mailbox's pages when the services keep one (never in production). */
export function registerMailboxPages(kit: ConsoleKit): void {
  if (kit.services.mailbox === null) return;
  registerMailboxListPage(kit, kit.services.mailbox);
  registerMailboxMessagePages(kit, kit.services.mailbox);
}
