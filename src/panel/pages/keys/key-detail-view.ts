import type { KeyAuditEvent } from '../../../audit/key-audit-repository.js';
import type { PosKey } from '../../../pos/keys/merchant-key.js';
import { formatInstant } from '../../../web/format.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { KEY_EVENT_MESSAGES } from '../../../web/key-events.js';
import { keyHistoryTable } from '../../../web/key-history.js';
import { csrfField } from '../../../web/layout.js';
import { PANEL_PREFIX, type PanelContext } from '../../panel-kit.js';
import { actorText, keyUrl, lastUseText, permissionsText, stateText } from './key-words.js';

// A key's page: its state, permissions, places, validity, last use and creator, the actions its state
// allows (edit, roll, pause or reactivate, revoke), and its history.

/** The key's page body, with its history newest first. */
export function keyDetailView(ctx: PanelContext, key: PosKey, history: readonly KeyAuditEvent[]): SafeHtml {
  const t = ctx.t;
  const live = key.state !== 'revoked';
  const created = history.find((event) => event.event === 'issued');
  const action = (path: string, label: string, cls = 'secondary') =>
    html`<form method="post" action="${keyUrl(key.id, path)}" class="inline">
      ${csrfField(ctx.csrf)}<button type="submit" class="${cls}">${label}</button>
    </form>`;
  return html` <p class="crumbs">${t('keysBreadcrumb')}</p>
    <h1>${t('keyTitle', { name: key.name })}</h1>
    <div class="card">
      <dl>
        <dt>${t('colState')}</dt>
        <dd>${stateText(t, key, ctx.locale)}</dd>
        <dt>${t('colPermissions')}</dt>
        <dd>${permissionsText(t, key)}</dd>
        <dt>${t('colPlaces')}</dt>
        <dd>${key.places === 'all' ? t('placesAll') : key.places.join(', ')}</dd>
        <dt>${t('colValidity')}</dt>
        <dd>${formatInstant(key.expiresAt, ctx.locale)} (UTC-03:00)</dd>
        <dt>${t('colLastUse')}</dt>
        <dd>${lastUseText(t, key.lastUsedAt, ctx.locale)}</dd>
        ${
          key.previousValidUntil === null
            ? ''
            : html`<dt>${t('previousLastUse')}</dt>
                <dd>${lastUseText(t, key.previousKeyLastUsedAt, ctx.locale)}</dd>`
        }
        <dt>${t('colCreatedBy')}</dt>
        <dd>${created === undefined ? t('notRecorded') : actorText(t, created.actor)}</dd>
      </dl>
      ${
        live
          ? html`<div class="actions" role="group" aria-label="${t('actions')}">
              <a class="button secondary" href="${keyUrl(key.id, '/edit')}">${t('edit')}</a>
              ${key.state === 'expired' ? '' : html`<a class="button secondary" href="${keyUrl(key.id, '/rotate')}">${t('rotate')}</a>`}
              ${key.paused ? action('/reactivate', t('reactivate')) : key.state === 'expired' ? '' : action('/pause', t('pause'))}
              <a class="button secondary" href="${keyUrl(key.id, '/revoke')}">${t('revoke')}</a>
            </div>`
          : ''
      }
    </div>
    <p><a href="${keyUrl(key.id, '/refusals')}">${t('refusalsLink')}</a></p>
    <h2>${t('history')}</h2>
    ${keyHistoryTable(history, {
      empty: t('historyEmpty'),
      columns: [
        { label: t('historyWhen'), cell: (event) => formatInstant(event.occurredAt, ctx.locale) },
        { label: t('historyWhat'), cell: (event) => t(KEY_EVENT_MESSAGES[event.event]) },
        { label: t('historyWho'), cell: (event) => actorText(t, event.actor) },
      ],
    })}
    <p><a href="${PANEL_PREFIX}/keys">${t('backHome')}</a></p>`;
}
