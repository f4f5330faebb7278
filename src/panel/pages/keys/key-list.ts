import type { PanelKit } from '../../panel-kit.js';
import { keyListView } from './key-list-view.js';

/** The account's keys: GET /keys. */
export function registerKeyList(kit: PanelKit): void {
  const { merchantKeys, keyAudit } = kit.services;
  kit.page('/keys', async (request, reply, ctx) => {
    const keys = await merchantKeys.list(ctx.user.accountId);
    const active = keys.filter((k) => k.state === 'active' || k.state === 'paused').length;
    // Who created each key: the trail's `issued` events of the account (newest first, one page).
    const issued = await keyAudit.ofAccount(ctx.user.accountId, { event: ['issued'], limit: 200 });
    const creators = new Map(issued.events.map((event) => [event.keyId, event.actor]));
    return kit.send(request, reply, ctx, ctx.t('keysTitle'), keyListView(ctx, { keys, active, creators }));
  });
}
