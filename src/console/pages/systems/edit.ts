import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PartnerSystem } from '../../../helpdesk/system-repository.js';
import type { FormErrors } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { checked, formOf, formFromSystem, refusalErrors, type SystemForm } from './system-form.js';
import { systemFormView } from './system-form-view.js';
import { identifierOf, systemUrl, targetOf, type Params } from './system-paths.js';

// A system's settings (the operator), never its keys (GET, POST /console/systems/:identifier/edit).

export function registerEditSystemPages(kit: ConsoleKit): void {
  const { systems } = kit.services;
  const systemForm = systemFormView(kit);

  const editPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    system: PartnerSystem,
    form: SystemForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const title = t('sysEditTitle', { name: system.name });
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
        <a href="${systemUrl(system.identifier)}">${system.name}</a>
      </p>
      <h1>${title}</h1>
      <p>${t('sysEditIntro', { identifier: system.identifier })}</p>
      ${await systemForm(ctx, {
        action: systemUrl(system.identifier, '/edit'),
        form,
        errors,
        creating: false,
        submit: t('sysSave'),
      })}`;
    return kit.send(request, reply, ctx, title, body, { status });
  };

  kit.page<Params>('/systems/:identifier/edit', 'systems', async (request, reply, ctx) => {
    const system = await systems.get(identifierOf(request));
    return editPage(request, reply, ctx, system, formFromSystem(system), {});
  });

  kit.action<Params & { Body: Record<string, unknown> }>(
    '/systems/:identifier/edit',
    'systems',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const system = await systems.get(identifierOf(request));
      const form = formOf(request.body, system.identifier);
      const check = checked(ctx, form, false);
      if (!check.ok) return editPage(request, reply, ctx, system, form, check.errors, 422);
      // PUT keeps the keys: a change of settings never issues, rotates or stops one.
      const put = await systems.put(system.identifier, check.input, ctx.actor);
      if (!put.ok) return editPage(request, reply, ctx, system, form, refusalErrors(t, put), 422);
      await kit.record(ctx, {
        action: 'putHelpDeskSystem',
        target: targetOf(system.identifier),
        details: { request_id: request.id, body: check.input },
      });
      kit.flash(request, t('sysSaved', { name: check.input.name }));
      return kit.redirect(reply, `/systems/${encodeURIComponent(system.identifier)}`);
    },
  );
}
