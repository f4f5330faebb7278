import type { ConsoleKit } from '../../console-kit.js';
import { registerAccountPage } from './detail.js';
import { registerAccountEditPages } from './edit.js';
import { registerAccountKeyPage } from './key.js';
import { registerAccountListPage } from './list.js';
import { registerNewAccountPages } from './new-account.js';
import { registerAccountPlacePages } from './places/index.js';
import { registerAccountReceiptPages } from './receipts.js';
import { registerAccountRefusalsPage } from './refusals.js';
import { registerRevokePages } from './revoke.js';
import { registerAccountUserPages } from './users.js';

// The merchants of the point of sale in the console (issue 14): support finds an account, reads its
// keys (never a key or a hash), their states, last use and history, revokes a leaked key with a reason
// kept in the key audit trail, and reads the account's last refusals; the operator also manages the
// account, its places, events and panel users, and ingests receipts from a file. One file a page (or a
// resource's few pages) in this folder; each registers its routes, in the order of the table below.
//
// Routes (under /console):
//   GET  /accounts                                          read
//   GET  /accounts/:account                                 read
//   GET  /accounts/:account/keys/:id                        read
//   GET  /accounts/:account/keys/:id/revoke                 revokeMerchantKey
//   POST /accounts/:account/keys/:id/revoke                 revokeMerchantKey
//   GET  /accounts/:account/refusals                        readRefusals
//   GET  /accounts/new-account                              merchants   (new-account.ts, edit.ts)
//   POST /accounts/new-account                              merchants
//   GET  /accounts/:account/edit                            merchants
//   POST /accounts/:account/edit                            merchants
//   GET  /accounts/:account/places/new-place                merchants   (places/)
//   POST /accounts/:account/places/new-place                merchants
//   GET  /accounts/:account/places/:place                   merchants   (the place and its events)
//   GET  /accounts/:account/places/:place/edit              merchants
//   POST /accounts/:account/places/:place/edit              merchants
//   GET  /accounts/:account/places/:place/events/new-event  merchants
//   POST /accounts/:account/places/:place/events/new-event  merchants
//   GET  /accounts/:account/places/:place/events/:id/edit   merchants
//   POST /accounts/:account/places/:place/events/:id/edit   merchants
//   GET  /accounts/:account/places/:place/events/:id/delete merchants
//   POST /accounts/:account/places/:place/events/:id/delete merchants
//   GET  /accounts/:account/users                           merchants   (users.ts)
//   POST /accounts/:account/users                           merchants
//   GET  /accounts/:account/receipts                        receipts    (receipts.ts)
//   POST /accounts/:account/receipts                        receipts    (the file as the body; JSON answer)
//
// The pages that create something sit at a name with a hyphen (`new-account`), which no identifier of
// the point of sale can have (^[A-Za-z0-9]{1,64}$): an account, place or event is never hidden by them.

/** Registers the merchant pages. */
export function registerAccountPages(kit: ConsoleKit): void {
  registerAccountListPage(kit);
  registerAccountPage(kit);
  registerAccountKeyPage(kit);
  registerAccountRefusalsPage(kit);
  registerRevokePages(kit);
  registerNewAccountPages(kit);
  registerAccountEditPages(kit);
  registerAccountPlacePages(kit);
  registerAccountUserPages(kit);
  registerAccountReceiptPages(kit);
}
