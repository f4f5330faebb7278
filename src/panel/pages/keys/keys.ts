import type { PanelKit } from '../../panel-kit.js';
import { registerKeyCreate } from './key-create.js';
import { registerKeyDetail } from './key-detail.js';
import { registerKeyEdit } from './key-edit.js';
import { registerKeyList } from './key-list.js';
import { registerKeyRefusals } from './key-refusals.js';
import { registerKeyRotate } from './key-rotate.js';
import { registerKeyStates } from './key-states.js';

// The account's API keys ("Opções da conta > Integrações > Chaves de API"), through the merchant key
// service, as the admin API: the list, a new key, a key's page, its edit, roll, pause and revocation,
// and the keys' recent refusals.

/** Registers the key pages. */
export function registerKeyPages(kit: PanelKit): void {
  registerKeyList(kit);
  registerKeyRefusals(kit);
  registerKeyCreate(kit);
  registerKeyDetail(kit);
  registerKeyEdit(kit);
  registerKeyRotate(kit);
  registerKeyStates(kit);
}
