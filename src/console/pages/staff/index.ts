import type { ConsoleKit } from '../../console-kit.js';
import { registerActivityPage } from './activity.js';
import { registerDisableStaffUserPages } from './disable.js';
import { registerStaffLinkPages } from './link.js';
import { registerStaffListPage } from './list.js';
import { registerNewStaffUserPages } from './new.js';

// The operator's staff users and the back-office action log (issue 14), the operator's only (ability
// `staff`). Changes go through the staff user service, the admin API's, which writes each one to the
// back-office log in its own transaction with the signed-in operator as actor: these pages record
// nothing themselves. A set-password link is shown once, on the answer to the post that made it.
//
// Routes:
//   GET  /console/staff                staff     the staff users
//   GET  /console/staff/new            staff     the new user form
//   POST /console/staff/new            staff     creates the user; answers with their link, shown once
//   GET  /console/staff/:id/link       staff     confirmation of a fresh link
//   POST /console/staff/:id/link       staff     issues it; answers with the link, shown once
//   GET  /console/staff/:id/disable    staff     confirmation of disabling the user
//   POST /console/staff/:id/disable    staff     disables them (not oneself; not the last operator)
//   GET  /console/activity             staff     the back-office action log, newest first
//
// One file a page: each registers its routes, in the order of the table above.

/** Registers the staff users' pages and the action log. */
export function registerStaffPages(kit: ConsoleKit): void {
  registerStaffListPage(kit);
  registerNewStaffUserPages(kit);
  registerStaffLinkPages(kit);
  registerDisableStaffUserPages(kit);
  registerActivityPage(kit);
}
