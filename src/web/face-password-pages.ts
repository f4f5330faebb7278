import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PASSWORD_MAX, PASSWORD_MIN } from '../identity/password-policy.js';
import type { FaceFrame } from './face-frame.js';
import type { FaceContext, FaceMessage, FaceSpec, FaceUser } from './face-kit.js';
import { formText } from './form.js';
import { html, type SafeHtml } from './html.js';
import type { Translate } from './i18n.js';
import { csrfField } from './layout.js';

// The password pages every face has the same way: setting a password through a one-time link, and a
// signed-in user changing their own.

/** Registers the face's set-password (one-time link) and change-password pages. */
export function registerPasswordPages<U extends FaceUser, K extends string>(
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceFrame<U, K | FaceMessage>,
): void {
  registerSetPassword(scope, spec, kit);
  registerChangePassword(scope, spec, kit);
}

/** Setting a password through a one-time link (an invitation, a reset). */
function registerSetPassword<U extends FaceUser, K extends string>(
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceFrame<U, K | FaceMessage>,
): void {
  type M = K | FaceMessage;
  type Ctx = FaceContext<U, M>;
  const { prefix, users } = spec;
  const { context, send, sendMessage, redirect, csrf, sessions } = kit;

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
      kit.flash(request, ctx.t('passwordSet'));
      return redirect(reply, '/sign-in');
    },
  );
}

/** A signed-in user changing their own password. */
function registerChangePassword<U extends FaceUser, K extends string>(
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceFrame<U, K | FaceMessage>,
): void {
  type Ctx = FaceContext<U, K | FaceMessage>;
  const { prefix, users } = spec;
  const { send, redirect, signedIn, csrf, signInLimit, sessions } = kit;
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
      kit.flash(request, ctx.t('passwordChanged'));
      return redirect(reply, spec.home);
    },
  );
}

/** What is wrong with a new password and its confirmation, or null. */
function passwordProblem<M extends string>(
  t: Translate<M | FaceMessage>,
  next: string,
  again: string,
): string | null {
  if (Array.from(next).length < PASSWORD_MIN) return t('passwordTooShort', { min: PASSWORD_MIN });
  if (Array.from(next).length > PASSWORD_MAX) return t('passwordTooLong', { max: PASSWORD_MAX });
  if (next !== again) return t('passwordsDiffer');
  return null;
}

/** The new password and its confirmation, with the form's error above them. */
function newPasswordFields<U, M extends string>(
  ctx: FaceContext<U, M | FaceMessage>,
  error: string | null,
): SafeHtml {
  return html` ${error === null ? '' : html`<div class="error" role="alert" id="password-error">${error}</div>`}
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
    <input type="password" id="confirm-password" name="confirm" autocomplete="new-password" required />`;
}
