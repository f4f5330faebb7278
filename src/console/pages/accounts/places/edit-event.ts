import type { ConsoleKit } from '../../../console-kit.js';
import { instantInput } from '../accounts-view.js';
import { type EventParams, type FormBody, eventForm } from './place-forms.js';
import { eventViews } from './event-views.js';

// An event of a place (GET, POST /console/accounts/:account/places/:place/events/:id/edit).

export function registerEditEventPages(kit: ConsoleKit): void {
  const { eventFormPage, placeOf, eventOf, saveEvent } = eventViews(kit);

  kit.page<EventParams>(
    '/accounts/:account/places/:place/events/:id/edit',
    'merchants',
    async (request, reply, ctx) => {
      const where = await placeOf(request.params);
      const event = await eventOf(where, request.params.id);
      const values = {
        id: event.id,
        name: event.name,
        starts_at: event.startsAt === null ? '' : instantInput(event.startsAt),
        ends_at: event.endsAt === null ? '' : instantInput(event.endsAt),
        active: event.active,
      };
      return eventFormPage(request, reply, ctx, where, event, values, {});
    },
  );

  kit.action<EventParams & FormBody>(
    '/accounts/:account/places/:place/events/:id/edit',
    'merchants',
    async (request, reply, ctx) => {
      const where = await placeOf(request.params);
      const event = await eventOf(where, request.params.id);
      return saveEvent(request, reply, ctx, where, event, eventForm(request.body, event.id));
    },
  );
}
