import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import { keyOutcomeValue } from '../../../pos/keys/merchant-key-problem.js';
import type { PanelKit } from '../../panel-kit.js';
import { keyRotateView } from './key-confirm-views.js';
import { keyShownOnceView } from './key-shown-once-view.js';

/** A key's roll: its form (GET /keys/:id/rotate) and the roll (POST), the new key shown once. */
export function registerKeyRotate(kit: PanelKit): void {
  const { merchantKeys, config } = kit.services;

  kit.page<{ Params: { id: string } }>('/keys/:id/rotate', async (request, reply, ctx) => {
    const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
    const hours = Math.round(config.posRotationGraceSeconds / 3600);
    return kit.send(request, reply, ctx, ctx.t('rotate'), keyRotateView(ctx, key, hours));
  });

  kit.action<{ Params: { id: string }; Body: { invalidate_current?: string } }>(
    '/keys/:id/rotate',
    async (request, reply, ctx) => {
      const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
      // A refused roll (revoked, expired) answers with its problem, as the panel's other refusals of a state.
      const rotation = keyOutcomeValue(
        await merchantKeys.rotate(
          ctx.user.accountId,
          key.id,
          { invalidate_current: request.body.invalidate_current === 'true' },
          ctx.actor,
        ),
      );
      const extra =
        rotation.previousValidUntil === null
          ? html`<p>${ctx.t('previousEnded')}</p>`
          : html`<p>
              ${ctx.t('previousUntil', { until: `${formatInstant(rotation.previousValidUntil, ctx.locale)} (UTC-03:00)` })}
            </p>`;
      return kit.send(
        request,
        reply,
        ctx,
        ctx.t('rotatedTitle'),
        keyShownOnceView(ctx, rotation.key, ctx.t('rotatedTitle'), extra),
      );
    },
  );
}
