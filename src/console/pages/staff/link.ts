import { Problem } from '../../../errors/problem.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { staffUrl, staffReplies } from './staff-views.js';

// A fresh set-password link for a staff user (a forgotten password, a lost link), shown once
// (GET, POST /console/staff/:id/link).

export function registerStaffLinkPages(kit: ConsoleKit): void {
  const { staffUsers } = kit.services;
  const { userOf, refusal, sendLink } = staffReplies(kit);

  kit.page<{ Params: { id: string } }>('/staff/:id/link', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    const title = t('staffLinkTitle', { name: user.name });
    if (user.disabledAt !== null) {
      return refusal(request, reply, ctx, title, t('staffNoLinkDisabled', { name: user.name }), 409);
    }
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        <form method="post" action="${staffUrl(user.id, 'link')}" class="card">
          ${csrfField(ctx.csrf)}
          <p>${t('staffLinkIntro', { name: user.name })}</p>
          <div class="actions">
            <button type="submit">${t('staffLinkButton')}</button>
            <a href="${CONSOLE_PREFIX}/staff">${t('staffCancel')}</a>
          </div>
        </form>`,
    );
  });

  kit.action<{ Params: { id: string } }>('/staff/:id/link', 'staff', async (request, reply, ctx) => {
    const { t } = ctx;
    const user = await userOf(request.params.id);
    try {
      const link = await staffUsers.newPasswordLink(user.id, ctx.actor);
      return await sendLink(request, reply, ctx, t('staffLinkIssuedTitle', { name: user.name }), user, link);
    } catch (error) {
      // Disabled between the confirmation and the post.
      if (!(error instanceof Problem && error.status === 409)) throw error;
      const title = t('staffLinkTitle', { name: user.name });
      return refusal(request, reply, ctx, title, t('staffNoLinkDisabled', { name: user.name }), 409);
    }
  });
}
