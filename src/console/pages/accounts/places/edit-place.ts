import type { ConsoleKit } from '../../../console-kit.js';
import { type PlaceParams, type FormBody, placeForm } from './place-forms.js';
import { placeViews } from './place-views.js';

// A place's settings (GET, POST /console/accounts/:account/places/:place/edit).

export function registerEditPlacePages(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const { placeFormPage, savePlace } = placeViews(kit);

  kit.page<PlaceParams>('/accounts/:account/places/:place/edit', 'merchants', async (request, reply, ctx) => {
    const account = await posData.account(request.params.account);
    const place = await posData.place(account.id, request.params.place);
    const values = {
      id: place.id,
      name: place.name ?? '',
      timezone: place.timezone,
      active: place.active === null ? '' : String(place.active),
    };
    return placeFormPage(request, reply, ctx, account, place, values, {});
  });

  kit.action<PlaceParams & FormBody>(
    '/accounts/:account/places/:place/edit',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const place = await posData.place(account.id, request.params.place);
      return savePlace(request, reply, ctx, account, place, placeForm(request.body, place.id));
    },
  );
}
