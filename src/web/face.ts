import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createSignInLimit } from '../identity/sign-in-limit.js';
import { faceFrame, type FaceFrame } from './face-frame.js';
import type { FaceContext, FaceMessage, FaceSpec, FaceUser } from './face-kit.js';
import { registerPasswordPages } from './face-password-pages.js';
import { isSafeFacePath } from './face-path.js';
import {
  addFaceRefusalAnswer,
  notFoundRefusal,
  prepareRefusal,
  refusalOf,
  refuseNulCharacters,
  refusalWords,
  type FaceRefusal,
} from './face-refusals.js';
import { registerSignInPages } from './face-sign-in-pages.js';
import { requireFormBody } from './form-body.js';
import { html } from './html.js';
import { requireHttpsInProduction } from './https-only.js';
import { isLocale, LOCALE_COOKIE } from './i18n.js';
import { sendWebAsset } from './web-assets.js';
import { registerWebFace, setPageHeaders } from './web-face.js';

// A web face (the merchant panel, the back-office console) as one plugin: its scope under a prefix with
// the session, CSRF and form plugins, its assets, the language switch, error pages, and the pages every
// face has the same way: sign-in, sign-out, setting a password through a one-time link, changing it.
// The face brings its users, its texts, its navigation and its own pages, which it registers with the
// kit handed to it (send a page, require a signed-in user, redirect within the face).

export type { FaceAssets, FaceContext, FaceKit, FaceSpec, FaceUser, SignedInContext } from './face-kit.js';
export { formText } from './form.js';

/** Registers a face under its prefix. */
export function registerFace<U extends FaceUser, K extends string>(
  app: FastifyInstance,
  spec: FaceSpec<U, K>,
): void {
  const { prefix, deps } = spec;
  const { config } = deps;
  const sessions = deps.sessionsOf(spec.name);
  const signInLimit = createSignInLimit({
    store: deps.rateLimits,
    clock: deps.clock,
    face: spec.name,
    secret: config.sessionSecret,
    limits: spec.signInLimits,
  });
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
      const kit = faceFrame(spec, face, sessions, signInLimit);
      const { send, signedOutContext } = kit;
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
      registerFaceAnswers(app, scope, spec, kit);
      registerFaceBasics(scope, spec, kit);
      registerSignInPages(scope, spec, kit);
      registerPasswordPages(scope, spec, kit);
      const { signedOutContext: _signedOut, ...pagesKit } = kit;
      spec.pages(scope, pagesKit);
    },
    { prefix },
  );
}

/** The face's answers to what no page answers: refusals, pages not found, unexpected errors. */
function registerFaceAnswers<U extends FaceUser, K extends string>(
  app: FastifyInstance,
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceFrame<U, K | FaceMessage>,
): void {
  type M = K | FaceMessage;
  type Ctx = FaceContext<U, M>;
  const { prefix } = spec;
  const { send, message, sendMessage, context, signedOutContext } = kit;

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
}

/** The face's files, its home and its language switch. */
function registerFaceBasics<U extends FaceUser, K extends string>(
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceFrame<U, K | FaceMessage>,
): void {
  const { prefix, deps } = spec;
  const { config } = deps;
  const { context, redirect, csrf } = kit;
  scope.get<{ Params: { file: string } }>('/assets/:file', async (request, reply) => {
    const { stylesheet, script, chart, icon } = spec.assets();
    const found = [stylesheet, script, chart, icon].find((a) => a.file === request.params.file);
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
}
