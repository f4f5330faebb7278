import { formatDay } from '../../../lib/calendar.js';
import { keyEditInput } from '../../../pos/keys/merchant-key-input.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { today } from '../../../pos/keys/merchant-key-validity.js';
import type { PanelKit } from '../../panel-kit.js';
import { keyFormOf, keyFormPage, keyRefusalErrors, keyZodErrors } from './key-form.js';
import { keyUrl } from './key-words.js';

const editAction = (id: string) => keyUrl(id, '/edit');
const dayOfExpiry = (key: PosKey) => formatDay(today(key.expiresAt));

/** A key's edit: its form (GET /keys/:id/edit) and the change (POST). */
export function registerKeyEdit(kit: PanelKit): void {
  const { merchantKeys } = kit.services;

  kit.page<{ Params: { id: string } }>('/keys/:id/edit', async (request, reply, ctx) => {
    const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
    const body = await keyFormPage(kit.services, ctx, {
      action: editAction(key.id),
      values: {
        name: key.name,
        permissions: key.permissions,
        places: key.places,
        expires_on: dayOfExpiry(key),
      },
      errors: {},
      submit: ctx.t('saveButton'),
      title: ctx.t('keyTitle', { name: key.name }),
    });
    return kit.send(request, reply, ctx, ctx.t('edit'), body);
  });

  kit.action<{ Params: { id: string }; Body: Record<string, unknown> }>(
    '/keys/:id/edit',
    async (request, reply, ctx) => {
      const key = await merchantKeys.get(ctx.user.accountId, request.params.id);
      const values = keyFormOf(request.body);
      const again = (errors: Record<string, string>) =>
        keyFormPage(kit.services, ctx, {
          action: editAction(key.id),
          values,
          errors,
          submit: ctx.t('saveButton'),
          title: ctx.t('keyTitle', { name: key.name }),
        }).then((body) => kit.send(request, reply, ctx, ctx.t('edit'), body, { status: 422 }));
      // The validity is sent only when changed: an unchanged date keeps the exact instant stored.
      const parsed = keyEditInput.safeParse({
        name: values.name,
        permissions: values.permissions,
        places: values.places,
        ...(values.expires_on === dayOfExpiry(key) ? {} : { expires_on: values.expires_on }),
      });
      if (!parsed.success) return again(keyZodErrors(parsed.error.issues));
      const edited = await merchantKeys.edit(ctx.user.accountId, key.id, parsed.data, ctx.actor);
      if (!edited.ok) return again(keyRefusalErrors(edited, ctx));
      kit.flash(request, ctx.t('edited', { name: edited.key.name }));
      return kit.redirect(reply, `/keys/${encodeURIComponent(key.id)}`);
    },
  );
}
