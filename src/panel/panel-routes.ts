import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { formatDay, addMonths } from '../lib/calendar.js';
import { keyCreateInput, keyEditInput } from '../pos/merchant-key-input.js';
import { MAX_ACTIVE_KEYS } from '../pos/merchant-key-service.js';
import type { PosKey } from '../pos/merchant-key.js';
import { MAX_VALIDITY_MONTHS, today } from '../pos/merchant-key-validity.js';
import { PASSWORD_MAX, PASSWORD_MIN, type MerchantUser } from '../pos/merchant-user-service.js';
import type { Actor } from '../audit/actor.js';
import type { KeyEventName } from '../audit/key-audit-repository.js';
import type { Services } from '../services.js';
import { formatCount, formatDayText, formatInstant, formatMoneyText, formatShare } from '../web/format.js';
import { html, raw, type SafeHtml } from '../web/html.js';
import {
  isLocale,
  LOCALE_COOKIE,
  requestLocale,
  translator,
  type Locale,
  type Translate,
} from '../web/i18n.js';
import { csrfField, layout } from '../web/layout.js';
import { createDbSessionStore } from '../web/session-store.js';
import { createSignInLimit, type SignInLimits } from '../web/sign-in-limit.js';
import { sendWebAsset } from '../web/web-assets.js';
import { registerWebFace, requireCsrf } from '../web/web-face.js';
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
    | 'db'
    | 'clock'
    | 'rateLimits'
    | 'merchantKeys'
    | 'merchantUsers'
    | 'posData'
    | 'sales'
    | 'config'
    | 'keyAudit'
  >;
  /** Sign-in attempts per e-mail and per IP (tests shorten them). */
  signInLimits?: SignInLimits;
}

type T = Translate<PanelMessage>;

interface Ctx {
  t: T;
  locale: Locale;
  csrf: string;
  user: MerchantUser | null;
}

const SESSION_IDLE_MS = 8 * 3_600_000;
const asset = (file: string) => `${PANEL_PREFIX}/assets/${file}`;

/** Registers the panel under /panel on the public listener. */
export function registerPanel(app: FastifyInstance, deps: PanelDeps): void {
  const { services } = deps;
  const { merchantUsers, clock, config } = services;
  const store = createDbSessionStore({ db: services.db, clock, face: 'panel' });
  const limit = createSignInLimit({
    store: services.rateLimits,
    clock,
    face: 'panel',
    ...(deps.signInLimits === undefined ? {} : { limits: deps.signInLimits }),
  });

  void app.register(
    async (panel) => {
      await registerWebFace(panel, {
        cookieName: 'panel_session',
        path: PANEL_PREFIX,
        secret: config.sessionSecret,
        secure: config.env === 'production',
        store,
        idleMs: SESSION_IDLE_MS,
      });
      const csrf = requireCsrf(panel);

      const context = async (request: FastifyRequest, reply: FastifyReply): Promise<Ctx> => {
        const locale = requestLocale(request);
        const userId = request.session.get('userId');
        const user = userId === undefined ? null : ((await merchantUsers.get(userId)) ?? null);
        return { t: translator(PANEL_MESSAGES, locale), locale, csrf: reply.generateCsrf(), user };
      };

      const send = (
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: Ctx,
        title: string,
        body: SafeHtml,
        options: { status?: number; charts?: boolean } = {},
      ) => {
        const flash = request.session.get('flash') ?? null;
        if (flash !== null) request.session.set('flash', undefined);
        const { stylesheet, script, chart } = panelAssets();
        const path = request.url.split('?')[0] ?? '';
        const nav =
          ctx.user === null
            ? []
            : (
                [
                  ['/keys', 'navKeys'],
                  ['/reports/receipts', 'navReceipts'],
                  ['/reports/brands', 'navBrands'],
                  ['/account/password', 'navPassword'],
                ] as const
              ).map(([href, label]) => ({
                href: PANEL_PREFIX + href,
                label: ctx.t(label),
                current: path.startsWith(PANEL_PREFIX + href),
              }));
        return reply
          .code(options.status ?? 200)
          .type('text/html; charset=utf-8')
          .send(
            layout({
              locale: ctx.locale,
              title,
              faceName: ctx.t('faceName'),
              home: `${PANEL_PREFIX}/`,
              nav,
              userName: ctx.user?.name ?? null,
              csrfToken: ctx.csrf,
              flash,
              body,
              stylesheet: asset(stylesheet.file),
              scripts: [...(options.charts === true ? [asset(chart.file)] : []), asset(script.file)],
              labels: {
                skip: ctx.t('skip'),
                signOut: ctx.t('signOut'),
                language: ctx.t('language'),
                signedInAs: ctx.t('signedInAs'),
                navigation: ctx.t('navigation'),
              },
              signOutAction: `${PANEL_PREFIX}/sign-out`,
              languageAction: `${PANEL_PREFIX}/language`,
              currentUrl: request.method === 'GET' ? request.url : `${PANEL_PREFIX}/`,
            }),
          );
      };

      const redirect = (reply: FastifyReply, path: string) => reply.redirect(PANEL_PREFIX + path, 303);

      /** The signed-in user, or a redirect to the sign-in page. */
      const signedIn = async (
        request: FastifyRequest,
        reply: FastifyReply,
      ): Promise<(Ctx & { user: MerchantUser }) | null> => {
        const ctx = await context(request, reply);
        if (ctx.user === null) {
          await redirect(reply, '/sign-in');
          return null;
        }
        return ctx as Ctx & { user: MerchantUser };
      };

      const message = (ctx: Ctx, title: string, text: string) =>
        html`<div class="card narrow">
          <h1>${title}</h1>
          <p>${text}</p>
          <p><a href="${PANEL_PREFIX}/">${ctx.t('backToKeys')}</a></p>
        </div>`;

      panel.setNotFoundHandler(async (request, reply) => {
        const ctx = await context(request, reply);
        return send(
          request,
          reply,
          ctx,
          ctx.t('notFoundTitle'),
          message(ctx, ctx.t('notFoundTitle'), ctx.t('notFoundText')),
          {
            status: 404,
          },
        );
      });
      panel.setErrorHandler(async (error, request, reply) => {
        const ctx = await context(request, reply).catch(() => null);
        const t = ctx?.t ?? translator(PANEL_MESSAGES, 'pt-BR');
        const code = (error as { code?: unknown }).code;
        const fallback: Ctx = ctx ?? { t, locale: 'pt-BR', csrf: '', user: null };
        if (typeof code === 'string' && code.startsWith('FST_CSRF')) {
          return send(
            request,
            reply,
            fallback,
            t('forbiddenTitle'),
            message(fallback, t('forbiddenTitle'), t('forbiddenText')),
            {
              status: 403,
            },
          );
        }
        if (error instanceof Problem && error.status === 404) {
          return send(
            request,
            reply,
            fallback,
            t('notFoundTitle'),
            message(fallback, t('notFoundTitle'), t('notFoundText')),
            {
              status: 404,
            },
          );
        }
        request.log.error({ err: error }, 'panel: unexpected error');
        return send(
          request,
          reply,
          fallback,
          t('errorTitle'),
          message(fallback, t('errorTitle'), t('errorText')),
          {
            status: 500,
          },
        );
      });

      panel.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
        const { stylesheet, script, chart } = panelAssets();
        const found = [stylesheet, script, chart].find((a) => a.file === request.params.file);
        if (found === undefined) {
          reply.callNotFound();
          return reply;
        }
        return sendWebAsset(request, reply, found);
      });

      panel.get('/', async (request, reply) => {
        const ctx = await context(request, reply);
        return redirect(reply, ctx.user === null ? '/sign-in' : '/keys');
      });

      panel.post<{ Body: { lang?: string; back?: string } }>(
        '/language',
        { preHandler: csrf },
        async (request, reply) => {
          const lang = request.body.lang;
          if (isLocale(lang)) {
            void reply.setCookie(LOCALE_COOKIE, lang, {
              path: PANEL_PREFIX,
              sameSite: 'lax',
              httpOnly: true,
              secure: config.env === 'production',
              maxAge: 365 * 86_400,
            });
          }
          // Back to the page the switch was on (the pages send no Referer): only a path of the panel.
          const back = request.body.back;
          const safe =
            typeof back === 'string' && back.startsWith(`${PANEL_PREFIX}/`) && !back.startsWith('//');
          return reply.redirect(safe ? back : `${PANEL_PREFIX}/`, 303);
        },
      );

      // ---- Sign-in, sign-out, passwords ----

      const signInPage = (ctx: Ctx, email: string, error: string | null) =>
        html` <div class="card narrow">
          <h1>${ctx.t('signInTitle')}</h1>
          ${error === null ? '' : html`<div class="error" role="alert" id="signin-error">${error}</div>`}
          <form method="post" action="${PANEL_PREFIX}/sign-in">
            ${csrfField(ctx.csrf)}
            <label for="email">${ctx.t('email')}</label>
            <input
              type="email"
              id="email"
              name="email"
              autocomplete="username"
              required
              value="${email}"
              ${error === null ? '' : html` aria-describedby="signin-error"`}
            />
            <label for="password">${ctx.t('password')}</label>
            <input type="password" id="password" name="password" autocomplete="current-password" required />
            <div class="actions">
              <button type="submit">${ctx.t('signInButton')}</button>
              <a href="${PANEL_PREFIX}/password-reset">${ctx.t('forgotPassword')}</a>
            </div>
          </form>
        </div>`;

      panel.get('/sign-in', async (request, reply) => {
        const ctx = await context(request, reply);
        if (ctx.user !== null) return redirect(reply, '/keys');
        return send(request, reply, ctx, ctx.t('signInTitle'), signInPage(ctx, '', null));
      });

      panel.post<{ Body: { email?: string; password?: string } }>(
        '/sign-in',
        { preHandler: csrf },
        async (request, reply) => {
          const email = text(request.body.email).slice(0, 254);
          const password = text(request.body.password).slice(0, PASSWORD_MAX);
          const admission = await limit.admit(email, request.ip);
          if (!admission.ok) {
            const ctx = await context(request, reply);
            reply.header('retry-after', String(admission.retryAfterSeconds));
            return send(
              request,
              reply,
              ctx,
              ctx.t('signInTitle'),
              signInPage(
                ctx,
                email,
                ctx.t('signInLimited', { minutes: Math.ceil(admission.retryAfterSeconds / 60) }),
              ),
              { status: 429 },
            );
          }
          const user = await merchantUsers.authenticate(email, password);
          if (user === null) {
            const ctx = await context(request, reply);
            return send(
              request,
              reply,
              ctx,
              ctx.t('signInTitle'),
              signInPage(ctx, email, ctx.t('signInFailed')),
              { status: 401 },
            );
          }
          // A new session id at sign-in: a session id planted before it is worth nothing after.
          await request.session.regenerate();
          request.session.set('userId', user.id);
          return redirect(reply, '/keys');
        },
      );

      panel.post('/sign-out', { preHandler: csrf }, async (request, reply) => {
        await request.session.destroy();
        return redirect(reply, '/sign-in');
      });

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
          // Counted like a sign-in attempt: the same limits stop a flood of e-mails to one address.
          const admission = await limit.admit(email, request.ip);
          if (admission.ok) await merchantUsers.requestPasswordReset(email);
          const t = translator(PANEL_MESSAGES, requestLocale(request));
          request.session.set('flash', t('resetSent'));
          return redirect(reply, '/sign-in');
        },
      );

      const passwordProblem = (t: T, next: string, again: string): string | null => {
        if (Array.from(next).length < PASSWORD_MIN) return t('passwordTooShort', { min: PASSWORD_MIN });
        if (Array.from(next).length > PASSWORD_MAX) return t('passwordTooLong', { max: PASSWORD_MAX });
        if (next !== again) return t('passwordsDiffer');
        return null;
      };

      const newPasswordFields = (ctx: Ctx, error: string | null) =>
        html` ${error === null ? '' : html`<div class="error" role="alert" id="password-error">${error}</div>`}
          <label for="new-password">${ctx.t('newPassword')}</label>
          <input
            type="password"
            id="new-password"
            name="password"
            autocomplete="new-password"
            required
            minlength="${PASSWORD_MIN}"
            maxlength="${PASSWORD_MAX}"
            aria-describedby="password-hint${error === null ? '' : ' password-error'}"
          />
          <p class="hint" id="password-hint">${ctx.t('passwordHint', { min: PASSWORD_MIN })}</p>
          <label for="confirm-password">${ctx.t('confirmPassword')}</label>
          <input
            type="password"
            id="confirm-password"
            name="confirm"
            autocomplete="new-password"
            required
          />`;

      /** 410: a one-time link that does not exist, expired or was used, said as such. */
      const sendLinkGone = (
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: Ctx,
        reason: 'unknown' | 'expired' | 'used',
      ) => {
        const title = ctx.t('setPasswordTitle');
        const why = ctx.t(
          reason === 'expired' ? 'linkExpired' : reason === 'used' ? 'linkUsed' : 'linkUnknown',
        );
        return send(request, reply, ctx, title, message(ctx, title, why), { status: 410 });
      };

      const setPasswordPage = (ctx: Ctx, token: string, name: string, error: string | null) =>
        html` <div class="card narrow">
          <h1>${ctx.t('setPasswordTitle')}</h1>
          <p>${ctx.t('setPasswordIntro', { name, min: PASSWORD_MIN })}</p>
          <form method="post" action="${PANEL_PREFIX}/set-password">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="token" value="${token}" />
            ${newPasswordFields(ctx, error)}
            <div class="actions"><button type="submit">${ctx.t('setPasswordButton')}</button></div>
          </form>
        </div>`;

      panel.get<{ Querystring: { token?: string } }>('/set-password', async (request, reply) => {
        const ctx = await context(request, reply);
        const token = text(request.query.token);
        const link = await merchantUsers.link(token);
        if (!link.ok) {
          return sendLinkGone(request, reply, ctx, link.reason);
        }
        return send(
          request,
          reply,
          ctx,
          ctx.t('setPasswordTitle'),
          setPasswordPage(ctx, token, link.user.name, null),
        );
      });

      panel.post<{ Body: { token?: string; password?: string; confirm?: string } }>(
        '/set-password',
        { preHandler: csrf },
        async (request, reply) => {
          const ctx = await context(request, reply);
          const token = text(request.body.token);
          const link = await merchantUsers.link(token);
          if (!link.ok) {
            return sendLinkGone(request, reply, ctx, link.reason);
          }
          const password = text(request.body.password);
          const problem = passwordProblem(ctx.t, password, text(request.body.confirm));
          if (problem !== null) {
            return send(
              request,
              reply,
              ctx,
              ctx.t('setPasswordTitle'),
              setPasswordPage(ctx, token, link.user.name, problem),
              {
                status: 422,
              },
            );
          }
          const done = await merchantUsers.setPasswordWithLink(token, password);
          if (!done.ok) {
            return sendLinkGone(request, reply, ctx, done.reason);
          }
          // A reset ends every session of the user (someone else may have had the old password).
          await store.endUserSessions(done.user.id);
          request.session.set('flash', ctx.t('passwordSet'));
          return redirect(reply, '/sign-in');
        },
      );

      const changePasswordPage = (ctx: Ctx, error: string | null, currentError: boolean) =>
        html` <div class="card narrow">
          <h1>${ctx.t('changePasswordTitle')}</h1>
          <form method="post" action="${PANEL_PREFIX}/account/password">
            ${csrfField(ctx.csrf)}
            ${currentError ? html`<div class="error" role="alert">${ctx.t('currentPasswordWrong')}</div>` : ''}
            <label for="current-password">${ctx.t('currentPassword')}</label>
            <input
              type="password"
              id="current-password"
              name="current"
              autocomplete="current-password"
              required
            />
            ${newPasswordFields(ctx, error)}
            <div class="actions"><button type="submit">${ctx.t('setPasswordButton')}</button></div>
          </form>
        </div>`;

      panel.get('/account/password', async (request, reply) => {
        const ctx = await signedIn(request, reply);
        if (ctx === null) return reply;
        return send(request, reply, ctx, ctx.t('changePasswordTitle'), changePasswordPage(ctx, null, false));
      });

      panel.post<{ Body: { current?: string; password?: string; confirm?: string } }>(
        '/account/password',
        { preHandler: csrf },
        async (request, reply) => {
          const ctx = await signedIn(request, reply);
          if (ctx === null) return reply;
          const password = text(request.body.password);
          const problem = passwordProblem(ctx.t, password, text(request.body.confirm));
          if (problem !== null)
            return send(
              request,
              reply,
              ctx,
              ctx.t('changePasswordTitle'),
              changePasswordPage(ctx, problem, false),
              { status: 422 },
            );
          const changed = await merchantUsers.changePassword(
            ctx.user.id,
            text(request.body.current).slice(0, PASSWORD_MAX),
            password,
          );
          if (!changed)
            return send(
              request,
              reply,
              ctx,
              ctx.t('changePasswordTitle'),
              changePasswordPage(ctx, null, true),
              { status: 422 },
            );
          await store.endUserSessions(ctx.user.id, request.session.sessionId);
          request.session.set('flash', ctx.t('passwordChanged'));
          return redirect(reply, '/keys');
        },
      );

      registerKeyPages(panel, { ...deps, send, signedIn, redirect, csrf });
      registerReportPages(panel, { ...deps, send, signedIn });
    },
    { prefix: PANEL_PREFIX },
  );
}

type Send = (
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: Ctx,
  title: string,
  body: SafeHtml,
  options?: { status?: number; charts?: boolean },
) => FastifyReply;
type SignedIn = (
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<(Ctx & { user: MerchantUser }) | null>;

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

/** The message of each audit event, as the key's history shows it. */
const EVENT_MESSAGES: Readonly<Record<KeyEventName, PanelMessage>> = {
  issued: 'evIssued',
  rotated: 'evRotated',
  previous_stopped: 'evPreviousStopped',
  paused: 'evPaused',
  reactivated: 'evReactivated',
  revoked: 'evRevoked',
  edited: 'evEdited',
  expired: 'evExpired',
  grace_ended: 'evGraceEnded',
};

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

/** A form field as text: a field sent twice (an array) or not at all is empty. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

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

function registerKeyPages(
  panel: FastifyInstance,
  deps: PanelDeps & {
    send: Send;
    signedIn: SignedIn;
    redirect: (reply: FastifyReply, path: string) => FastifyReply;
    csrf: ReturnType<typeof requireCsrf>;
  },
): void {
  const { services, send, signedIn, redirect, csrf } = deps;
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
      <div class="warning" role="status" id="once-warning">${ctx.t('shownOnce')}</div>
      <div class="card">
        <label for="new-key">${ctx.t('keyLabel')}</label>
        <textarea
          class="secret"
          id="new-key"
          rows="2"
          readonly
          aria-describedby="once-warning"
          spellcheck="false"
          autocomplete="off"
        >
${key}</textarea>
        <div class="actions">
          <button
            type="button"
            data-copy="new-key"
            data-status="copy-status"
            data-done="${ctx.t('copied')}"
            hidden
          >
            ${ctx.t('copy')}
          </button>
          <span id="copy-status" role="status"></span>
        </div>
        ${extra}
      </div>
      <p><a href="${PANEL_PREFIX}/keys">${ctx.t('backToKeys')}</a></p>`;

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
                        <td data-label="${t('historyWhat')}">${t(EVENT_MESSAGES[event.event])}</td>
                        <td data-label="${t('historyWho')}">${actorText(t, event.actor)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      <p><a href="${PANEL_PREFIX}/keys">${t('backToKeys')}</a></p>`;
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
        request.session.set('flash', ctx.t('edited', { name: edited.name }));
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
        request.session.set('flash', ctx.t(done, { name: key.name }));
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
    request.session.set('flash', ctx.t('revoked', { name: key.name }));
    return redirect(reply, '/keys');
  });
}

// ---- Reports ----

function registerReportPages(
  panel: FastifyInstance,
  deps: PanelDeps & { send: Send; signedIn: SignedIn },
): void {
  const { services, send, signedIn } = deps;
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
        <script type="application/json" id="chart-data">
          ${raw(JSON.stringify(chartData).replace(/</g, '\\u003c'))}
        </script>`;
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
