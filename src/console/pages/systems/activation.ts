import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit } from '../../console-kit.js';
import { inputOf } from './system-form.js';
import { identifierOf, systemUrl, targetOf, type Params } from './system-paths.js';
import { systemOutcomeValue } from '../../../helpdesk/system-refusal.js';

// Deactivating and reactivating a system (the operator), its other settings kept
// (GET, POST /console/systems/:identifier/deactivate and /reactivate).

export function registerSystemActivationPages(kit: ConsoleKit): void {
  const { systems } = kit.services;

  for (const [path, active] of [
    ['/deactivate', false],
    ['/reactivate', true],
  ] as const) {
    const words = active
      ? ({
          title: 'sysReactivateTitle',
          intro: 'sysReactivateIntro',
          button: 'sysReactivate',
          done: 'sysReactivated',
        } as const)
      : ({
          title: 'sysDeactivateTitle',
          intro: 'sysDeactivateIntro',
          button: 'sysDeactivate',
          done: 'sysDeactivated',
        } as const);

    kit.page<Params>(`/systems/:identifier${path}`, 'systems', async (request, reply, ctx) => {
      const { t } = ctx;
      const system = await systems.get(identifierOf(request));
      const title = t(words.title, { name: system.name });
      const back = html`<a href="${systemUrl(system.identifier)}">${t('sysCancel')}</a>`;
      const body =
        system.active === active
          ? html`<div class="card narrow">
              <h1>${title}</h1>
              <p role="status">
                ${t(active ? 'sysAlreadyActive' : 'sysAlreadyInactive', { name: system.name })}
              </p>
              <p>${back}</p>
            </div>`
          : html`<h1>${title}</h1>
              <form method="post" action="${systemUrl(system.identifier, path)}" class="card">
                ${csrfField(ctx.csrf)}
                <p>${t(words.intro, { name: system.name, identifier: system.identifier })}</p>
                <div class="actions">
                  <button type="submit" class="${active ? '' : 'danger'}">${t(words.button)}</button>
                  ${back}
                </div>
              </form>`;
      return kit.send(request, reply, ctx, title, body);
    });

    kit.action<Params>(`/systems/:identifier${path}`, 'systems', async (request, reply, ctx) => {
      const system = await systems.get(identifierOf(request));
      const input = inputOf(system, active);
      systemOutcomeValue(await systems.put(system.identifier, input, ctx.actor));
      await kit.record(ctx, {
        action: 'putHelpDeskSystem',
        target: targetOf(system.identifier),
        details: { request_id: request.id, body: input },
      });
      kit.flash(request, ctx.t(words.done, { name: system.name }));
      return kit.redirect(reply, `/systems/${encodeURIComponent(system.identifier)}`);
    });
  }
}
