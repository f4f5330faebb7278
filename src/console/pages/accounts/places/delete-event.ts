import { html } from '../../../../web/html.js';
import { csrfField } from '../../../../web/layout.js';
import type { ConsoleKit } from '../../../console-kit.js';
import { CONSOLE_PREFIX } from '../../../console-path.js';
import { placePath } from '../accounts-view.js';
import type { EventParams } from './place-forms.js';
import { eventViews } from './event-views.js';
import { posDataOutcomeValue } from '../../../../pos/places/pos-data-refusal.js';

// Deleting an event of a place (GET, POST /console/accounts/:account/places/:place/events/:id/delete).

export function registerDeleteEventPages(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const { crumbs, placeOf, eventOf } = eventViews(kit);

  kit.page<EventParams>(
    '/accounts/:account/places/:place/events/:id/delete',
    'merchants',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const where = await placeOf(request.params);
      const event = await eventOf(where, request.params.id);
      const { account, place } = where;
      const title = t('accDeleteEventTitle', { name: event.name });
      const body = html`${crumbs(ctx, account, place)}
        <h1>${title}</h1>
        <form
          method="post"
          action="${CONSOLE_PREFIX}${placePath(account.id, place.id, `/events/${encodeURIComponent(event.id)}/delete`)}"
          class="card"
        >
          ${csrfField(ctx.csrf)}
          <p>${t('accDeleteEventIntro')}</p>
          <div class="actions">
            <button type="submit" class="danger">${t('accDeleteEventConfirm', { name: event.name })}</button>
            <a href="${CONSOLE_PREFIX}${placePath(account.id, place.id)}">${t('accCancel')}</a>
          </div>
        </form>`;
      return kit.send(request, reply, ctx, title, body);
    },
  );

  kit.action<EventParams>(
    '/accounts/:account/places/:place/events/:id/delete',
    'merchants',
    async (request, reply, ctx) => {
      const where = await placeOf(request.params);
      const event = await eventOf(where, request.params.id);
      const { account, place } = where;
      posDataOutcomeValue(await posData.deleteEvent(account.id, place.id, event.id));
      await kit.record(ctx, {
        action: 'deletePosEvent',
        target: `pos/accounts/${account.id}/places/${place.id}/events/${event.id}`,
        details: { name: event.name },
      });
      kit.flash(request, ctx.t('accEventDeleted', { name: event.name }));
      return kit.redirect(reply, placePath(account.id, place.id));
    },
  );
}
