import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { formatDay, addMonths } from '../lib/calendar.js';
import { keyCreateInput, keyEditInput } from '../pos/keys/merchant-key-input.js';
import { MAX_ACTIVE_KEYS } from '../pos/keys/merchant-key-service.js';
import type { PosKey } from '../pos/keys/merchant-key.js';
import { MAX_VALIDITY_MONTHS, today } from '../pos/keys/merchant-key-validity.js';
import type { MerchantUser } from '../pos/users/merchant-user-service.js';
import type { Actor } from '../audit/actor.js';
import type { Services } from '../services.js';
import { formatCount, formatDayText, formatInstant, formatMoneyText, formatShare } from '../web/format.js';
import { html, jsonScript, raw, type SafeHtml } from '../web/html.js';
import { requestLocale, translator, type Locale, type Translate } from '../web/i18n.js';
import { formText, registerFace, type FaceContext, type FaceKit } from '../web/face.js';
import { KEY_EVENT_MESSAGES } from '../web/key-events.js';
import { csrfField } from '../web/layout.js';
import { shownOnceSecret } from '../web/shown-once.js';
import type { SignInLimits } from '../identity/sign-in-limit.js';
import { panelAssets } from './panel-assets.js';
import { PANEL_MESSAGES, type PanelMessage } from './panel-messages.js';
import { brandLines, brandsCsv, periodInstants, quickPeriods, receiptsCsv } from './panel-report.js';

// The merchant panel (issue 13) under /panel/ on the public listener: sign-in, password pages, the
// account's API keys ("Opções da conta > Integrações > Chaves de API") and the two financial reports.
// Handlers are thin over the service layer: keys through the merchant key service, as the admin API;
// figures through the sales service, as GET /v1/api-public/sales/by-payment-method.

export const PANEL_PREFIX = '/panel';

/** What the panel is built from. */
export interface PanelDeps {
  services: Pick<
    Services,
    | 'sessionsOf'
    | 'clock'
    | 'rateLimits'
    | 'merchantKeys'
    | 'merchantUsers'
    | 'posData'
    | 'sales'
    | 'config'
    | 'keyAudit'
  >;
  /** The identity pages' limits (tests shorten them). */
  signInLimits?: Partial<SignInLimits>;
}

type T = Translate<PanelMessage>;
type Ctx = FaceContext<MerchantUser, PanelMessage>;
type Kit = FaceKit<MerchantUser, PanelMessage>;

const SESSION_IDLE_MS = 8 * 3_600_000;

/** Registers the panel under /panel on the public listener. */
export function registerPanel(app: FastifyInstance, deps: PanelDeps): void {
  const { services } = deps;
  const { merchantUsers } = services;
  registerFace(app, {
    name: 'panel',
    prefix: PANEL_PREFIX,
    cookieName: 'panel_session',
    catalogue: PANEL_MESSAGES,
    users: merchantUsers,
    deps: services,
    signInLimits: deps.signInLimits,
    idleMs: SESSION_IDLE_MS,
    home: '/keys',
    nav: (_user, t) =>
      (
        [
          ['/keys', 'navKeys'],
          ['/reports/receipts', 'navReceipts'],
          ['/reports/brands', 'navBrands'],
          ['/account/password', 'navPassword'],
        ] as const
      ).map(([href, label]) => ({ href, label: t(label) })),
    assets: panelAssets,
    signInLinks: (ctx) => html`<a href="${PANEL_PREFIX}/password-reset">${ctx.t('forgotPassword')}</a>`,
    pages: (panel, kit) => {
      registerPasswordReset(panel, kit, services);
      registerKeyPages(panel, { ...deps, kit });
      registerReportPages(panel, { ...deps, kit });
    },
  });
}

/** The merchant's own way back in: a one-time link valid 1 hour, sent by e-mail. */
function registerPasswordReset(panel: FastifyInstance, kit: Kit, services: PanelDeps['services']): void {
  const { send, context, redirect, csrf, signInLimit } = kit;
  panel.get('/password-reset', async (request, reply) => {
    const ctx = await context(request, reply);
    return send(
      request,
      reply,
      ctx,
      ctx.t('resetTitle'),
      html`<div class="card narrow">
        <h1>${ctx.t('resetTitle')}</h1>
        <p>${ctx.t('resetIntro')}</p>
        <form method="post" action="${PANEL_PREFIX}/password-reset">
          ${csrfField(ctx.csrf)} <label for="email">${ctx.t('email')}</label
          ><input type="email" id="email" name="email" autocomplete="username" required />
          <div class="actions">
            <button type="submit">${ctx.t('resetButton')}</button
            ><a href="${PANEL_PREFIX}/sign-in">${ctx.t('signInTitle')}</a>
          </div>
        </form>
      </div>`,
    );
  });

  panel.post<{ Body: { email?: string } }>(
    '/password-reset',
    { preHandler: csrf },
    async (request, reply) => {
      const email = text(request.body.email);
      // Counted on the reset's own counters, never as a sign-in attempt: a flood of reset requests must not
      // lock the owner out. Over the limit the page answers as for any other request, and nothing is sent.
      const admission = await signInLimit.admitReset(email, request.ip);
      if (admission.ok) await services.merchantUsers.requestPasswordReset(email);
      const t = translator(PANEL_MESSAGES, requestLocale(request));
      kit.flash(request, t('resetSent'));
      return redirect(reply, '/sign-in');
    },
  );
}

// ---- Keys ----

function stateText(t: T, key: PosKey, locale: Locale): SafeHtml {
  const names = {
    active: 'stateActive',
    paused: 'statePaused',
    expired: 'stateExpired',
    revoked: 'stateRevoked',
  } as const;
  const base = html`<span class="state state-${key.state}">${t(names[key.state])}</span>`;
  if (key.previousValidUntil === null || key.state === 'revoked') return base;
  return html`${base}<span class="help"
      >${t('stateRotating', { until: formatInstant(key.previousValidUntil, locale) })}</span
    >`;
}

function permissionsText(t: T, key: PosKey): string {
  if (key.permissions.length === 0) return '—';
  return key.permissions.map((p) => (p === 'event.view' ? t('permEvents') : t('permSales'))).join(', ');
}

/** The form's values as the key service's input: a single checkbox arrives as text, several as a list. */
/** The audit trail's actor of a panel action: the signed-in merchant user, channel `panel`. */
function actorOf(ctx: { user: MerchantUser }, request: FastifyRequest): Actor {
  return {
    role: 'merchant_user',
    userId: ctx.user.id,
    displayName: ctx.user.name,
    channel: 'panel',
    ip: request.ip,
  };
}

/** Who acted, for a merchant: a panel user by name; the platform's people by role (never a token). */
function actorText(t: T, actor: Actor): string {
  if (actor.role === 'merchant_user') return actor.displayName ?? t('notRecorded');
  const role = {
    operator: t('actorOperator'),
    support: t('actorSupport'),
    staff: t('actorStaff'),
    system: t('actorSystem'),
  }[actor.role];
  return actor.channel === 'cli' ? `${role} (${t('viaCli')})` : role;
}

/** A key text's last accepted use (kept about once a minute), or that it was never used. */
function lastUseText(t: T, at: number | null, locale: Locale): string {
  return at === null ? t('neverUsed') : `${formatInstant(at, locale)} (UTC-03:00)`;
}

const text = formText;

function list(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

interface KeyForm {
  name: string;
  permissions: string[];
  places: 'all' | string[];
  expires_on: string;
}

function formOf(body: Record<string, unknown>): KeyForm {
  return {
    name: text(body.name),
    permissions: list(body.permission),
    places: body.places === 'chosen' ? list(body.place) : 'all',
    expires_on: text(body.expires_on),
  };
}

function registerKeyPages(panel: FastifyInstance, deps: PanelDeps & { kit: Kit }): void {
  const { services } = deps;
  const { send, signedIn, redirect, csrf, flash } = deps.kit;
  const { merchantKeys, posData, clock, config, keyAudit } = services;
  const keyUrl = (id: string, tail = '') => `${PANEL_PREFIX}/keys/${encodeURIComponent(id)}${tail}`;

  const keyForm = async (
    ctx: Ctx & { user: MerchantUser },
    options: {
      action: string;
      values: KeyForm;
      errors: Record<string, string>;
      submit: string;
      title: string;
      notice?: SafeHtml;
    },
  ) => {
    const places = await posData.listPlaces(ctx.user.accountId);
    const { values, errors } = options;
    const first = today(clock.now());
    const max = formatDay(addMonths(first, MAX_VALIDITY_MONTHS));
    const fieldError = (name: string) =>
      errors[name] === undefined ? '' : html`<p class="field-error" id="${name}-error">${errors[name]}</p>`;
    const described = (name: string, hint?: string) => {
      const ids = [hint, errors[name] === undefined ? undefined : `${name}-error`].filter(
        (x) => x !== undefined,
      );
      return ids.length === 0 ? '' : html` aria-describedby="${ids.join(' ')}"`;
    };
    const chosen = values.places === 'all' ? [] : values.places;
    const perms = [
      { value: 'sale-by-payment-method.view', label: ctx.t('permSales'), help: ctx.t('permSalesHelp') },
      { value: 'event.view', label: ctx.t('permEvents'), help: ctx.t('permEventsHelp') },
    ];
    return html` <h1>${options.title}</h1>
      ${options.notice ?? ''}
      ${
        Object.keys(errors).length === 0
          ? ''
          : html`<div class="error" role="alert">
              <p>${ctx.t('errorsTitle')}</p>
              <ul>
                ${Object.values(errors).map((e) => html`<li>${e}</li>`)}
              </ul>
            </div>`
      }
      <form method="post" action="${options.action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        <label for="name">${ctx.t('keyName')}</label>
        <input
          type="text"
          id="name"
          name="name"
          maxlength="200"
          required
          value="${values.name}"
          ${described('name', 'name-hint')}
        />
        <p class="hint" id="name-hint">${ctx.t('keyNameHint')}</p>
        ${fieldError('name')}
        <fieldset>
          <legend>${ctx.t('permissions')}</legend>
          ${perms.map(
            (p) =>
              html`<label
                ><input
                  type="checkbox"
                  name="permission"
                  value="${p.value}"
                  ${values.permissions.includes(p.value) ? raw(' checked') : ''}
                />
                <span>${p.label}<span class="help">${p.help}</span></span></label
              >`,
          )}
          <p class="hint">${ctx.t('permAlways')}</p>
          ${fieldError('permissions')}
        </fieldset>
        <fieldset>
          <legend>${ctx.t('places')}</legend>
          <label
            ><input
              type="radio"
              name="places"
              value="all"
              id="places-all"
              ${values.places === 'all' ? raw(' checked') : ''}
            /><span>${ctx.t('placesAll')}</span></label
          >
          <label
            ><input
              type="radio"
              name="places"
              value="chosen"
              id="places-chosen"
              ${values.places === 'all' ? '' : raw(' checked')}
            /><span>${ctx.t('placesChosen')}</span></label
          >
          <div class="places">
            ${places.map(
              (place) =>
                html`<label
                  ><input
                    type="checkbox"
                    name="place"
                    value="${place.id}"
                    ${chosen.includes(place.id) ? raw(' checked') : ''}
                  />
                  <span>${place.name ?? place.id} <span class="help">${place.id}</span></span></label
                >`,
            )}
          </div>
          ${fieldError('places')}
        </fieldset>
        <label for="expires_on">${ctx.t('validUntil')}</label>
        <input
          type="date"
          id="expires_on"
          name="expires_on"
          min="${formatDay(first)}"
          max="${max}"
          required
          value="${values.expires_on}"
          ${described('expires_on', 'validity-hint')}
        />
        <p class="hint" id="validity-hint">
          ${ctx.t('validityHint', { max: formatDayText(max, ctx.locale) })}
        </p>
        ${fieldError('expires_on')}
        <div class="actions">
          <button type="submit">${options.submit}</button>
          <a href="${PANEL_PREFIX}/keys">${ctx.t('cancel')}</a>
        </div>
      </form>`;
  };

  /** Field errors of a refused input: zod's issues, or the service's Problem naming its param. */
  const errorsOf = (error: unknown): Record<string, string> | null => {
    if (error instanceof Problem && (error.status === 422 || error.status === 409)) {
      const param =
        (typeof error.extras.param === 'string' ? error.extras.param : 'name').split('.')[0] ?? 'name';
      const detail = error.detail.replace(/^[\w.]+: /, '');
      return { [error.status === 409 ? 'name' : param]: detail };
    }
    return null;
  };

  const zodErrors = (issues: { path: PropertyKey[]; message: string }[]) =>
    Object.fromEntries(issues.map((issue) => [String(issue.path[0] ?? 'name'), issue.message]));

  const activeCount = (keys: PosKey[]) =>
    keys.filter((k) => k.state === 'active' || k.state === 'paused').length;

  panel.get('/keys', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const keys = await merchantKeys.list(ctx.user.accountId);
    const active = activeCount(keys);
    const left = MAX_ACTIVE_KEYS - active;
    const t = ctx.t;
    const placeText = (key: PosKey) => (key.places === 'all' ? t('allPlaces') : key.places.join(', '));
    // Who created each key: the trail's `issued` events of the account (newest first, one page).
    const issued = await keyAudit.ofAccount(ctx.user.accountId, { event: ['issued'], limit: 200 });
    const creators = new Map(issued.events.map((event) => [event.keyId, event.actor]));
    const creatorText = (id: string) => {
      const actor = creators.get(id);
      return actor === undefined ? t('notRecorded') : actorText(t, actor);
    };
    const body = html` <p class="crumbs">${t('keysBreadcrumb')}</p>
      <h1>${t('keysTitle')}</h1>
      <p>${t('keysIntro')}</p>
      <p>${t('keysCount', { active, max: MAX_ACTIVE_KEYS })}</p>
      ${left <= 0 ? html`<div class="warning" role="status">${t('keysAtLimit', { max: MAX_ACTIVE_KEYS })}</div>` : left <= 3 ? html`<div class="warning" role="status">${t('keysNearLimit', { left, max: MAX_ACTIVE_KEYS })}</div>` : ''}
      ${left > 0 ? html`<p><a class="button" href="${PANEL_PREFIX}/keys/new">${t('newKey')}</a></p>` : ''}
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
    return send(request, reply, ctx, t('keysTitle'), body);
  });

  const defaultExpiry = () => formatDay(addMonths(today(clock.now()), 12));

  panel.get('/keys/new', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const body = await keyForm(ctx, {
      action: `${PANEL_PREFIX}/keys`,
      values: { name: '', permissions: [], places: 'all', expires_on: defaultExpiry() },
      errors: {},
      submit: ctx.t('createButton'),
      title: ctx.t('createTitle'),
    });
    return send(request, reply, ctx, ctx.t('createTitle'), body);
  });

  const shownOnce = (ctx: Ctx, key: string, title: string, extra: SafeHtml | string) =>
    html` <h1>${title}</h1>
      ${shownOnceSecret(
        key,
        {
          warning: ctx.t('shownOnce'),
          label: ctx.t('keyLabel'),
          copy: ctx.t('copy'),
          copied: ctx.t('copied'),
        },
        extra,
      )}
      <p><a href="${PANEL_PREFIX}/keys">${ctx.t('backHome')}</a></p>`;

  panel.post<{ Body: Record<string, unknown> }>('/keys', { preHandler: csrf }, async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const values = formOf(request.body);
    const again = (errors: Record<string, string>) =>
      keyForm(ctx, {
        action: `${PANEL_PREFIX}/keys`,
        values,
        errors,
        submit: ctx.t('createButton'),
        title: ctx.t('createTitle'),
      }).then((body) => send(request, reply, ctx, ctx.t('createTitle'), body, { status: 422 }));
    const parsed = keyCreateInput.safeParse({
      ...values,
      expires_on: values.expires_on === '' ? undefined : values.expires_on,
    });
    if (!parsed.success) return again(zodErrors(parsed.error.issues));
    try {
      const created = await merchantKeys.create(ctx.user.accountId, parsed.data, actorOf(ctx, request));
      return await send(
        request,
        reply,
        ctx,
        ctx.t('createdTitle'),
        shownOnce(
          ctx,
          created.key,
          ctx.t('createdTitle'),
          html`<p>${ctx.t('colValidity')}: ${formatInstant(created.expiresAt, ctx.locale)} (UTC-03:00)</p>`,
        ),
      );
    } catch (error) {
      const errors = errorsOf(error);
      if (errors === null) throw error;
      return again(errors);
    }
  });

  const keyOf = (ctx: Ctx & { user: MerchantUser }, id: string) => merchantKeys.get(ctx.user.accountId, id);

  panel.get<{ Params: { id: string } }>('/keys/:id', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const key = await keyOf(ctx, request.params.id);
    const t = ctx.t;
    const live = key.state !== 'revoked';
    // The key's history from the audit trail, newest first (the latest 50 events).
    const history = (await keyAudit.ofMerchantKey(ctx.user.accountId, key.id, { limit: 50 })).events;
    const created = history.find((event) => event.event === 'issued');
    const action = (path: string, label: string, cls = 'secondary') =>
      html`<form method="post" action="${keyUrl(key.id, path)}" class="inline">
        ${csrfField(ctx.csrf)}<button type="submit" class="${cls}">${label}</button>
      </form>`;
    const body = html` <p class="crumbs">${t('keysBreadcrumb')}</p>
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
      <h2>${t('history')}</h2>
      ${
        history.length === 0
          ? html`<p>${t('historyEmpty')}</p>`
          : html`<div class="table-wrap">
              <table class="stack" id="history">
                <thead>
                  <tr>
                    <th scope="col">${t('historyWhen')}</th>
                    <th scope="col">${t('historyWhat')}</th>
                    <th scope="col">${t('historyWho')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${history.map(
                    (event) =>
                      html`<tr data-event="${event.event}">
                        <td data-label="${t('historyWhen')}">
                          ${formatInstant(event.occurredAt, ctx.locale)}
                        </td>
                        <td data-label="${t('historyWhat')}">${t(KEY_EVENT_MESSAGES[event.event])}</td>
                        <td data-label="${t('historyWho')}">${actorText(t, event.actor)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <p><a href="${PANEL_PREFIX}/keys">${t('backHome')}</a></p>`;
    return send(request, reply, ctx, t('keyTitle', { name: key.name }), body);
  });

  const editAction = (id: string) => keyUrl(id, '/edit');
  const dayOfExpiry = (key: PosKey) => formatDay(today(key.expiresAt));

  panel.get<{ Params: { id: string } }>('/keys/:id/edit', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const key = await keyOf(ctx, request.params.id);
    const body = await keyForm(ctx, {
      action: editAction(key.id),
      values: {
        name: key.name,
        permissions: key.permissions,
        places: key.places,
        expires_on: dayOfExpiry(key),
      },
      errors: {},
      submit: ctx.t('saveButton'),
      title: ctx.t('keyTitle', { name: key.name }),
    });
    return send(request, reply, ctx, ctx.t('edit'), body);
  });

  panel.post<{ Params: { id: string }; Body: Record<string, unknown> }>(
    '/keys/:id/edit',
    { preHandler: csrf },
    async (request, reply) => {
      const ctx = await signedIn(request, reply);
      if (ctx === null) return reply;
      const key = await keyOf(ctx, request.params.id);
      const values = formOf(request.body);
      const again = (errors: Record<string, string>) =>
        keyForm(ctx, {
          action: editAction(key.id),
          values,
          errors,
          submit: ctx.t('saveButton'),
          title: ctx.t('keyTitle', { name: key.name }),
        }).then((body) => send(request, reply, ctx, ctx.t('edit'), body, { status: 422 }));
      // The validity is sent only when changed: an unchanged date keeps the exact instant stored.
      const parsed = keyEditInput.safeParse({
        name: values.name,
        permissions: values.permissions,
        places: values.places,
        ...(values.expires_on === dayOfExpiry(key) ? {} : { expires_on: values.expires_on }),
      });
      if (!parsed.success) return again(zodErrors(parsed.error.issues));
      try {
        const edited = await merchantKeys.edit(
          ctx.user.accountId,
          key.id,
          parsed.data,
          actorOf(ctx, request),
        );
        flash(request, ctx.t('edited', { name: edited.name }));
        return await redirect(reply, `/keys/${encodeURIComponent(key.id)}`);
      } catch (error) {
        const errors = errorsOf(error);
        if (errors === null) throw error;
        return again(errors);
      }
    },
  );

  panel.get<{ Params: { id: string } }>('/keys/:id/rotate', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const key = await keyOf(ctx, request.params.id);
    const hours = Math.round(config.posRotationGraceSeconds / 3600);
    const body = html` <h1>${ctx.t('rotateTitle', { name: key.name })}</h1>
      <form method="post" action="${keyUrl(key.id, '/rotate')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>${ctx.t('rotateIntro', { hours })}</p>
        <label
          ><input type="checkbox" name="invalidate_current" value="true" aria-describedby="invalidate-hint" />
          <span>${ctx.t('invalidateNow')}</span></label
        >
        <p class="hint" id="invalidate-hint">${ctx.t('invalidateNowHint')}</p>
        <div class="actions">
          <button type="submit">${ctx.t('rotateButton')}</button>
          <a href="${keyUrl(key.id)}">${ctx.t('cancel')}</a>
        </div>
      </form>`;
    return send(request, reply, ctx, ctx.t('rotate'), body);
  });

  panel.post<{ Params: { id: string }; Body: { invalidate_current?: string } }>(
    '/keys/:id/rotate',
    { preHandler: csrf },
    async (request, reply) => {
      const ctx = await signedIn(request, reply);
      if (ctx === null) return reply;
      const key = await keyOf(ctx, request.params.id);
      const rotation = await merchantKeys.rotate(
        ctx.user.accountId,
        key.id,
        { invalidate_current: request.body.invalidate_current === 'true' },
        actorOf(ctx, request),
      );
      const extra =
        rotation.previousValidUntil === null
          ? html`<p>${ctx.t('previousEnded')}</p>`
          : html`<p>
              ${ctx.t('previousUntil', { until: `${formatInstant(rotation.previousValidUntil, ctx.locale)} (UTC-03:00)` })}
            </p>`;
      return send(
        request,
        reply,
        ctx,
        ctx.t('rotatedTitle'),
        shownOnce(ctx, rotation.key, ctx.t('rotatedTitle'), extra),
      );
    },
  );

  for (const [path, change, done] of [
    ['/pause', 'pause', 'paused'],
    ['/reactivate', 'reactivate', 'reactivated'],
  ] as const) {
    panel.post<{ Params: { id: string } }>(
      `/keys/:id${path}`,
      { preHandler: csrf },
      async (request, reply) => {
        const ctx = await signedIn(request, reply);
        if (ctx === null) return reply;
        const key = await merchantKeys[change](ctx.user.accountId, request.params.id, actorOf(ctx, request));
        flash(request, ctx.t(done, { name: key.name }));
        return redirect(reply, `/keys/${encodeURIComponent(key.id)}`);
      },
    );
  }

  panel.get<{ Params: { id: string } }>('/keys/:id/revoke', async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const key = await keyOf(ctx, request.params.id);
    const body = html` <h1>${ctx.t('revokeTitle', { name: key.name })}</h1>
      <form method="post" action="${keyUrl(key.id, '/revoke')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>${ctx.t('revokeIntro', { name: key.name })}</p>
        <div class="actions">
          <button type="submit" class="danger">${ctx.t('revokeConfirm', { name: key.name })}</button>
          <a href="${keyUrl(key.id)}">${ctx.t('cancel')}</a>
        </div>
      </form>`;
    return send(request, reply, ctx, ctx.t('revoke'), body);
  });

  panel.post<{ Params: { id: string } }>('/keys/:id/revoke', { preHandler: csrf }, async (request, reply) => {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const key = await merchantKeys.revoke(ctx.user.accountId, request.params.id, actorOf(ctx, request));
    flash(request, ctx.t('revoked', { name: key.name }));
    return redirect(reply, '/keys');
  });
}

// ---- Reports ----

function registerReportPages(panel: FastifyInstance, deps: PanelDeps & { kit: Kit }): void {
  const { services } = deps;
  const { send, signedIn } = deps.kit;
  const { posData, sales, clock } = services;

  for (const kind of ['receipts', 'brands'] as const) {
    const path = `/reports/${kind}`;
    panel.get<{ Querystring: Record<string, string | undefined> }>(path, (request, reply) =>
      report(request, reply, kind, false),
    );
    panel.get<{ Querystring: Record<string, string | undefined> }>(`${path}.csv`, (request, reply) =>
      report(request, reply, kind, true),
    );
  }

  async function report(
    request: FastifyRequest<{ Querystring: Record<string, string | undefined> }>,
    reply: FastifyReply,
    kind: 'receipts' | 'brands',
    asCsv: boolean,
  ) {
    const ctx = await signedIn(request, reply);
    if (ctx === null) return reply;
    const t = ctx.t;
    const title = t(kind === 'receipts' ? 'receiptsTitle' : 'brandsTitle');
    const places = await posData.listPlaces(ctx.user.accountId);
    const q = request.query;
    const place = places.find((p) => p.id === q.place) ?? places[0];
    if (place === undefined)
      return send(
        request,
        reply,
        ctx,
        title,
        html`<h1>${title}</h1>
          <p>${t('noPlaces')}</p>`,
      );
    const quick = quickPeriods(clock.now());
    const placeId = place.id;
    const events = (await posData.listEvents(ctx.user.accountId, placeId)).slice(0, 200);
    const eventId = q.event !== undefined && events.some((e) => e.id === q.event) ? q.event : null;
    const period = { from: q.from ?? quick.last7.from, to: q.to ?? quick.last7.to };
    const check = periodInstants(period, eventId !== null);
    const base = `${PANEL_PREFIX}/reports/${kind}`;
    const query = (p: { from: string; to: string }) =>
      `?${new URLSearchParams({ place: placeId, ...(eventId === null ? {} : { event: eventId }), from: p.from, to: p.to }).toString()}`;

    let outcome: Awaited<ReturnType<typeof sales.byPaymentMethod>> | null = null;
    if (check.ok) {
      // The same service, reader and rounding as GET /v1/api-public/sales/by-payment-method, for the
      // account's every place; not counted among the API's queries in progress (the panel has no key).
      outcome = await sales.byPaymentMethod({
        reach: { account_id: ctx.user.accountId, places: 'all' },
        placeId,
        eventId,
        from: check.from,
        to: check.to,
      });
    }
    const figures = outcome?.ok === true ? outcome.figures : null;
    if (asCsv) {
      if (figures === null) return reply.code(422).type('text/plain; charset=utf-8').send(t('dateInvalid'));
      const name = `${kind === 'receipts' ? 'recebimentos' : 'bandeiras'}-${placeId}-${period.from}-${period.to}.csv`;
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(kind === 'receipts' ? receiptsCsv(figures) : brandsCsv(figures));
    }

    const money = (amount: string) => formatMoneyText(amount, figures?.currency ?? 'BRL', ctx.locale);
    const filters = html` <form method="get" action="${base}" class="card">
        <div class="filters">
          <div>
            <label for="place">${t('place')}</label
            ><select id="place" name="place">
              ${places.map(
                (p) =>
                  html`<option value="${p.id}" ${p.id === placeId ? raw(' selected') : ''}>
                    ${p.name ?? p.id}
                  </option>`,
              )}
            </select>
          </div>
          <div>
            <label for="event">${t('event')}</label
            ><select id="event" name="event">
              <option value="">${t('allEvents')}</option>
              ${events.map(
                (e) =>
                  html`<option value="${e.id}" ${e.id === eventId ? raw(' selected') : ''}>
                    ${e.name}
                  </option>`,
              )}
            </select>
          </div>
          <div>
            <label for="from">${t('from')}</label
            ><input
              type="date"
              id="from"
              name="from"
              value="${period.from}"
              required
              aria-describedby="period-hint"
            />
          </div>
          <div>
            <label for="to">${t('to')}</label
            ><input
              type="date"
              id="to"
              name="to"
              value="${period.to}"
              required
              aria-describedby="period-hint"
            />
          </div>
        </div>
        <p class="hint" id="period-hint">${t('periodHint')}</p>
        <div class="actions"><button type="submit">${t('show')}</button></div>
      </form>
      <nav aria-label="${t('quickPeriods')}">
        <ul class="quick">
          ${(
            [
              ['today', 'quickToday'],
              ['yesterday', 'quickYesterday'],
              ['last7', 'quickLast7'],
              ['thisMonth', 'quickThisMonth'],
              ['lastMonth', 'quickLastMonth'],
            ] as const
          ).map(([name, label]) => html`<li><a href="${base}${query(quick[name])}">${t(label)}</a></li>`)}
        </ul>
      </nav>
      <p class="hint">${t('lateSales')}</p>`;

    let result: SafeHtml;
    if (!check.ok) {
      result = html`<div class="error" role="alert">${t(check.problem)}</div>`;
    } else if (outcome !== null && !outcome.ok) {
      result = html`<div class="error" role="alert">${t('reportTimedOut')}</div>`;
    } else if (figures === null || figures.data.length === 0) {
      result = html`<p>${t('emptyPeriod')}</p>`;
    } else {
      const event =
        eventId === null
          ? ''
          : t('eventShown', { event: events.find((e) => e.id === eventId)?.name ?? eventId });
      const caption = t('periodShown', {
        place: place.name ?? place.id,
        from: formatDayText(period.from, ctx.locale),
        to: formatDayText(period.to, ctx.locale),
        event,
      });
      const lines =
        kind === 'receipts'
          ? figures.data.map((line) => ({
              label: line.label,
              count: line.count,
              amount: line.amount,
              share: line.share,
            }))
          : brandLines(figures).map((line) => ({
              label: `${line.brand === null ? t('noBrand') : line.brand === 'OTHER' ? t('otherBrand') : line.brand} · ${line.label}`,
              count: line.count,
              amount: line.amount,
              share: line.share,
            }));
      const chartData = {
        title: t('amount'),
        labels: lines.map((l) => l.label),
        values: lines.map((l) => Number(l.amount)),
        texts: lines.map((l) => `${money(l.amount)} (${formatShare(l.share, ctx.locale)})`),
        axis: `${figures.currency === 'BRL' ? 'R$' : figures.currency} #`,
      };
      const chartLabel = t(kind === 'receipts' ? 'chartMethods' : 'chartBrands');
      result = html` <div class="table-wrap">
          <table class="stack figures" id="report-table">
            <caption>
              ${caption}
            </caption>
            <thead>
              <tr>
                <th scope="col">${t(kind === 'receipts' ? 'method' : 'brand')}</th>
                <th scope="col" class="num">${t('count')}</th>
                <th scope="col" class="num">${t('amount')}</th>
                <th scope="col" class="num">${t('share')}</th>
              </tr>
            </thead>
            <tbody>
              ${lines.map(
                (l) =>
                  html`<tr>
                    <th scope="row" data-label="${t(kind === 'receipts' ? 'method' : 'brand')}">
                      ${l.label}
                    </th>
                    <td class="num" data-label="${t('count')}">${formatCount(l.count, ctx.locale)}</td>
                    <td class="num" data-label="${t('amount')}" data-amount="${l.amount}">
                      ${money(l.amount)}
                    </td>
                    <td class="num" data-label="${t('share')}" data-share="${l.share}">
                      ${formatShare(l.share, ctx.locale)}
                    </td>
                  </tr>`,
              )}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" data-label="">${t('total')}</th>
                <td class="num" data-label="${t('count')}" data-total-count="${figures.total.count}">
                  ${formatCount(figures.total.count, ctx.locale)}
                </td>
                <td class="num" data-label="${t('amount')}" data-total-amount="${figures.total.amount}">
                  ${money(figures.total.amount)}
                </td>
                <td class="num" data-label="${t('share')}">${kind === 'receipts' ? '100%' : ''}</td>
              </tr>
            </tfoot>
          </table>
        </div>
        <p><a class="button secondary" href="${base}.csv${query(period)}" download>${t('downloadCsv')}</a></p>
        <div class="chart">
          <canvas data-chart="chart-data" role="img" aria-label="${chartLabel}"></canvas>
        </div>
        ${jsonScript('chart-data', chartData)}`;
    }
    return send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${filters}${result}`,
      { charts: figures !== null && figures.data.length > 0 },
    );
  }
}
