import type { FastifyReply, FastifyRequest } from 'fastify';
import { systemInput } from '../../../helpdesk/system-input.js';
import type { FormErrors } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import { shownOnceSecret } from '../../../web/shown-once.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { checked, formOf, refusalErrors, type SystemForm } from './system-form.js';
import { systemFormView } from './system-form-view.js';
import { systemUrl, targetOf } from './system-paths.js';
import { onceTexts } from './system-views.js';
import { systemOutcomeValue } from '../../../helpdesk/system-refusal.js';

// A new system (the operator): its settings, then its first key shown once (GET, POST /console/systems/new).

export function registerNewSystemPage(kit: ConsoleKit): void {
  const { systems } = kit.services;
  const systemForm = systemFormView(kit);

  const createPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    form: SystemForm,
    errors: FormErrors,
    status = 200,
  ) => {
    const { t } = ctx;
    const body = html`<p class="crumbs"><a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a></p>
      <h1>${t('sysCreateTitle')}</h1>
      <p>${t('sysCreateIntro')}</p>
      ${await systemForm(ctx, {
        action: `${CONSOLE_PREFIX}/systems/new`,
        form,
        errors,
        creating: true,
        submit: t('sysCreateButton'),
      })}`;
    return kit.send(request, reply, ctx, t('sysCreateTitle'), body, { status });
  };

  kit.page('/systems/new', 'systems', async (request, reply, ctx) =>
    createPage(
      request,
      reply,
      ctx,
      {
        identifier: '',
        name: '',
        active: true,
        scopes: ['help-desk-ticket.create'],
        rate_limit_per_minute: String(systemInput.shape.rate_limit_per_minute.parse(undefined)),
        key_grace_seconds: String(systemInput.shape.key_grace_seconds.parse(undefined)),
        default_category_id: '',
        released_category_ids: [],
      },
      {},
    ),
  );

  kit.action<{ Body: Record<string, unknown> }>('/systems/new', 'systems', async (request, reply, ctx) => {
    const { t } = ctx;
    const form = formOf(request.body);
    const check = checked(ctx, form, true);
    if (!check.ok) return createPage(request, reply, ctx, form, check.errors, 422);
    const { identifier, input } = check;
    // A PUT would replace an existing system's settings: creating refuses an identifier in use instead.
    if ((await systems.list()).some((s) => s.identifier === identifier)) {
      const errors = { identifier: t('sysIdentifierTaken', { identifier }) };
      return createPage(request, reply, ctx, form, errors, 409);
    }
    const put = await systems.put(identifier, input, ctx.actor);
    if (!put.ok) return createPage(request, reply, ctx, form, refusalErrors(t, put), 422);
    const { created } = put;
    const creation = (firstKey: boolean) =>
      kit.record(ctx, {
        action: 'putHelpDeskSystem',
        target: targetOf(identifier),
        details: {
          request_id: request.id,
          created,
          ...(created ? { first_key: firstKey } : {}),
          body: input,
        },
      });
    if (!created) {
      // Someone created it between the check and the PUT (its settings are now these, recorded as any PUT
      // is): its key is left alone rather than rotated into a previous key under their feet.
      await creation(false);
      const errors = { identifier: t('sysIdentifierTaken', { identifier }) };
      return createPage(request, reply, ctx, form, errors, 409);
    }
    // The first key is part of the creation: one row of the action log says both (`first_key: true`; the
    // key audit trail has the key's `issued`), not a creation and a rotation (docs/back-office.md). Written
    // even when the key could not be issued, so that the system's creation is never missing from the log.
    let key: string | undefined;
    try {
      key = systemOutcomeValue(await systems.rotateKey(identifier, ctx.actor)).key;
    } finally {
      await creation(key !== undefined);
    }
    const title = t('sysCreatedTitle', { identifier });
    return kit.send(
      request,
      reply,
      ctx,
      title,
      html`<h1>${title}</h1>
        ${shownOnceSecret(key, onceTexts(t), html`<p>${t('sysCreatedGive', { identifier })}</p>`)}
        <p><a href="${systemUrl(identifier)}">${t('sysOpenSystem', { name: input.name })}</a></p>`,
      { status: 201 },
    );
  });
}
