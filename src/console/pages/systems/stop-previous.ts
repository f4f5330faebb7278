import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit } from '../../console-kit.js';
import { identifierOf, systemUrl, targetOf, type Params } from './system-paths.js';
import { instantOr, previousValid } from './system-views.js';
import { systemOutcomeValue } from '../../../helpdesk/system-refusal.js';

// Stopping the previous key of a rotation at once (support and operator), for a leaked key
// (GET, POST /console/systems/:identifier/stop-previous).

export function registerStopPreviousKeyPages(kit: ConsoleKit): void {
  const { systems, clock } = kit.services;

  kit.page<Params>('/systems/:identifier/stop-previous', 'stopPreviousKey', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    const title = t('sysStopTitle', { name: system.name });
    const back = html`<a href="${systemUrl(system.identifier)}"
      >${t('sysBackToSystem', { name: system.name })}</a
    >`;
    if (!previousValid(system, clock.now())) {
      return kit.send(
        request,
        reply,
        ctx,
        title,
        html`<div class="card narrow">
          <h1>${title}</h1>
          <p role="status">${t('sysStopNone')}</p>
          <p>${back}</p>
        </div>`,
      );
    }
    const body = html`<h1>${title}</h1>
      <form method="post" action="${systemUrl(system.identifier, '/stop-previous')}" class="card">
        ${csrfField(ctx.csrf)}
        <p>
          ${t('sysStopIntro', {
            until: formatInstant(system.previousValidUntil ?? 0, locale),
            used: instantOr(system.previousKeyLastUsedAt, locale, t('neverUsed')),
          })}
        </p>
        <p>${t('sysStopEffect')}</p>
        <div class="actions">
          <button type="submit" class="danger">${t('sysStopConfirm')}</button>
          ${back}
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body);
  });

  kit.action<Params>('/systems/:identifier/stop-previous', 'stopPreviousKey', async (request, reply, ctx) => {
    const identifier = identifierOf(request);
    const result = systemOutcomeValue(await systems.stopPreviousKey(identifier, ctx.actor));
    await kit.record(ctx, {
      action: 'stopPreviousHelpDeskSystemKey',
      target: targetOf(identifier, '/keys/stop-previous'),
      details: { request_id: request.id, stopped: result.stopped },
    });
    kit.flash(request, ctx.t(result.stopped ? 'sysStopped' : 'sysStopNone', { name: result.system.name }));
    return kit.redirect(reply, `/systems/${encodeURIComponent(identifier)}`);
  });
}
