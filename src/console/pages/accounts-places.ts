import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../errors/problem.js';
import { notFound } from '../../errors/refusals.js';
import type { PosAccount } from '../../pos/places/account-repository.js';
import type { PosEvent } from '../../pos/places/event-repository.js';
import type { PosPlace } from '../../pos/places/place-repository.js';
import { eventInput, identifier, placeInput } from '../../pos/places/pos-data-input.js';
import { formText } from '../../web/face.js';
import {
  checkboxField,
  errorSummary,
  problemFormErrors,
  selectField,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../web/form.js';
import { html, type SafeHtml } from '../../web/html.js';
import { csrfField } from '../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';
import { accountHref, activeBadge, instantInput, instantText, placePath } from './accounts-view.js';

// An account's places and each place's events, for the operator (routes: accounts.ts): the admin API's
// PUT bodies (src/pos/places/pos-data-input.ts) checked by their own schemas, written through the same service,
// and recorded in the back-office log as `putPosPlace`, `putPosEvent` and `deletePosEvent`. Creating
// refuses an id that is taken, where the API's PUT would replace it.

interface PlaceParams {
  Params: { account: string; place: string };
}
interface EventParams {
  Params: { account: string; place: string; id: string };
}
interface FormBody {
  Body: Record<string, unknown>;
}

/** The place form as typed; `active` is '' (not stated), 'true' or 'false'. */
interface PlaceForm {
  id: string;
  name: string;
  timezone: string;
  active: string;
}

/** The event form as typed: instants as the admin API takes them, empty for none. */
interface EventForm {
  id: string;
  name: string;
  starts_at: string;
  ends_at: string;
  active: boolean;
}

/** The admin API's place body of the form: an empty name is none; a state not stated is null. */
function placeBody(form: PlaceForm) {
  return {
    name: form.name.trim() === '' ? null : form.name,
    timezone: form.timezone.trim(),
    active: form.active === '' ? null : form.active === 'true',
  };
}

/** The admin API's event body of the form; a new event is registered now, an edited one keeps its instant. */
function eventBody(form: EventForm) {
  const instant = (text: string) => (text.trim() === '' ? null : text.trim());
  return {
    name: form.name,
    starts_at: instant(form.starts_at),
    ends_at: instant(form.ends_at),
    active: form.active,
  };
}

/** Whether a lookup found its thing (a 404 Problem is "no"; any other failure is thrown). */
async function exists(lookup: Promise<unknown>): Promise<boolean> {
  try {
    await lookup;
    return true;
  } catch (error) {
    if (error instanceof Problem && error.status === 404) return false;
    throw error;
  }
}

/** Registers the place and event pages. */
export function registerAccountPlacePages(kit: ConsoleKit): void {
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

  const placeForm = (body: Record<string, unknown>, id: string): PlaceForm => ({
    id,
    name: formText(body.name),
    timezone: formText(body.timezone),
    active: ['true', 'false'].includes(formText(body.active)) ? formText(body.active) : '',
  });

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
      const { created, place } = await posData.putPlace(account.id, values.id, parsed.data);
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

  /** The place fields' own errors, shown with the id's so that one post names every field at fault. */
  const checkPlace = (values: PlaceForm): FormErrors => {
    const parsed = placeInput.safeParse(placeBody(values));
    return parsed.success ? {} : zodFormErrors(parsed.error);
  };

  kit.page<PlaceParams>('/accounts/:account/places/:place', 'merchants', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const account = await posData.account(request.params.account);
    const place = await posData.place(account.id, request.params.place);
    const events = await posData.listEvents(account.id, place.id);
    const when = (ms: number | null) => (ms === null ? '—' : instantText(ms, locale));
    const eventTable = (list: readonly PosEvent[]): SafeHtml =>
      list.length === 0
        ? html`<p>${t('accEventsEmpty')}</p>`
        : html`<div class="table-wrap">
            <table class="stack" id="events">
              <thead>
                <tr>
                  <th scope="col">${t('colIdentifier')}</th>
                  <th scope="col">${t('colName')}</th>
                  <th scope="col">${t('accStartsAt')}</th>
                  <th scope="col">${t('accEndsAt')}</th>
                  <th scope="col">${t('colState')}</th>
                  <th scope="col">${t('accRegisteredAt')}</th>
                  <th scope="col">${t('accColActions')}</th>
                </tr>
              </thead>
              <tbody>
                ${list.map(
                  (event) =>
                    html`<tr data-event="${event.id}">
                      <td data-label="${t('colIdentifier')}"><span class="mono">${event.id}</span></td>
                      <td data-label="${t('colName')}">${event.name}</td>
                      <td data-label="${t('accStartsAt')}">${when(event.startsAt)}</td>
                      <td data-label="${t('accEndsAt')}">${when(event.endsAt)}</td>
                      <td data-label="${t('colState')}">${activeBadge(t, event.active)}</td>
                      <td data-label="${t('accRegisteredAt')}">${when(event.registeredAt)}</td>
                      <td data-label="${t('accColActions')}">
                        <span>
                          <a
                            href="${CONSOLE_PREFIX}${placePath(account.id, place.id, `/events/${encodeURIComponent(event.id)}/edit`)}"
                            aria-label="${t('accEditEventLabel', { name: event.name })}"
                            >${t('accEdit')}</a
                          >
                          ·
                          <a
                            href="${CONSOLE_PREFIX}${placePath(account.id, place.id, `/events/${encodeURIComponent(event.id)}/delete`)}"
                            aria-label="${t('accDeleteEventLabel', { name: event.name })}"
                            >${t('accDelete')}</a
                          >
                        </span>
                      </td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
    const title = t('accPlaceTitle', { name: place.name ?? place.id });
    const body = html`${crumbs(ctx, account)}
      <h1>${title}</h1>
      <div class="card">
        <dl>
          <dt>${t('colIdentifier')}</dt>
          <dd class="mono">${place.id}</dd>
          <dt>${t('colName')}</dt>
          <dd>${place.name ?? '—'}</dd>
          <dt>${t('accTimezone')}</dt>
          <dd>${place.timezone}</dd>
          <dt>${t('colState')}</dt>
          <dd>${activeBadge(t, place.active)}</dd>
        </dl>
        <div class="actions">
          <a class="button secondary" href="${CONSOLE_PREFIX}${placePath(account.id, place.id, '/edit')}"
            >${t('accEditPlace')}</a
          >
        </div>
      </div>
      <h2>${t('accEvents')}</h2>
      <p class="hint">${t('accTimesHint')}</p>
      <p>
        <a
          class="button secondary"
          href="${CONSOLE_PREFIX}${placePath(account.id, place.id, '/events/new-event')}"
          >${t('accNewEvent')}</a
        >
      </p>
      ${eventTable(events)}`;
    return kit.send(request, reply, ctx, title, body);
  });

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

  // ---- Events ----

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

  const eventForm = (body: Record<string, unknown>, id: string): EventForm => ({
    id,
    name: formText(body.name),
    starts_at: formText(body.starts_at),
    ends_at: formText(body.ends_at),
    active: body.active === 'true',
  });

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
      const { created, event } = await posData.putEvent(account.id, place.id, values.id, parsed.data);
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
      await posData.deleteEvent(account.id, place.id, event.id);
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
