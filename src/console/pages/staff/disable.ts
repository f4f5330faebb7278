import type { FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../../errors/problem.js';
import type { StaffUser } from '../../../staff/staff-user-service.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { staffUrl, staffReplies } from './staff-views.js';

// Disabling a staff user: never oneself, never the last operator who can sign in
// (GET, POST /console/staff/:id/disable).

export function registerDisableStaffUserPages(kit: ConsoleKit): void {
  const { staffUsers } = kit.services;
  const { userOf, refusal } = staffReplies(kit);

  /** Why this operator may not disable this user, as a page; null when they may. */
  const disableRefusal = (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    user: StaffUser,
  ): FastifyReply | null => {
    const { t } = ctx;
    // The console's own rule: the service does not know who is at the keyboard. (Signed in, the
    // operator can sign in, so the service's last-operator rule is not what stops them here.)
    if (user.id === ctx.user.id) {
      return refusal(request, reply, ctx, t('staffNotYourselfTitle'), t('staffNotYourself'), 422);
    }
    if (user.disabledAt !== null) {
      const title = t('staffDisableTitle', { name: user.name });
      return refusal(request, reply, ctx, title, t('staffAlreadyDisabled', { name: user.name }), 409);
    }
    return null;
  };

  kit.page<{ Params: { id: string } }>('/staff/:id/disable', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const refused = disableRefusal(request, reply, ctx, user);
    if (refused !== null) return refused;
    const title = t('staffDisableTitle', { name: user.name });
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        <form method="post" action="${staffUrl(user.id, 'disable')}" class="card">
          ${csrfField(ctx.csrf)}
          <p>${t('staffDisableIntro', { name: user.name, email: user.email })}</p>
          <div class="actions">
            <button type="submit" class="danger">${t('staffDisableButton', { name: user.name })}</button>
            <a href="${CONSOLE_PREFIX}/staff">${t('staffCancel')}</a>
          </div>
        </form>`,
    );
  });

  kit.action<{ Params: { id: string } }>('/staff/:id/disable', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const refused = disableRefusal(request, reply, ctx, user);
    if (refused !== null) return refused;
    try {
      await staffUsers.disable(user.id, ctx.actor);
    } catch (error) {
      // The last operator who can sign in: another operator was disabled at the same moment.
      if (!(error instanceof Problem && error.status === 409)) throw error;
      const text = t('staffLastOperator', { name: user.name });
      return refusal(request, reply, ctx, t('staffLastOperatorTitle'), text, 409);
    }
    kit.flash(request, t('staffDisabled', { name: user.name }));
    return kit.redirect(reply, '/staff');
  });
}
