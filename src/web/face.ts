import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import {
  addFaceRefusalAnswer,
  notFoundRefusal,
  prepareRefusal,
  refusalOf,
  refuseNulCharacters,
  refusalWords,
  type FaceRefusal,
} from './face-refusals.js';
import { isSafeFacePath } from './face-path.js';
import { requireFormBody } from './form-body.js';
import { html, type SafeHtml } from './html.js';
import { requireHttpsInProduction } from './https-only.js';
import type { LinkOutcome } from '../identity/one-time-link.js';
import {
  isLocale,
  LOCALE_COOKIE,
  requestLocale,
  translator,
  type Catalogue,
  type Locale,
  type Translate,
} from './i18n.js';
import { csrfField, layout, type NavItem } from './layout.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../identity/password-policy.js';
import type { DbSessionStore } from '../identity/session-store.js';
import { createSignInLimit, type SignInLimit, type SignInLimits } from '../identity/sign-in-limit.js';
import { sendWebAsset, type WebAsset } from './web-assets.js';
import type { WebMessage } from './web-messages.js';
import { registerWebFace, setPageHeaders } from './web-face.js';

// A web face (the merchant panel, the back-office console) as one plugin: its scope under a prefix with
// the session, CSRF and form plugins, its assets, the language switch, error pages, and the pages every
// face has the same way: sign-in, sign-out, setting a password through a one-time link, changing it.
// The face brings its users, its texts, its navigation and its own pages, which it registers with the
// kit handed to it (send a page, require a signed-in user, redirect within the face).

/** Who signs in to a face, as its pages need them. */
export interface FaceUser {
  readonly id: string;
  readonly name: string;
}

/** The face's users, as its sign-in and password pages use them. */
export interface FaceUsers<U extends FaceUser> {
  /** The user of a session; undefined when unknown or disabled (the session then counts for nothing). */
  get(id: string): Promise<U | undefined>;
  authenticate(email: string, password: string): Promise<U | null>;
  link(token: string): Promise<LinkOutcome<U>>;
  setPasswordWithLink(token: string, password: string): Promise<LinkOutcome<U>>;
  changePassword(userId: string, current: string, next: string): Promise<boolean>;
}

/** The texts a face must have besides the shared ones. */
export type FaceMessage = WebMessage | 'faceName' | 'backHome';

/** A face's files: its stylesheet, its script, and Chart.js for the pages that draw. */
export interface FaceAssets {
  stylesheet: WebAsset;
  script: WebAsset;
  chart: WebAsset;
}

/** What a page is rendered with. */
export interface FaceContext<U, K extends string> {
  t: Translate<K>;
  locale: Locale;
  csrf: string;
  user: U | null;
}

/** The context of a page that a signed-in user asked for. */
export type SignedInContext<U, K extends string> = FaceContext<U, K> & { user: U };

/** How a page is sent. */
export interface SendOptions {
  status?: number;
  /** The page draws charts: Chart.js is loaded before the face's script. */
  charts?: boolean;
}

/** What a face's pages are registered with. */
export interface FaceKit<U extends FaceUser, K extends string> {
  readonly prefix: string;
  /** Renders a page in the face's frame. */
  send: (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: FaceContext<U, K>,
    title: string,
    body: SafeHtml,
    options?: SendOptions,
  ) => FastifyReply;
  /** The page's context, signed in or not. */
  context: (request: FastifyRequest, reply: FastifyReply) => Promise<FaceContext<U, K>>;
  /** The signed-in user's context, or null after redirecting to the sign-in page. */
  signedIn: (request: FastifyRequest, reply: FastifyReply) => Promise<SignedInContext<U, K> | null>;
  /** A 303 to a path of the face (after a form post). */
  redirect: (reply: FastifyReply, path: string) => FastifyReply;
  /** A short card: a title, a sentence and the way home. */
  message: (ctx: FaceContext<U, K>, title: string, text: string) => SafeHtml;
  /** The CSRF check every form post passes first. */
  csrf: preHandlerHookHandler;
  /** Sets the message the next page shows once. */
  flash: (request: FastifyRequest, text: string) => void;
  /** The face's sessions (to end a user's when their password changes). */
  readonly sessions: DbSessionStore;
  /** The sign-in limit, for a page that takes an e-mail address (a reset request). */
  readonly signInLimit: SignInLimit;
}

/** One face. */
export interface FaceSpec<U extends FaceUser, K extends string> {
  /** `panel`, `console`: the sessions' and sign-in limits' namespace. */
  name: string;
  /** `/panel`, `/console`. */
  prefix: string;
  cookieName: string;
  catalogue: Catalogue<K | FaceMessage>;
  users: FaceUsers<U>;
  deps: {
    sessionsOf(face: string): DbSessionStore;
    clock: Clock;
    rateLimits: RateLimitStore;
    config: Config;
  };
  signInLimits?: Partial<SignInLimits> | undefined;
  /** How long a session lasts without use. */
  idleMs: number;
  /** Where a signed-in user lands (`/keys`). */
  home: string;
  /** The navigation of a signed-in user. */
  nav(user: U, t: Translate<K | FaceMessage>): { href: string; label: string }[];
  assets(): FaceAssets;
  /** What the sign-in page offers beside its button (a link to reset the password). */
  signInLinks?(ctx: FaceContext<U, K | FaceMessage>): SafeHtml;
  /**
   * Answers the sign-in page's request instead, when the face is not ready for anyone to sign in yet
   * (the console before its first operator): true when it answered, false to show the sign-in page.
   */
  beforeSignIn?(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** Registers the face's own pages. */
  pages(scope: FastifyInstance, kit: FaceKit<U, K | FaceMessage>): void;
  /** Told when a user signs in, signs out or changes their password (the console records them). */
  onSession?(event: 'signIn' | 'signOut' | 'changePassword', user: U, request: FastifyRequest): Promise<void>;
}

/** A form field as text: a field sent twice (an array) or not at all is empty. */
export function formText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** Registers a face under its prefix. */
export function registerFace<U extends FaceUser, K extends string>(
  app: FastifyInstance,
  spec: FaceSpec<U, K>,
): void {
  type M = K | FaceMessage;
  type Ctx = FaceContext<U, M>;
  const { prefix, users, deps } = spec;
  const { config } = deps;
  const sessions = deps.sessionsOf(spec.name);
  const signInLimit = createSignInLimit({
    store: deps.rateLimits,
    clock: deps.clock,
    face: spec.name,
    secret: config.sessionSecret,
    limits: spec.signInLimits,
  });
  const asset = (file: string) => `${prefix}/assets/${file}`;
  const secure = config.env === 'production';

  void app.register(
    async (scope) => {
      const face = await registerWebFace(scope, {
        cookieName: spec.cookieName,
        csrfCookieName: `${spec.name}_csrf`,
        flashCookieName: `${spec.name}_flash`,
        path: prefix,
        secret: config.sessionSecret,
        secure,
        store: sessions,
        idleMs: spec.idleMs,
      });
      requireHttpsInProduction(scope, config, {
        name: spec.name,
        prefix,
        // In the face's frame, signed out, with no form token (a token would set the CSRF cookie).
        answer: (request, reply, words) => {
          const ctx = signedOutContext(request);
          const body = html`<div class="card narrow">
            <h1>${words.title}</h1>
            <p>${words.text}</p>
            <p>${words.operator}</p>
          </div>`;
          return send(request, reply, ctx, words.title, body, { status: reply.statusCode });
        },
      });
      const { csrf, flash } = face;

      const context = async (request: FastifyRequest, reply: FastifyReply): Promise<Ctx> => {
        const locale = requestLocale(request);
        const userId = request.session.get('userId');
        const user = userId === undefined ? null : ((await users.get(userId)) ?? null);
        return { t: translator(spec.catalogue, locale), locale, csrf: face.csrfToken(request, reply), user };
      };

      const send: FaceKit<U, M>['send'] = (request, reply, ctx, title, body, options = {}) => {
        const shown = flash.take(request, reply);
        const { stylesheet, script, chart } = spec.assets();
        const path = request.url.split('?')[0] ?? '';
        const nav: NavItem[] =
          ctx.user === null
            ? []
            : spec.nav(ctx.user, ctx.t).map(({ href, label }) => ({
                href: prefix + href,
                label,
                current: path === prefix + href || path.startsWith(`${prefix}${href}/`),
              }));
        return reply
          .code(options.status ?? 200)
          .type('text/html; charset=utf-8')
          .send(
            layout({
              locale: ctx.locale,
              title,
              faceName: ctx.t('faceName'),
              home: `${prefix}/`,
              nav,
              userName: ctx.user?.name ?? null,
              csrfToken: ctx.csrf,
              flash: shown,
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
              signOutAction: `${prefix}/sign-out`,
              languageAction: `${prefix}/language`,
              currentUrl: request.method === 'GET' ? request.url : `${prefix}/`,
            }),
          );
      };

      const redirect = (reply: FastifyReply, path: string) => reply.redirect(prefix + path, 303);

      const signedIn = async (request: FastifyRequest, reply: FastifyReply) => {
        const ctx = await context(request, reply);
        if (ctx.user === null) {
          await redirect(reply, '/sign-in');
          return null;
        }
        return ctx as SignedInContext<U, M>;
      };

      const message = (ctx: Ctx, title: string, text: string) =>
        html`<div class="card narrow">
          <h1>${title}</h1>
          <p>${text}</p>
          <p><a href="${prefix}/">${ctx.t('backHome')}</a></p>
        </div>`;

      const sendMessage = (
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: Ctx,
        title: M,
        text: M,
        status: number,
      ) => send(request, reply, ctx, ctx.t(title), message(ctx, ctx.t(title), ctx.t(text)), { status });

      /** A refusal of the request (face-refusals.ts): its page, status and headers, logged at info. */
      const sendRefusal = (
        request: FastifyRequest,
        reply: FastifyReply,
        ctx: Ctx,
        refusal: FaceRefusal,
        error?: unknown,
      ) => {
        prepareRefusal(spec.name, request, reply, refusal, error);
        const { title, text } = refusalWords(ctx.t, refusal);
        return send(request, reply, ctx, title, message(ctx, title, text), { status: refusal.status });
      };
      const signedOutContext = (request: FastifyRequest): Ctx => {
        const locale = requestLocale(request);
        return { t: translator(spec.catalogue, locale), locale, csrf: '', user: null };
      };

      scope.addHook('preValidation', refuseNulCharacters);
      scope.addHook('preValidation', requireFormBody);
      scope.setNotFoundHandler(async (request, reply) =>
        sendRefusal(request, reply, await context(request, reply), notFoundRefusal(request, scope)),
      );
      scope.setErrorHandler(async (error, request, reply) => {
        const ctx: Ctx = (await context(request, reply).catch(() => null)) ?? signedOutContext(request);
        const refusal = refusalOf(error);
        if (refusal !== null) return sendRefusal(request, reply, ctx, refusal, error);
        request.log.error({ err: error }, `${spec.name}: unexpected error`);
        return sendMessage(request, reply, ctx, 'errorTitle', 'errorText', 500);
      });
      // A path the router cannot decode never reaches this scope: the listener asks the face for its page.
      addFaceRefusalAnswer(app, prefix, (request, reply, refusal) => {
        setPageHeaders(reply);
        void sendRefusal(request, reply, signedOutContext(request), refusal);
      });

      scope.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
        const { stylesheet, script, chart } = spec.assets();
        const found = [stylesheet, script, chart].find((a) => a.file === request.params.file);
        if (found === undefined) {
          reply.callNotFound();
          return reply;
        }
        return sendWebAsset(request, reply, found);
      });

      scope.get('/', async (request, reply) => {
        const ctx = await context(request, reply);
        return redirect(reply, ctx.user === null ? '/sign-in' : spec.home);
      });

      scope.post<{ Body: { lang?: string; back?: string } }>(
        '/language',
        { preHandler: csrf },
        async (request, reply) => {
          const lang = request.body.lang;
          if (isLocale(lang)) {
            void reply.setCookie(LOCALE_COOKIE, lang, {
              path: prefix,
              sameSite: 'lax',
              httpOnly: true,
              secure: config.env === 'production',
              maxAge: 365 * 86_400,
            });
          }
          // Back to the page the switch was on (the pages send no Referer): only a safe path of the face.
          const back = request.body.back;
          return reply.redirect(isSafeFacePath(prefix, back) ? back : `${prefix}/`, 303);
        },
      );

      // ---- Sign-in, sign-out, passwords ----

      const signInPage = (ctx: Ctx, email: string, error: string | null) =>
        html` <div class="card narrow">
          <h1>${ctx.t('signInTitle')}</h1>
          ${error === null ? '' : html`<div class="error" role="alert" id="signin-error">${error}</div>`}
          <form method="post" action="${prefix}/sign-in">
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
              ${spec.signInLinks?.(ctx) ?? ''}
            </div>
          </form>
        </div>`;

      scope.get('/sign-in', async (request, reply) => {
        const ctx = await context(request, reply);
        if (ctx.user !== null) return redirect(reply, spec.home);
        if (spec.beforeSignIn !== undefined && (await spec.beforeSignIn(request, reply))) return reply;
        return send(request, reply, ctx, ctx.t('signInTitle'), signInPage(ctx, '', null));
      });

      scope.post<{ Body: { email?: string; password?: string } }>(
        '/sign-in',
        { preHandler: csrf },
        async (request, reply) => {
          const email = formText(request.body.email).slice(0, 254);
          const password = formText(request.body.password).slice(0, PASSWORD_MAX);
          const admission = await signInLimit.admit(email, request.ip);
          if (!admission.ok) {
            const ctx = await context(request, reply);
            reply.header('retry-after', String(admission.retryAfterSeconds));
            const minutes = Math.ceil(admission.retryAfterSeconds / 60);
            const page = signInPage(ctx, email, ctx.t('signInLimited', { minutes }));
            return send(request, reply, ctx, ctx.t('signInTitle'), page, { status: 429 });
          }
          const user = await users.authenticate(email, password);
          if (user === null) {
            const ctx = await context(request, reply);
            const page = signInPage(ctx, email, ctx.t('signInFailed'));
            return send(request, reply, ctx, ctx.t('signInTitle'), page, { status: 401 });
          }
          // A new session id at sign-in: a session id planted before it is worth nothing after.
          await request.session.regenerate();
          request.session.set('userId', user.id);
          await spec.onSession?.('signIn', user, request);
          return redirect(reply, spec.home);
        },
      );

      scope.post('/sign-out', { preHandler: csrf }, async (request, reply) => {
        const userId = request.session.get('userId');
        const user = userId === undefined ? undefined : await users.get(userId);
        await request.session.destroy();
        // The browser forgets the id as well: its row is gone, the cookie would point at nothing.
        void reply.clearCookie(spec.cookieName, { path: prefix, httpOnly: true, sameSite: 'lax', secure });
        if (user !== undefined) await spec.onSession?.('signOut', user, request);
        return redirect(reply, '/sign-in');
      });

      const passwordProblem = (t: Translate<M>, next: string, again: string): string | null => {
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
        const why = reason === 'expired' ? 'linkExpired' : reason === 'used' ? 'linkUsed' : 'linkUnknown';
        return sendMessage(request, reply, ctx, 'setPasswordTitle', why, 410);
      };

      const setPasswordPage = (ctx: Ctx, token: string, name: string, error: string | null) =>
        html` <div class="card narrow">
          <h1>${ctx.t('setPasswordTitle')}</h1>
          <p>${ctx.t('setPasswordIntro', { name, min: PASSWORD_MIN })}</p>
          <form method="post" action="${prefix}/set-password">
            ${csrfField(ctx.csrf)}
            <input type="hidden" name="token" value="${token}" />
            ${newPasswordFields(ctx, error)}
            <div class="actions"><button type="submit">${ctx.t('setPasswordButton')}</button></div>
          </form>
        </div>`;

      scope.get<{ Querystring: { token?: string } }>('/set-password', async (request, reply) => {
        const ctx = await context(request, reply);
        const token = formText(request.query.token);
        const link = await users.link(token);
        if (!link.ok) return sendLinkGone(request, reply, ctx, link.reason);
        const page = setPasswordPage(ctx, token, link.user.name, null);
        return send(request, reply, ctx, ctx.t('setPasswordTitle'), page);
      });

      scope.post<{ Body: { token?: string; password?: string; confirm?: string } }>(
        '/set-password',
        { preHandler: csrf },
        async (request, reply) => {
          const ctx = await context(request, reply);
          const token = formText(request.body.token);
          const link = await users.link(token);
          if (!link.ok) return sendLinkGone(request, reply, ctx, link.reason);
          const password = formText(request.body.password);
          const problem = passwordProblem(ctx.t, password, formText(request.body.confirm));
          if (problem !== null) {
            const page = setPasswordPage(ctx, token, link.user.name, problem);
            return send(request, reply, ctx, ctx.t('setPasswordTitle'), page, { status: 422 });
          }
          const done = await users.setPasswordWithLink(token, password);
          if (!done.ok) return sendLinkGone(request, reply, ctx, done.reason);
          // A reset ends every session of the user (someone else may have had the old password).
          await sessions.endUserSessions(done.user.id);
          flash.set(request, ctx.t('passwordSet'));
          return redirect(reply, '/sign-in');
        },
      );

      // `formError`: what is wrong with the attempt as a whole (the current password, too many attempts).
      const changePasswordPage = (ctx: Ctx, error: string | null, formError: string | null) =>
        html` <div class="card narrow">
          <h1>${ctx.t('changePasswordTitle')}</h1>
          <form method="post" action="${prefix}/account/password">
            ${csrfField(ctx.csrf)}
            ${formError === null ? '' : html`<div class="error" role="alert">${formError}</div>`}
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

      scope.get('/account/password', async (request, reply) => {
        const ctx = await signedIn(request, reply);
        if (ctx === null) return reply;
        return send(request, reply, ctx, ctx.t('changePasswordTitle'), changePasswordPage(ctx, null, null));
      });

      scope.post<{ Body: { current?: string; password?: string; confirm?: string } }>(
        '/account/password',
        { preHandler: csrf },
        async (request, reply) => {
          const ctx = await signedIn(request, reply);
          if (ctx === null) return reply;
          const title = ctx.t('changePasswordTitle');
          const password = formText(request.body.password);
          const problem = passwordProblem(ctx.t, password, formText(request.body.confirm));
          if (problem !== null) {
            return send(request, reply, ctx, title, changePasswordPage(ctx, problem, null), { status: 422 });
          }
          // Every attempt counts per user, across sessions and processes: a wrong current password is a
          // guess at it; the form's own problems above are not.
          const admission = await signInLimit.admitPasswordChange(ctx.user.id);
          if (!admission.ok) {
            reply.header('retry-after', String(admission.retryAfterSeconds));
            const minutes = Math.ceil(admission.retryAfterSeconds / 60);
            const limited = changePasswordPage(ctx, null, ctx.t('passwordChangeLimited', { minutes }));
            return send(request, reply, ctx, title, limited, { status: 429 });
          }
          const current = formText(request.body.current).slice(0, PASSWORD_MAX);
          if (!(await users.changePassword(ctx.user.id, current, password))) {
            return send(
              request,
              reply,
              ctx,
              title,
              changePasswordPage(ctx, null, ctx.t('currentPasswordWrong')),
              { status: 422 },
            );
          }
          await sessions.endUserSessions(ctx.user.id, request.session.sessionId);
          await spec.onSession?.('changePassword', ctx.user, request);
          flash.set(request, ctx.t('passwordChanged'));
          return redirect(reply, spec.home);
        },
      );

      spec.pages(scope, {
        prefix,
        send,
        context,
        signedIn,
        redirect,
        message,
        csrf,
        flash: (request, text) => {
          flash.set(request, text);
        },
        sessions,
        signInLimit,
      });
    },
    { prefix },
  );
}
