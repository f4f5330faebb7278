import type { PanelKit } from '../../panel-kit.js';
import { keyDetailView } from './key-detail-view.js';

/** A key's page: GET /keys/:id. */
export function registerKeyDetail(kit: PanelKit): void {
  const { merchantKeys, keyAudit } = kit.services;
  kit.page<{ Params: { id: string } }>('/keys/:id', async (request, reply, ctx) => {
    const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
    // The key's history from the audit trail, newest first (the latest 50 events).
    const history = (await keyAudit.ofMerchantKey(ctx.user.accountId, key.id, { limit: 50 })).events;
    const body = keyDetailView(ctx, key, history);
    return kit.send(request, reply, ctx, ctx.t('keyTitle', { name: key.name }), body);
  });
}
