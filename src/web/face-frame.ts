import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbSessionStore } from '../identity/session-store.js';
import type { SignInLimit } from '../identity/sign-in-limit.js';
import type { FaceContext, FaceKit, FaceMessage, FaceSpec, FaceUser, SignedInContext } from './face-kit.js';
import { html } from './html.js';
import { requestLocale, translator } from './i18n.js';
import { layout, type NavItem } from './layout.js';
import type { WebFace } from './web-face.js';

// The kit a face's pages are written with, over its session, CSRF and flash plugins: a page's context
// (language, form token, user), a page sent in the face's frame with its navigation, redirects within
// the face, and the short message card.

/** The kit, and the context of a page answered before anything of the request is known. */
export interface FaceFrame<U extends FaceUser, M extends string> extends FaceKit<U, M> {
  /** Signed out, with no form token (a token would set the CSRF cookie). */
  readonly signedOutContext: (request: FastifyRequest) => FaceContext<U, M>;
  /** A page holding only the message card of `title` and `text`, with this status. */
  readonly sendMessage: (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: FaceContext<U, M>,
    title: M,
    text: M,
    status: number,
  ) => ReturnType<FaceKit<U, M>['send']>;
}

/** Builds a face's kit over its web face plugins. */
export function faceFrame<U extends FaceUser, K extends string>(
  spec: FaceSpec<U, K>,
  face: WebFace,
  sessions: DbSessionStore,
  signInLimit: SignInLimit,
): FaceFrame<U, K | FaceMessage> {
  type M = K | FaceMessage;
  type Ctx = FaceContext<U, M>;
  const { prefix, users } = spec;
  const { flash } = face;
  const asset = (file: string) => `${prefix}/assets/${file}`;

  const context = async (request: FastifyRequest, reply: FastifyReply): Promise<Ctx> => {
    const locale = requestLocale(request);
    const userId = request.session.get('userId');
    const user = userId === undefined ? null : ((await users.get(userId)) ?? null);
    return { t: translator(spec.catalogue, locale), locale, csrf: face.csrfToken(request, reply), user };
  };

  const send: FaceKit<U, M>['send'] = (request, reply, ctx, title, body, options = {}) => {
    const shown = flash.take(request, reply);
    const { stylesheet, script, chart, icon } = spec.assets();
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
          icon: asset(icon.file),
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

  const sendMessage: FaceFrame<U, M>['sendMessage'] = (request, reply, ctx, title, text, status) =>
    send(request, reply, ctx, ctx.t(title), message(ctx, ctx.t(title), ctx.t(text)), { status });

  const signedOutContext = (request: FastifyRequest): Ctx => {
    const locale = requestLocale(request);
    return { t: translator(spec.catalogue, locale), locale, csrf: '', user: null };
  };

  return {
    prefix,
    send,
    context,
    signedIn,
    redirect,
    message,
    sendMessage,
    csrf: face.csrf,
    flash: (request, text) => {
      flash.set(request, text);
    },
    sessions,
    signInLimit,
    signedOutContext,
  };
}
