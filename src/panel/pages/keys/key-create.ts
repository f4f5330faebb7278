import { keyCreateInput } from '../../../pos/keys/merchant-key-input.js';
import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import { PANEL_PREFIX, type PanelKit } from '../../panel-kit.js';
import { defaultExpiry, keyFormOf, keyFormPage, keyRefusalErrors, keyZodErrors } from './key-form.js';
import { keyShownOnceView } from './key-shown-once-view.js';

/** A new key: its form (GET /keys/new), and its creation (POST /keys), the key shown once. */
export function registerKeyCreate(kit: PanelKit): void {
  const { merchantKeys } = kit.services;

  kit.page('/keys/new', async (request, reply, ctx) => {
    const body = await keyFormPage(kit.services, ctx, {
      action: `${PANEL_PREFIX}/keys`,
      values: { name: '', permissions: [], places: 'all', expires_on: defaultExpiry(kit.services) },
      errors: {},
      submit: ctx.t('createButton'),
      title: ctx.t('createTitle'),
    });
    return kit.send(request, reply, ctx, ctx.t('createTitle'), body);
  });

  kit.action<{ Body: Record<string, unknown> }>('/keys', async (request, reply, ctx) => {
    const values = keyFormOf(request.body);
    const again = (errors: Record<string, string>) =>
      keyFormPage(kit.services, ctx, {
        action: `${PANEL_PREFIX}/keys`,
        values,
        errors,
        submit: ctx.t('createButton'),
        title: ctx.t('createTitle'),
      }).then((body) => kit.send(request, reply, ctx, ctx.t('createTitle'), body, { status: 422 }));
    const parsed = keyCreateInput.safeParse({
      ...values,
      expires_on: values.expires_on === '' ? undefined : values.expires_on,
    });
    if (!parsed.success) return again(keyZodErrors(parsed.error.issues));
    const created = await merchantKeys.create(ctx.user.accountId, parsed.data, ctx.actor);
    if (!created.ok) return again(keyRefusalErrors(created, ctx));
    return kit.send(
      request,
      reply,
      ctx,
      ctx.t('createdTitle'),
      keyShownOnceView(
        ctx,
        created.key,
        ctx.t('createdTitle'),
        html`<p>${ctx.t('colValidity')}: ${formatInstant(created.expiresAt, ctx.locale)} (UTC-03:00)</p>`,
      ),
    );
  });
}
