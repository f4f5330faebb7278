import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../../../errors/refusals.js';
import type { PosAccount } from '../../../../pos/places/account-repository.js';
import type { PosEvent } from '../../../../pos/places/event-repository.js';
import type { PosPlace } from '../../../../pos/places/place-repository.js';
import { eventInput } from '../../../../pos/places/pos-data-input.js';
import {
  errorSummary,
  problemFormErrors,
  textField,
  checkboxField,
  zodFormErrors,
  type FormErrors,
} from '../../../../web/form.js';
import { html } from '../../../../web/html.js';
import { csrfField } from '../../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../../console-kit.js';
import { CONSOLE_PREFIX } from '../../../console-path.js';
import { placePath } from '../accounts-view.js';
import { type EventForm, eventBody } from './place-forms.js';
import { placeViews } from './place-views.js';
import { posDataOutcomeValue } from '../../../../pos/places/pos-data-refusal.js';

// The event pages' form (GET and refused POST), the place and event of a path, and the write of an
// event's form.

/** The event pages' replies, for this kit. */
export function eventViews(kit: ConsoleKit) {
  const { posData } = kit.services;
  const { crumbs } = placeViews(kit);

  const eventFormPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    where: { account: PosAccount; place: PosPlace },
    event: PosEvent | null,
    values: EventForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const { account, place } = where;
    const labels = {
      id: t('colIdentifier'),
      name: t('colName'),
      starts_at: t('accStartsAt'),
      ends_at: t('accEndsAt'),
      active: t('accEventActiveLabel'),
    };
    const title = event === null ? t('accNewEventTitle') : t('accEditEventTitle', { name: event.name });
    const action = `${CONSOLE_PREFIX}${placePath(
      account.id,
      place.id,
      event === null ? '/events/new-event' : `/events/${encodeURIComponent(event.id)}/edit`,
    )}`;
    const body = html`${crumbs(ctx, account, place)}
      <h1>${title}</h1>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        ${
          event === null
            ? textField({
                name: 'id',
                label: labels.id,
                value: values.id,
                hint: t('accEventIdHint'),
                error: errors.id,
                required: true,
              })
            : html`<p>${labels.id}: <span class="mono">${event.id}</span></p>`
        }
        ${textField({
          name: 'name',
          label: labels.name,
          value: values.name,
          hint: t('accEventNameHint'),
          error: errors.name,
          required: true,
        })}
        ${textField({
          name: 'starts_at',
          label: labels.starts_at,
          value: values.starts_at,
          hint: t('accInstantHint'),
          error: errors.starts_at,
        })}
        ${textField({
          name: 'ends_at',
          label: labels.ends_at,
          value: values.ends_at,
          hint: t('accInstantHint'),
          error: errors.ends_at,
        })}
        ${checkboxField({
          name: 'active',
          label: labels.active,
          checked: values.active,
          error: errors.active,
        })}
        <div class="actions">
          <button type="submit">${event === null ? t('accCreateButton') : t('accSaveButton')}</button>
          <a href="${CONSOLE_PREFIX}${placePath(account.id, place.id)}">${t('accCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  const placeOf = async (params: { account: string; place: string }) => {
    const account = await posData.account(params.account);
    return { account, place: await posData.place(account.id, params.place) };
  };

  const eventOf = async (where: { account: PosAccount; place: PosPlace }, id: string) => {
    const found = (await posData.listEvents(where.account.id, where.place.id)).find((e) => e.id === id);
    if (found === undefined) throw notFound(`event "${id}" in place "${where.place.id}"`);
    return found;
  };

  /** Writes an event, records it, and goes back to its place; a refusal is shown on the form. */
  const saveEvent = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    where: { account: PosAccount; place: PosPlace },
    existing: PosEvent | null,
    values: EventForm,
    idErrors: FormErrors = {},
  ) => {
    const parsed = eventInput.safeParse(eventBody(values));
    const errors = { ...idErrors, ...(parsed.success ? {} : zodFormErrors(parsed.error)) };
    if (!parsed.success || Object.keys(errors).length > 0) {
      return eventFormPage(request, reply, ctx, where, existing, values, errors, 422);
    }
    const { account, place } = where;
    try {
      const { created, event } = posDataOutcomeValue(
        await posData.putEvent(account.id, place.id, values.id, parsed.data),
      );
      await kit.record(ctx, {
        action: 'putPosEvent',
        target: `pos/accounts/${account.id}/places/${place.id}/events/${event.id}`,
        details: { created, body: eventBody(values) },
      });
      kit.flash(request, ctx.t(created ? 'accEventCreated' : 'accEventSaved', { name: event.name }));
      return await kit.redirect(reply, placePath(account.id, place.id));
    } catch (error) {
      const refused = problemFormErrors(error);
      if (refused === null) throw error;
      return eventFormPage(request, reply, ctx, where, existing, values, refused, 422);
    }
  };

  return { crumbs, eventFormPage, placeOf, eventOf, saveEvent };
}
