import { identifier } from '../../../../pos/places/pos-data-input.js';
import { formText } from '../../../../web/face.js';
import type { ConsoleKit } from '../../../console-kit.js';
import { type PlaceParams, type FormBody, exists, eventForm } from './place-forms.js';
import { eventViews } from './event-views.js';

// A new event of a place (GET, POST /console/accounts/:account/places/:place/events/new-event).

export function registerNewEventPages(kit: ConsoleKit): void {
  const { eventFormPage, placeOf, eventOf, saveEvent } = eventViews(kit);

  kit.page<PlaceParams>(
    '/accounts/:account/places/:place/events/new-event',
    'merchants',
    async (request, reply, ctx) => {
      const where = await placeOf(request.params);
      const values = { id: '', name: '', starts_at: '', ends_at: '', active: true };
      return eventFormPage(request, reply, ctx, where, null, values, {});
    },
  );

  kit.action<PlaceParams & FormBody>(
    '/accounts/:account/places/:place/events/new-event',
    'merchants',
    async (request, reply, ctx) => {
      const where = await placeOf(request.params);
      const values = eventForm(request.body, formText(request.body.id).trim());
      const id = identifier.safeParse(values.id);
      if (!id.success) {
        return saveEvent(request, reply, ctx, where, null, values, { id: id.error.issues[0]?.message ?? '' });
      }
      if (await exists(eventOf(where, id.data))) {
        const errors = { id: ctx.t('accEventIdTaken', { id: id.data }) };
        return eventFormPage(request, reply, ctx, where, null, values, errors, 409);
      }
      return saveEvent(request, reply, ctx, where, null, values);
    },
  );
}
