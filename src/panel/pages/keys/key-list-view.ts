import type { Actor } from '../../../audit/actor.js';
import { MAX_ACTIVE_KEYS } from '../../../pos/keys/merchant-key-service.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { PANEL_PREFIX, type PanelContext } from '../../panel-kit.js';
import { actorText, keyUrl, lastUseText, permissionsText, stateText } from './key-words.js';

// The account's keys ("Opções da conta > Integrações > Chaves de API"): how many are active of the most
// allowed, a warning near the limit, and each key's permissions, places, validity, state, last use and
// who created it.

/** What the key list shows. */
export interface KeyListView {
  keys: readonly PosKey[];
  /** Keys active or paused, which count towards the limit. */
  active: number;
  /** Who created each key, by its id, as the audit trail recorded it. */
  creators: ReadonlyMap<string, Actor>;
}

/** The key list page's body. */
export function keyListView(ctx: PanelContext, view: KeyListView): SafeHtml {
  const { keys, active } = view;
  const left = MAX_ACTIVE_KEYS - active;
  const t = ctx.t;
  const placeText = (key: PosKey) => (key.places === 'all' ? t('allPlaces') : key.places.join(', '));
  const creatorText = (id: string) => {
    const actor = view.creators.get(id);
    return actor === undefined ? t('notRecorded') : actorText(t, actor);
  };
  return html` <p class="crumbs">${t('keysBreadcrumb')}</p>
    <h1>${t('keysTitle')}</h1>
    <p>${t('keysIntro')}</p>
    <p>${t('keysCount', { active, max: MAX_ACTIVE_KEYS })}</p>
    ${left <= 0 ? html`<div class="warning" role="status">${t('keysAtLimit', { max: MAX_ACTIVE_KEYS })}</div>` : left <= 3 ? html`<div class="warning" role="status">${t('keysNearLimit', { left, max: MAX_ACTIVE_KEYS })}</div>` : ''}
    ${left > 0 ? html`<p><a class="button" href="${PANEL_PREFIX}/keys/new">${t('newKey')}</a></p>` : ''}
    ${keys.length === 0 ? '' : html`<p><a href="${PANEL_PREFIX}/keys/refusals">${t('refusalsAllLink')}</a></p>`}
    ${
      keys.length === 0
        ? html`<p>${t('keysEmpty')}</p>`
        : html`<div class="table-wrap">
            <table class="stack">
              <thead>
                <tr>
                  <th scope="col">${t('colName')}</th>
                  <th scope="col">${t('colPermissions')}</th>
                  <th scope="col">${t('colPlaces')}</th>
                  <th scope="col">${t('colValidity')}</th>
                  <th scope="col">${t('colState')}</th>
                  <th scope="col">${t('colLastUse')}</th>
                  <th scope="col">${t('colCreatedBy')}</th>
                </tr>
              </thead>
              <tbody>
                ${keys.map(
                  (key) =>
                    html`<tr>
                      <td data-label="${t('colName')}"><a href="${keyUrl(key.id)}">${key.name}</a></td>
                      <td data-label="${t('colPermissions')}">${permissionsText(t, key)}</td>
                      <td data-label="${t('colPlaces')}">${placeText(key)}</td>
                      <td data-label="${t('colValidity')}">${formatInstant(key.expiresAt, ctx.locale)}</td>
                      <td data-label="${t('colState')}">${stateText(t, key, ctx.locale)}</td>
                      <td data-label="${t('colLastUse')}">${lastUseText(t, key.lastUsedAt, ctx.locale)}</td>
                      <td data-label="${t('colCreatedBy')}">${creatorText(key.id)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
    }`;
}
