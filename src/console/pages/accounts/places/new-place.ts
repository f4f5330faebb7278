import { identifier } from '../../../../pos/places/pos-data-input.js';
import { formText } from '../../../../web/face.js';
import type { ConsoleKit } from '../../../console-kit.js';
import { type FormBody, checkPlace, exists, placeForm } from './place-forms.js';
import { placeViews } from './place-views.js';

// A new place of an account (GET, POST /console/accounts/:account/places/new-place).

export function registerNewPlacePages(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const { placeFormPage, savePlace } = placeViews(kit);

  kit.page<{ Params: { account: string } }>(
    '/accounts/:account/places/new-place',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const values = { id: '', name: '', timezone: 'America/Sao_Paulo', active: 'true' };
      return placeFormPage(request, reply, ctx, account, null, values, {});
    },
  );

  kit.action<{ Params: { account: string } } & FormBody>(
    '/accounts/:account/places/new-place',
    'merchants',
    async (request, reply, ctx) => {
      const account = await posData.account(request.params.account);
      const values = placeForm(request.body, formText(request.body.id).trim());
      const id = identifier.safeParse(values.id);
      if (!id.success) {
        const errors = { id: id.error.issues[0]?.message ?? '', ...checkPlace(values) };
        return placeFormPage(request, reply, ctx, account, null, values, errors, 422);
      }
      if (await exists(posData.place(account.id, id.data))) {
        const errors = { id: ctx.t('accPlaceIdTaken', { id: id.data }) };
        return placeFormPage(request, reply, ctx, account, null, values, errors, 409);
      }
      return savePlace(request, reply, ctx, account, null, values);
    },
  );
}
