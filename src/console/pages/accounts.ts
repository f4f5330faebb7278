import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { keyRevokeReason } from '../../pos/keys/merchant-key-input.js';
import { MAX_ACTIVE_KEYS } from '../../pos/keys/merchant-key-service.js';
import type { PosKey } from '../../pos/keys/merchant-key.js';
import { REFUSALS_KEPT, type Refusal } from '../../observability/refusal-log.js';
import { formText } from '../../web/face.js';
import { formatInstant, formatTimeOfDay } from '../../web/format.js';
import { errorSummary, textField, zodFormErrors, type FormErrors } from '../../web/form.js';
import { html, type SafeHtml } from '../../web/html.js';
import { csrfField } from '../../web/layout.js';
import { actorWithChannel } from '../actor-text.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';
import { registerAccountEditPages } from './accounts-edit.js';
import { registerAccountPlacePages } from './accounts-places.js';
import { registerAccountReceiptPages } from './accounts-receipts.js';
import { registerAccountUserPages } from './accounts-users.js';
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
} from './accounts-view.js';

// The merchants of the point of sale in the console (issue 14): support finds an account, reads its
// keys (never a key or a hash), their states, last use and history, revokes a leaked key with a reason
// kept in the key audit trail, and reads the account's last refusals; the operator also manages the
// account, its places, events and panel users, and ingests receipts from a file (accounts-*.ts).
//
// Routes (under /console):
//   GET  /accounts                                          read
//   GET  /accounts/:account                                 read
//   GET  /accounts/:account/keys/:id                        read
//   GET  /accounts/:account/keys/:id/revoke                 revokeMerchantKey
//   POST /accounts/:account/keys/:id/revoke                 revokeMerchantKey
//   GET  /accounts/:account/refusals                        readRefusals
//   GET  /accounts/new-account                              merchants   (accounts-edit.ts)
//   POST /accounts/new-account                              merchants
//   GET  /accounts/:account/edit                            merchants
//   POST /accounts/:account/edit                            merchants
//   GET  /accounts/:account/places/new-place                merchants   (accounts-places.ts)
//   POST /accounts/:account/places/new-place                merchants
//   GET  /accounts/:account/places/:place                   merchants   (the place and its events)
//   GET  /accounts/:account/places/:place/edit              merchants
//   POST /accounts/:account/places/:place/edit              merchants
//   GET  /accounts/:account/places/:place/events/new-event  merchants
//   POST /accounts/:account/places/:place/events/new-event  merchants
//   GET  /accounts/:account/places/:place/events/:id/edit   merchants
//   POST /accounts/:account/places/:place/events/:id/edit   merchants
//   GET  /accounts/:account/places/:place/events/:id/delete merchants
//   POST /accounts/:account/places/:place/events/:id/delete merchants
//   GET  /accounts/:account/users                           merchants   (accounts-users.ts)
//   POST /accounts/:account/users                           merchants
//   GET  /accounts/:account/receipts                        receipts    (accounts-receipts.ts)
//   POST /accounts/:account/receipts                        receipts    (the file as the body; JSON answer)
//
// The pages that create something sit at a name with a hyphen (`new-account`), which no identifier of
// the point of sale can have (^[A-Za-z0-9]{1,64}$): an account, place or event is never hidden by them.

interface AccountParams {
  Params: { account: string };
}
interface KeyParams {
  Params: { account: string; id: string };
}

/** Active keys count against the account's limit: not revoked and not expired (a paused key counts). */
const counts = (key: PosKey) => key.state === 'active' || key.state === 'paused';

/** Registers the merchant pages. */
export function registerAccountPages(kit: ConsoleKit): void {
  registerAccountReadPages(kit);
  registerRevokePages(kit);
  registerAccountEditPages(kit);
  registerAccountPlacePages(kit);
  registerAccountUserPages(kit);
  registerAccountReceiptPages(kit);
}

function registerAccountReadPages(kit: ConsoleKit): void {
  const { services } = kit;
  const { posData, merchantKeys, keyAudit, merchantUsers } = services;

  kit.page<{ Querystring: { q?: string } }>('/accounts', 'read', async (request, reply, ctx) => {
    const { t } = ctx;
    const q = formText(request.query.q).trim().slice(0, 100);
    const needle = q.toLowerCase();
    const [accounts, keys] = await Promise.all([posData.listAccounts(), merchantKeys.listAll({})]);
    const active = new Map<string, number>();
    for (const key of keys.filter(counts)) active.set(key.accountId, (active.get(key.accountId) ?? 0) + 1);
    const shown =
      q === ''
        ? accounts
        : accounts.filter((a) =>
            [a.id, a.name, a.email ?? ''].some((text) => text.toLowerCase().includes(needle)),
          );
    const body = html`<h1>${t('accListTitle')}</h1>
      ${
        ctx.can('merchants')
          ? html`<p><a class="button" href="${CONSOLE_PREFIX}/accounts/new-account">${t('accNew')}</a></p>`
          : ''
      }
      <form method="get" action="${CONSOLE_PREFIX}/accounts" role="search" class="card">
        ${textField({ name: 'q', label: t('accFilterLabel'), value: q, hint: t('accFilterHint') })}
        <div class="actions"><button type="submit">${t('accFilterButton')}</button></div>
      </form>
      <p role="status">
        ${
          shown.length === 0
            ? q === ''
              ? t('accListEmpty')
              : t('accListNone', { q })
            : t('accListCount', { count: shown.length })
        }
      </p>
      ${
        shown.length === 0
          ? ''
          : html`<div class="table-wrap">
              <table class="stack" id="accounts">
                <thead>
                  <tr>
                    <th scope="col">${t('colIdentifier')}</th>
                    <th scope="col">${t('colName')}</th>
                    <th scope="col">${t('email')}</th>
                    <th scope="col" class="num">${t('accColActiveKeys')}</th>
                    <th scope="col">${t('colState')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${shown.map(
                    (a) =>
                      html`<tr data-account="${a.id}">
                        <td data-label="${t('colIdentifier')}">
                          <a href="${accountHref(a.id)}">${a.id}</a>
                        </td>
                        <td data-label="${t('colName')}">${a.name}</td>
                        <td data-label="${t('email')}">${a.email ?? '—'}</td>
                        <td class="num" data-label="${t('accColActiveKeys')}">
                          ${String(active.get(a.id) ?? 0)}
                        </td>
                        <td data-label="${t('colState')}">${activeBadge(t, a.active)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`;
    return kit.send(request, reply, ctx, t('accListTitle'), body);
  });

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
      <h2>${t('accKeyHistory')}</h2>
      ${historyTable(t, locale, history, { account: account.id })}
      <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
    return kit.send(request, reply, ctx, t('accKeyTitle', { name: key.name }), body);
  });

  kit.page<AccountParams>('/accounts/:account/refusals', 'readRefusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const account = await posData.account(request.params.account);
    let refusals: Refusal[] | null;
    try {
      refusals = await services.refusals.list({ kind: 'account', id: account.id }, REFUSALS_KEPT);
    } catch {
      // The shared store does not answer (the admin API's 503): say so, and count it as the API does.
      services.metrics.refusalLogFailed();
      refusals = null;
    }
    const keyNames = new Map((await merchantKeys.list(account.id)).map((key) => [key.id, key.name]));
    const when = (at: string) => {
      const ms = Date.parse(at);
      return `${formatInstant(ms, locale).split(' ')[0] ?? ''} ${formatTimeOfDay(ms, true)}`;
    };
    const table = (list: Refusal[]) =>
      html`<div class="table-wrap">
        <table class="stack" id="refusals">
          <thead>
            <tr>
              <th scope="col">${t('accColWhenSeconds')}</th>
              <th scope="col" class="num">${t('accColStatus')}</th>
              <th scope="col">${t('accColCode')}</th>
              <th scope="col">${t('accColOperation')}</th>
              <th scope="col">${t('accColKey')}</th>
              <th scope="col">${t('accColRequestId')}</th>
            </tr>
          </thead>
          <tbody>
            ${list.map(
              (r) =>
                html`<tr data-request-id="${r.request_id}">
                  <td data-label="${t('accColWhenSeconds')}">${when(r.at)}</td>
                  <td class="num" data-label="${t('accColStatus')}">${String(r.status)}</td>
                  <td data-label="${t('accColCode')}"><code>${r.code ?? '—'}</code></td>
                  <td data-label="${t('accColOperation')}"><code>${r.operation}</code></td>
                  <td data-label="${t('accColKey')}">
                    ${
                      r.credential === null
                        ? '—'
                        : html`<a href="${CONSOLE_PREFIX}${keyPath(account.id, r.credential)}"
                            >${keyNames.get(r.credential) ?? r.credential}</a
                          >`
                    }
                  </td>
                  <td data-label="${t('accColRequestId')}"><code>${r.request_id}</code></td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a> › ${t('accRefusals')}
      </p>
      <h1>${t('accRefusalsTitle', { name: account.name })}</h1>
      <p class="hint">${t('accRefusalsIntro', { kept: REFUSALS_KEPT })}</p>
      ${
        refusals === null
          ? html`<div class="error" role="alert">${t('accRefusalsUnavailable')}</div>`
          : refusals.length === 0
            ? html`<p role="status">${t('accRefusalsEmpty')}</p>`
            : html`<p role="status">${t('accRefusalsCount', { count: refusals.length })}</p>
                ${table(refusals)}`
      }
      <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
    return kit.send(request, reply, ctx, t('accRefusalsTitle', { name: account.name }), body, {
      status: refusals === null ? 503 : 200,
    });
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

/** The revocation's form: the reason is required here, and kept in the key's audit event. */
const revokeForm = z.strictObject({ reason: keyRevokeReason });

function registerRevokePages(kit: ConsoleKit): void {
  const { services } = kit;
  const { posData, merchantKeys } = services;

  const revokePage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    params: KeyParams['Params'],
    form: { reason: string; errors: FormErrors; status?: number },
  ) => {
    const { t } = ctx;
    const account = await posData.account(params.account);
    const key = await merchantKeys.get(account.id, params.id);
    if (key.state === 'revoked') {
      kit.flash(request, t('accAlreadyRevoked', { name: key.name }));
      return kit.redirect(reply, keyPath(account.id, key.id));
    }
    const labels = { reason: t('accReason') };
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a> ›
        <a href="${CONSOLE_PREFIX}${keyPath(account.id, key.id)}">${key.name}</a>
      </p>
      <h1>${t('accRevokeTitle', { name: key.name, account: account.name })}</h1>
      ${errorSummary(t('errorsTitle'), form.errors, labels)}
      <form method="post" action="${CONSOLE_PREFIX}${keyPath(account.id, key.id, '/revoke')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>${t('accRevokeIntro', { name: key.name })}</p>
        ${textField({
          name: 'reason',
          label: labels.reason,
          value: form.reason,
          rows: 4,
          hint: t('accReasonHint', { max: 500 }),
          error: form.errors.reason,
          required: true,
        })}
        <div class="actions">
          <button type="submit" class="danger">${t('accRevokeConfirm', { name: key.name })}</button>
          <a href="${CONSOLE_PREFIX}${keyPath(account.id, key.id)}">${t('accCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, t('accRevoke'), body, { status: form.status ?? 200 });
  };

  kit.page<KeyParams>('/accounts/:account/keys/:id/revoke', 'revokeMerchantKey', (request, reply, ctx) =>
    revokePage(request, reply, ctx, request.params, { reason: '', errors: {} }),
  );

  kit.action<KeyParams & { Body: Record<string, unknown> }>(
    '/accounts/:account/keys/:id/revoke',
    'revokeMerchantKey',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const reason = formText(request.body.reason);
      const parsed = revokeForm.safeParse({ reason });
      if (!parsed.success) {
        const errors = zodFormErrors(parsed.error);
        return revokePage(request, reply, ctx, request.params, { reason, errors, status: 422 });
      }
      const account = await posData.account(request.params.account);
      const before = await merchantKeys.get(account.id, request.params.id);
      if (before.state === 'revoked') {
        kit.flash(request, t('accAlreadyRevoked', { name: before.name }));
        return kit.redirect(reply, keyPath(account.id, before.id));
      }
      const key = await merchantKeys.revoke(account.id, before.id, ctx.actor, parsed.data);
      await kit.record(ctx, {
        action: 'revokeMerchantKey',
        target: `pos/accounts/${account.id}/keys/${key.id}/revoke`,
        details: { reason: parsed.data.reason },
      });
      kit.flash(request, t('accRevoked', { name: key.name }));
      return kit.redirect(reply, keyPath(account.id, key.id));
    },
  );
}
