import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PosAccount } from '../../../../pos/places/account-repository.js';
import type { PosPlace } from '../../../../pos/places/place-repository.js';
import { placeInput } from '../../../../pos/places/pos-data-input.js';
import {
  errorSummary,
  problemFormErrors,
  selectField,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../../../web/form.js';
import { html } from '../../../../web/html.js';
import { csrfField } from '../../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../../console-kit.js';
import { CONSOLE_PREFIX } from '../../../console-path.js';
import { accountHref, placePath } from '../accounts-view.js';
import { type PlaceForm, placeBody } from './place-forms.js';
import { posDataOutcomeValue } from '../../../../pos/places/pos-data-refusal.js';

// The place pages' crumbs and form (GET and refused POST), and the write of a place's form.

/** The place pages' replies, for this kit. */
export function placeViews(kit: ConsoleKit) {
  const { posData } = kit.services;

  const crumbs = (ctx: StaffContext, account: PosAccount, place?: PosPlace) =>
    html`<p class="crumbs">
      <a href="${CONSOLE_PREFIX}/accounts">${ctx.t('accListTitle')}</a> ›
      <a href="${accountHref(account.id)}">${account.name}</a>
      ${
        place === undefined
          ? ''
          : html` ›
              <a href="${CONSOLE_PREFIX}${placePath(account.id, place.id)}">${place.name ?? place.id}</a>`
      }
    </p>`;

  // ---- Places ----

  const placeFormPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    account: PosAccount,
    place: PosPlace | null,
    values: PlaceForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const labels = {
      id: t('colIdentifier'),
      name: t('colName'),
      timezone: t('accTimezone'),
      active: t('colState'),
    };
    const title =
      place === null ? t('accNewPlaceTitle') : t('accEditPlaceTitle', { name: place.name ?? place.id });
    const action =
      place === null
        ? accountHref(account.id, '/places/new-place')
        : `${CONSOLE_PREFIX}${placePath(account.id, place.id, '/edit')}`;
    const body = html`${crumbs(ctx, account, place ?? undefined)}
      <h1>${title}</h1>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        ${
          place === null
            ? textField({
                name: 'id',
                label: labels.id,
                value: values.id,
                hint: t('accPlaceIdHint'),
                error: errors.id,
                required: true,
              })
            : html`<p>${labels.id}: <span class="mono">${place.id}</span></p>`
        }
        ${textField({
          name: 'name',
          label: labels.name,
          value: values.name,
          hint: t('accPlaceNameHint'),
          error: errors.name,
        })}
        ${textField({
          name: 'timezone',
          label: labels.timezone,
          value: values.timezone,
          hint: t('accTimezoneHint'),
          error: errors.timezone,
          required: true,
        })}
        ${selectField({
          name: 'active',
          label: labels.active,
          value: values.active,
          options: [
            { value: '', label: t('accNotStated') },
            { value: 'true', label: t('active') },
            { value: 'false', label: t('inactive') },
          ],
          hint: t('accPlaceActiveHint'),
          error: errors.active,
        })}
        <div class="actions">
          <button type="submit">${place === null ? t('accCreateButton') : t('accSaveButton')}</button>
          <a
            href="${
              place === null ? accountHref(account.id) : `${CONSOLE_PREFIX}${placePath(account.id, place.id)}`
            }"
            >${t('accCancel')}</a
          >
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  /** Writes a place, records it, and goes to its page; a refusal of the service is shown on the form. */
  const savePlace = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    account: PosAccount,
    existing: PosPlace | null,
    values: PlaceForm,
  ) => {
    const parsed = placeInput.safeParse(placeBody(values));
    if (!parsed.success) {
      return placeFormPage(request, reply, ctx, account, existing, values, zodFormErrors(parsed.error), 422);
    }
    try {
      const { created, place } = posDataOutcomeValue(
        await posData.putPlace(account.id, values.id, parsed.data),
      );
      await kit.record(ctx, {
        action: 'putPosPlace',
        target: `pos/accounts/${account.id}/places/${place.id}`,
        details: { created, body: placeBody(values) },
      });
      kit.flash(
        request,
        ctx.t(created ? 'accPlaceCreated' : 'accPlaceSaved', { name: place.name ?? place.id }),
      );
      return await kit.redirect(reply, placePath(account.id, place.id));
    } catch (error) {
      const errors = problemFormErrors(error);
      if (errors === null) throw error;
      return placeFormPage(request, reply, ctx, account, existing, values, errors, 422);
    }
  };

  return { crumbs, placeFormPage, savePlace };
}
