import type { FastifyInstance } from 'fastify';
import { PASSWORD_MAX } from '../identity/password-policy.js';
import type { FaceContext, FaceKit, FaceMessage, FaceSpec, FaceUser } from './face-kit.js';
import { formText } from './form.js';
import { html } from './html.js';
import { csrfField } from './layout.js';

// The sign-in and sign-out every face has the same way. A failed or limited attempt shows the form again
// with what was typed as the e-mail address, never the password.

/** Registers the face's sign-in page, its form post and the sign-out. */
export function registerSignInPages<U extends FaceUser, K extends string>(
  scope: FastifyInstance,
  spec: FaceSpec<U, K>,
  kit: FaceKit<U, K | FaceMessage>,
): void {
  type Ctx = FaceContext<U, K | FaceMessage>;
  const { prefix, users } = spec;
  const { context, send, redirect, csrf, signInLimit } = kit;
  const secure = spec.deps.config.env === 'production';

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
}
