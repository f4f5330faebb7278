import { formText } from '../../../web/face.js';
import { textField } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref, activeBadge, counts } from './accounts-view.js';

// The merchant accounts, with their active keys and a filter (GET /console/accounts).

export function registerAccountListPage(kit: ConsoleKit): void {
  const { posData, merchantKeys } = kit.services;

  kit.page<{ Querystring: { q?: string } }>('/accounts', 'read', async (request, reply, ctx) => {
    const { t } = ctx;
    const q = formText(request.query.q).trim().slice(0, 100);
    const needle = q.toLowerCase();
    const [accounts, keys] = await Promise.all([posData.listAccounts(), merchantKeys.listAll({})]);
    const active = new Map<string, number>();
    for (const key of keys.filter(counts)) active.set(key.accountId, (active.get(key.accountId) ?? 0) + 1);
    const shown =
      q === ''
        ? accounts
        : accounts.filter((a) =>
            [a.id, a.name, a.email ?? ''].some((text) => text.toLowerCase().includes(needle)),
          );
    const body = html`<h1>${t('accListTitle')}</h1>
      ${
        ctx.can('merchants')
          ? html`<p><a class="button" href="${CONSOLE_PREFIX}/accounts/new-account">${t('accNew')}</a></p>`
          : ''
      }
      <form method="get" action="${CONSOLE_PREFIX}/accounts" role="search" class="card">
        ${textField({ name: 'q', label: t('accFilterLabel'), value: q, hint: t('accFilterHint') })}
        <div class="actions"><button type="submit">${t('accFilterButton')}</button></div>
      </form>
      <p role="status">
        ${
          shown.length === 0
            ? q === ''
              ? t('accListEmpty')
              : t('accListNone', { q })
            : t('accListCount', { count: shown.length })
        }
      </p>
      ${
        shown.length === 0
          ? ''
          : html`<div class="table-wrap">
              <table class="stack" id="accounts">
                <thead>
                  <tr>
                    <th scope="col">${t('colIdentifier')}</th>
                    <th scope="col">${t('colName')}</th>
                    <th scope="col">${t('email')}</th>
                    <th scope="col" class="num">${t('accColActiveKeys')}</th>
                    <th scope="col">${t('colState')}</th>
                  </tr>
                </thead>
                <tbody>
                  ${shown.map(
                    (a) =>
                      html`<tr data-account="${a.id}">
                        <td data-label="${t('colIdentifier')}">
                          <a href="${accountHref(a.id)}">${a.id}</a>
                        </td>
                        <td data-label="${t('colName')}">${a.name}</td>
                        <td data-label="${t('email')}">${a.email ?? '—'}</td>
                        <td class="num" data-label="${t('accColActiveKeys')}">
                          ${String(active.get(a.id) ?? 0)}
                        </td>
                        <td data-label="${t('colState')}">${activeBadge(t, a.active)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }`;
    return kit.send(request, reply, ctx, t('accListTitle'), body);
  });
}
