import { keyOutcomeValue } from '../../../pos/keys/merchant-key-problem.js';
import type { PanelKit } from '../../panel-kit.js';
import { keyRevokeView } from './key-confirm-views.js';

/** A key's pause and reactivation (POST /keys/:id/pause, /reactivate) and its revocation (/revoke). */
export function registerKeyStates(kit: PanelKit): void {
  const { merchantKeys } = kit.services;

  for (const [path, change, done] of [
    ['/pause', 'pause', 'paused'],
    ['/reactivate', 'reactivate', 'reactivated'],
  ] as const) {
    kit.action<{ Params: { id: string } }>(`/keys/:id${path}`, async (request, reply, ctx) => {
      const { key } = keyOutcomeValue(
        await merchantKeys[change](ctx.user.accountId, request.params.id, ctx.actor),
      );
      kit.flash(request, ctx.t(done, { name: key.name }));
      return kit.redirect(reply, `/keys/${encodeURIComponent(key.id)}`);
    });
  }

  kit.page<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply, ctx) => {
    const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
    return kit.send(request, reply, ctx, ctx.t('revoke'), keyRevokeView(ctx, key));
  });

  kit.action<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply, ctx) => {
    const { key } = keyOutcomeValue(
      await merchantKeys.revoke(ctx.user.accountId, request.params.id, ctx.actor),
    );
    kit.flash(request, ctx.t('revoked', { name: key.name }));
    return kit.redirect(reply, '/keys');
  });
}
