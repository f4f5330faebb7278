import type { PosEvent } from '../../../../pos/places/event-repository.js';
import { html, type SafeHtml } from '../../../../web/html.js';
import type { ConsoleKit } from '../../../console-kit.js';
import { CONSOLE_PREFIX } from '../../../console-path.js';
import { activeBadge, instantText, placePath } from '../accounts-view.js';
import type { PlaceParams } from './place-forms.js';
import { placeViews } from './place-views.js';

// A place and its events (GET /console/accounts/:account/places/:place).

export function registerPlacePage(kit: ConsoleKit): void {
  const { posData } = kit.services;
  const { crumbs } = placeViews(kit);

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
}
