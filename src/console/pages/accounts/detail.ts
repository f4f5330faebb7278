import { MAX_ACTIVE_KEYS } from '../../../pos/keys/merchant-key-service.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { actorWithChannel } from '../../actor-text.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import {
  accountHref,
  activeBadge,
  historyTable,
  instantText,
  keyPath,
  keyStateHtml,
  lastUseText,
  permissionsText,
  placesText,
  counts,
  type AccountParams,
} from './accounts-view.js';

// An account (GET /console/accounts/:account): its settings, keys, places, panel users and history.

export function registerAccountPage(kit: ConsoleKit): void {
  const { posData, merchantKeys, keyAudit, merchantUsers } = kit.services;

  kit.page<AccountParams>('/accounts/:account', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const account = await posData.account(request.params.account);
    const id = account.id;
    const [keys, history, issued] = await Promise.all([
      merchantKeys.list(id),
      keyAudit.ofAccount(id, { limit: 50 }),
      // Who created each key: the trail's `issued` events of the account (newest first, one page).
      keyAudit.ofAccount(id, { event: ['issued'], limit: 200 }),
    ]);
    const creators = new Map(issued.events.map((event) => [event.keyId, event.actor]));
    const keyNames = new Map(keys.map((key) => [key.id, key.name]));
    const [places, users] = ctx.can('merchants')
      ? await Promise.all([posData.listPlaces(id), merchantUsers.list(id)])
      : [[], []];

    const operatorSections = ctx.can('merchants')
      ? html`<section aria-labelledby="places-title">
            <h2 id="places-title">${t('accPlaces')}</h2>
            <p>
              <a class="button secondary" href="${accountHref(id, '/places/new-place')}"
                >${t('accNewPlace')}</a
              >
            </p>
            ${
              places.length === 0
                ? html`<p>${t('accPlacesEmpty')}</p>`
                : html`<div class="table-wrap">
                    <table class="stack" id="places">
                      <thead>
                        <tr>
                          <th scope="col">${t('colIdentifier')}</th>
                          <th scope="col">${t('colName')}</th>
                          <th scope="col">${t('accTimezone')}</th>
                          <th scope="col">${t('colState')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${places.map(
                          (place) =>
                            html`<tr data-place="${place.id}">
                              <td data-label="${t('colIdentifier')}">
                                <a href="${accountHref(id, `/places/${encodeURIComponent(place.id)}`)}"
                                  >${place.id}</a
                                >
                              </td>
                              <td data-label="${t('colName')}">${place.name ?? '—'}</td>
                              <td data-label="${t('accTimezone')}">${place.timezone}</td>
                              <td data-label="${t('colState')}">${activeBadge(t, place.active)}</td>
                            </tr>`,
                        )}
                      </tbody>
                    </table>
                  </div>`
            }
          </section>
          <section aria-labelledby="users-title">
            <h2 id="users-title">${t('accUsers')}</h2>
            <p>
              ${t('accUsersCount', { count: users.length, active: users.filter((u) => u.active).length })}
            </p>
            <p><a class="button secondary" href="${accountHref(id, '/users')}">${t('accUsersOpen')}</a></p>
          </section>`
      : '';
    const receiptsSection = ctx.can('receipts')
      ? html`<section aria-labelledby="receipts-title">
          <h2 id="receipts-title">${t('accReceipts')}</h2>
          <p>${t('accReceiptsIntro')}</p>
          <p>
            <a class="button secondary" href="${accountHref(id, '/receipts')}">${t('accReceiptsOpen')}</a>
          </p>
        </section>`
      : '';

    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> › ${account.name}
      </p>
      <h1>${t('accTitle', { name: account.name })}</h1>
      <div class="card">
        <dl>
          <dt>${t('colIdentifier')}</dt>
          <dd class="mono">${id}</dd>
          <dt>${t('colName')}</dt>
          <dd>${account.name}</dd>
          <dt>${t('email')}</dt>
          <dd>${account.email ?? t('accNoEmail')}</dd>
          <dt>${t('accCurrency')}</dt>
          <dd>${account.currency}</dd>
          <dt>${t('colState')}</dt>
          <dd>${activeBadge(t, account.active)}</dd>
        </dl>
        <div class="actions">
          ${
            ctx.can('merchants')
              ? html`<a class="button secondary" href="${accountHref(id, '/edit')}">${t('accEdit')}</a>`
              : ''
          }
          ${
            ctx.can('readRefusals')
              ? html`<a class="button secondary" href="${accountHref(id, '/refusals')}"
                  >${t('accRefusalsOpen')}</a
                >`
              : ''
          }
        </div>
      </div>
      <h2>${t('accKeys')}</h2>
      <p>${t('accKeysCount', { active: keys.filter(counts).length, max: MAX_ACTIVE_KEYS })}</p>
      ${keysTable(ctx, id, keys, (key) => {
        const actor = creators.get(key.id);
        return actor === undefined ? '—' : actorWithChannel(t, actor);
      })}
      <h2>${t('accHistory')}</h2>
      <p class="hint">${t('accHistoryHint')}</p>
      ${historyTable(t, locale, history.events, { account: id, keyNames })} ${operatorSections}
      ${receiptsSection}`;
    return kit.send(request, reply, ctx, t('accTitle', { name: account.name }), body);
  });
}

/** An account's keys: name, permissions, places, validity, state, last uses, who created each. */
function keysTable(
  ctx: StaffContext,
  account: string,
  keys: readonly PosKey[],
  creator: (key: PosKey) => string,
): SafeHtml {
  const { t, locale } = ctx;
  if (keys.length === 0) return html`<p>${t('accKeysEmpty')}</p>`;
  return html`<div class="table-wrap">
    <table class="stack" id="keys">
      <thead>
        <tr>
          <th scope="col">${t('colName')}</th>
          <th scope="col">${t('accColPermissions')}</th>
          <th scope="col">${t('accColPlaces')}</th>
          <th scope="col">${t('accColValidity')}</th>
          <th scope="col">${t('colState')}</th>
          <th scope="col">${t('accColLastUse')}</th>
          <th scope="col">${t('accColPreviousLastUse')}</th>
          <th scope="col">${t('accColCreatedBy')}</th>
        </tr>
      </thead>
      <tbody>
        ${keys.map(
          (key) =>
            html`<tr data-key="${key.id}" data-state="${key.state}">
              <td data-label="${t('colName')}">
                <a href="${CONSOLE_PREFIX}${keyPath(account, key.id)}">${key.name}</a>
              </td>
              <td data-label="${t('accColPermissions')}">${permissionsText(t, key)}</td>
              <td data-label="${t('accColPlaces')}">${placesText(t, key)}</td>
              <td data-label="${t('accColValidity')}">${instantText(key.expiresAt, locale)}</td>
              <td data-label="${t('colState')}">${keyStateHtml(t, key, locale)}</td>
              <td data-label="${t('accColLastUse')}">${lastUseText(t, key.lastUsedAt, locale)}</td>
              <td data-label="${t('accColPreviousLastUse')}">
                ${key.previousValidUntil === null ? '—' : lastUseText(t, key.previousKeyLastUsedAt, locale)}
              </td>
              <td data-label="${t('accColCreatedBy')}">${creator(key)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
