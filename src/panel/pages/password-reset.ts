import type { FastifyInstance } from 'fastify';
import type { FaceContext } from '../../web/face.js';
import { formText } from '../../web/form.js';
import { html, type SafeHtml } from '../../web/html.js';
import { requestLocale, translator } from '../../web/i18n.js';
import { csrfField } from '../../web/layout.js';
import { PANEL_PREFIX, type PanelKit } from '../panel-kit.js';
import { PANEL_MESSAGES, type PanelMessage } from '../panel-messages.js';

/** The merchant's own way back in: a one-time link valid 1 hour, sent by e-mail. */
export function registerPasswordReset(panel: FastifyInstance, kit: PanelKit): void {
  const { send, context, redirect, csrf, signInLimit, services } = kit;
  panel.get('/password-reset', async (request, reply) => {
    const ctx = await context(request, reply);
    return send(request, reply, ctx, ctx.t('resetTitle'), passwordResetView(ctx));
  });

  panel.post<{ Body: { email?: string } }>(
    '/password-reset',
    { preHandler: csrf },
    async (request, reply) => {
      const email = formText(request.body.email);
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

/** The form that asks for a reset link. */
function passwordResetView(ctx: FaceContext<unknown, PanelMessage>): SafeHtml {
  return html`<div class="card narrow">
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
  </div>`;
}
