import { formText } from '../../../web/face.js';
import { textField } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { systemUrl } from './system-paths.js';
import { activeText, instantOr, keyStateText, previousValid } from './system-views.js';

// The list of partner systems, with a filter by identifier or name (GET /console/systems).

export function registerSystemListPage(kit: ConsoleKit): void {
  const { systems, clock } = kit.services;

  kit.page<{ Querystring: { q?: string } }>('/systems', 'read', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const q = formText(request.query.q).trim().slice(0, 100);
    const needle = q.toLowerCase();
    const all = await systems.list();
    const shown = all.filter(
      (s) => needle === '' || [s.identifier, s.name].some((text) => text.toLowerCase().includes(needle)),
    );
    const now = clock.now();
    const table =
      shown.length === 0
        ? html`<p role="status">${q === '' ? t('sysNone') : t('findNone', { q })}</p>`
        : html`${q === '' ? '' : html`<p role="status">${t('findCount', { count: shown.length })}</p>`}
            <div class="table-wrap">
              <table class="stack" id="systems">
                <thead>
                  <tr>
                    <th scope="col">${t('colIdentifier')}</th>
                    <th scope="col">${t('colName')}</th>
                    <th scope="col">${t('colState')}</th>
                    <th scope="col">${t('sysKey')}</th>
                    <th scope="col">${t('sysLastUse')}</th>
                    <th scope="col">${t('sysPreviousLastUse')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${shown.map(
                    (s) =>
                      html`<tr data-system="${s.identifier}">
                        <td data-label="${t('colIdentifier')}">
                          <a href="${systemUrl(s.identifier)}"><code>${s.identifier}</code></a>
                        </td>
                        <td data-label="${t('colName')}">${s.name}</td>
                        <td data-label="${t('colState')}">${activeText(t, s.active)}</td>
                        <td data-label="${t('sysKey')}">${keyStateText(t, s, now, locale)}</td>
                        <td data-label="${t('sysLastUse')}">
                          ${s.hasKey ? instantOr(s.keyLastUsedAt, locale, t('neverUsed')) : '—'}
                        </td>
                        <td data-label="${t('sysPreviousLastUse')}">
                          ${previousValid(s, now) ? instantOr(s.previousKeyLastUsedAt, locale, t('neverUsed')) : '—'}
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`;
    const body = html`<h1>${t('sysTitle')}</h1>
      <p>${t('sysIntro')}</p>
      ${
        ctx.can('systems')
          ? html`<p><a class="button" href="${CONSOLE_PREFIX}/systems/new">${t('sysCreate')}</a></p>`
          : ''
      }
      <form method="get" action="${CONSOLE_PREFIX}/systems" role="search" class="card">
        ${textField({ name: 'q', label: t('sysFilter'), value: q, hint: t('sysFilterHint') })}
        <div class="actions">
          <button type="submit">${t('sysFilterButton')}</button>
          ${q === '' ? '' : html`<a href="${CONSOLE_PREFIX}/systems">${t('sysFilterClear')}</a>`}
        </div>
      </form>
      ${table}`;
    return kit.send(request, reply, ctx, t('sysTitle'), body);
  });
}
