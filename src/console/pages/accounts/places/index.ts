import type { ConsoleKit } from '../../../console-kit.js';
import { registerDeleteEventPages } from './delete-event.js';
import { registerEditEventPages } from './edit-event.js';
import { registerEditPlacePages } from './edit-place.js';
import { registerNewEventPages } from './new-event.js';
import { registerNewPlacePages } from './new-place.js';
import { registerPlacePage } from './place.js';

// An account's places and each place's events, for the operator (routes: ../index.ts): the admin API's
// PUT bodies (src/pos/places/pos-data-input.ts) checked by their own schemas, written through the same service,
// and recorded in the back-office log as `putPosPlace`, `putPosEvent` and `deletePosEvent`. Creating
// refuses an id that is taken, where the API's PUT would replace it.
// One file a page, each registering its routes in the order of that table.

/** Registers the place and event pages. */
export function registerAccountPlacePages(kit: ConsoleKit): void {
  registerNewPlacePages(kit);
  registerPlacePage(kit);
  registerEditPlacePages(kit);
  registerNewEventPages(kit);
  registerEditEventPages(kit);
  registerDeleteEventPages(kit);
}
