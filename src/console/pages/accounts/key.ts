import { html } from '../../../web/html.js';
import { actorWithChannel } from '../../actor-text.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import {
  accountHref,
  historyTable,
  instantText,
  keyPath,
  keyStateHtml,
  lastUseText,
  permissionsText,
  placesText,
  type KeyParams,
} from './accounts-view.js';

// A key of an account (GET /console/accounts/:account/keys/:id): its settings, state and history.

export function registerAccountKeyPage(kit: ConsoleKit): void {
  const { posData, merchantKeys, keyAudit } = kit.services;

  kit.page<KeyParams>('/accounts/:account/keys/:id', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const account = await posData.account(request.params.account);
    const key = await merchantKeys.get(account.id, request.params.id);
    // The key's history from the audit trail, newest first (the latest 50 events).
    const history = (await keyAudit.ofMerchantKey(account.id, key.id, { limit: 50 })).events;
    const created = history.find((event) => event.event === 'issued');
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a> › ${key.name}
      </p>
      <h1>${t('accKeyTitle', { name: key.name })}</h1>
      <div class="card">
        <dl>
          <dt>${t('colState')}</dt>
          <dd>${keyStateHtml(t, key, locale)}</dd>
          <dt>${t('accKeyId')}</dt>
          <dd class="mono">${key.id}</dd>
          <dt>${t('accColPermissions')}</dt>
          <dd>${permissionsText(t, key)}</dd>
          <dt>${t('accColPlaces')}</dt>
          <dd>${placesText(t, key)}</dd>
          <dt>${t('accColValidity')}</dt>
          <dd>${instantText(key.expiresAt, locale)}</dd>
          <dt>${t('accColLastUse')}</dt>
          <dd>${lastUseText(t, key.lastUsedAt, locale)}</dd>
          ${
            key.previousValidUntil === null
              ? ''
              : html`<dt>${t('accColPreviousLastUse')}</dt>
                  <dd>${lastUseText(t, key.previousKeyLastUsedAt, locale)}</dd>`
          }
          <dt>${t('accColCreatedBy')}</dt>
          <dd>${created === undefined ? '—' : actorWithChannel(t, created.actor)}</dd>
        </dl>
        ${
          ctx.can('revokeMerchantKey') && key.state !== 'revoked'
            ? html`<div class="actions">
                <a class="button secondary" href="${CONSOLE_PREFIX}${keyPath(account.id, key.id, '/revoke')}"
                  >${t('accRevoke')}</a
                >
              </div>`
            : ''
        }
      </div>
      ${
        ctx.can('readRefusals')
          ? html`<p>
              <a href="${accountHref(account.id, '/refusals')}?key=${encodeURIComponent(key.id)}"
                >${t('accKeyRefusals')}</a
              >
            </p>`
          : ''
      }
      <h2>${t('accKeyHistory')}</h2>
      ${historyTable(t, locale, history, { account: account.id })}
      <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
    return kit.send(request, reply, ctx, t('accKeyTitle', { name: key.name }), body);
  });
}
