import type { Refusal } from '../../../observability/refusal-log.js';
import { formatInstant } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { identifierOf, systemUrl, type Params } from './system-paths.js';

// A system's last refusals (support), from the shared refusal log (GET /console/systems/:identifier/refusals).

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
          : html`<div class="table-wrap">
              <table class="stack" id="refusals">
                <thead>
                  <tr>
                    <th scope="col">${t('sysWhen')}</th>
                    <th scope="col" class="num">${t('sysStatus')}</th>
                    <th scope="col">${t('sysCode')}</th>
                    <th scope="col">${t('sysOperation')}</th>
                    <th scope="col">${t('sysCredential')}</th>
                    <th scope="col">${t('sysRequestId')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${refusals.map(
                    (r) =>
                      html`<tr data-request-id="${r.request_id}">
                        <td data-label="${t('sysWhen')}">${formatInstant(Date.parse(r.at), locale, true)}</td>
                        <td class="num" data-label="${t('sysStatus')}">${r.status}</td>
                        <td data-label="${t('sysCode')}">
                          ${r.code === null ? '—' : html`<code>${r.code}</code>`}
                        </td>
                        <td data-label="${t('sysOperation')}"><code>${r.operation}</code></td>
                        <td data-label="${t('sysCredential')}">
                          ${r.credential === 'previous' ? t('sysCredentialPrevious') : r.credential === 'current' ? t('sysCredentialCurrent') : (r.credential ?? '—')}
                        </td>
                        <td data-label="${t('sysRequestId')}"><code>${r.request_id}</code></td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
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
