import type { Refusal } from '../../../observability/refusal-log.js';
import { html } from '../../../web/html.js';
import { refusalTable } from '../../../web/refusal-table.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { identifierOf, systemUrl, type Params } from './system-paths.js';

// A system's last refusals (support), from the shared refusal log (GET /console/systems/:identifier/refusals):
// each with the code linked to its explanation on the documentation pages, the param and detail the partner
// read, and the key used (the system's current or previous one).

export function registerSystemRefusalsPage(kit: ConsoleKit): void {
  const { services } = kit;
  const { systems } = services;

  kit.page<Params>('/systems/:identifier/refusals', 'readRefusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const system = await systems.get(identifierOf(request));
    let refusals: Refusal[] | null;
    try {
      refusals = await services.refusals.list({ kind: 'system', id: system.identifier });
    } catch {
      // The shared store does not answer: the page says so, as the admin API's 503 does.
      services.metrics.refusalLogFailed();
      refusals = null;
    }
    const title = t('sysRefusalsTitle', { name: system.name });
    const list =
      refusals === null
        ? html`<div class="error" role="alert">${t('sysRefusalsUnavailable')}</div>`
        : refusals.length === 0
          ? html`<p role="status">${t('sysRefusalsEmpty')}</p>`
          : refusalTable(refusals, {
              t,
              locale,
              docsOrigin: services.config.publicBaseUrl,
              key: (credential) =>
                credential === 'previous'
                  ? t('sysCredentialPrevious')
                  : credential === 'current'
                    ? t('sysCredentialCurrent')
                    : (credential ?? '—'),
            });
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/systems">${t('sysTitle')}</a> ›
        <a href="${systemUrl(system.identifier)}">${system.name}</a>
      </p>
      <h1>${title}</h1>
      <p>${t('sysRefusalsIntro')}</p>
      ${list}`;
    return kit.send(request, reply, ctx, title, body);
  });
}
