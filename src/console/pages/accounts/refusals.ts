import { REFUSALS_KEPT, type Refusal } from '../../../observability/refusal-log.js';
import { formatInstant, formatTimeOfDay } from '../../../web/format.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref, keyPath, type AccountParams } from './accounts-view.js';

// An account's last refusals (support), from the shared refusal log
// (GET /console/accounts/:account/refusals).

export function registerAccountRefusalsPage(kit: ConsoleKit): void {
  const { services } = kit;
  const { posData, merchantKeys } = services;

  kit.page<AccountParams>('/accounts/:account/refusals', 'readRefusals', async (request, reply, ctx) => {
    const { t, locale } = ctx;
    const account = await posData.account(request.params.account);
    let refusals: Refusal[] | null;
    try {
      refusals = await services.refusals.list({ kind: 'account', id: account.id }, REFUSALS_KEPT);
    } catch {
      // The shared store does not answer (the admin API's 503): say so, and count it as the API does.
      services.metrics.refusalLogFailed();
      refusals = null;
    }
    const keyNames = new Map((await merchantKeys.list(account.id)).map((key) => [key.id, key.name]));
    const when = (at: string) => {
      const ms = Date.parse(at);
      return `${formatInstant(ms, locale).split(' ')[0] ?? ''} ${formatTimeOfDay(ms, true)}`;
    };
    const table = (list: Refusal[]) =>
      html`<div class="table-wrap">
        <table class="stack" id="refusals">
          <thead>
            <tr>
              <th scope="col">${t('accColWhenSeconds')}</th>
              <th scope="col" class="num">${t('accColStatus')}</th>
              <th scope="col">${t('accColCode')}</th>
              <th scope="col">${t('accColOperation')}</th>
              <th scope="col">${t('accColKey')}</th>
              <th scope="col">${t('accColRequestId')}</th>
            </tr>
          </thead>
          <tbody>
            ${list.map(
              (r) =>
                html`<tr data-request-id="${r.request_id}">
                  <td data-label="${t('accColWhenSeconds')}">${when(r.at)}</td>
                  <td class="num" data-label="${t('accColStatus')}">${String(r.status)}</td>
                  <td data-label="${t('accColCode')}"><code>${r.code ?? '—'}</code></td>
                  <td data-label="${t('accColOperation')}"><code>${r.operation}</code></td>
                  <td data-label="${t('accColKey')}">
                    ${
                      r.credential === null
                        ? '—'
                        : html`<a href="${CONSOLE_PREFIX}${keyPath(account.id, r.credential)}"
                            >${keyNames.get(r.credential) ?? r.credential}</a
                          >`
                    }
                  </td>
                  <td data-label="${t('accColRequestId')}"><code>${r.request_id}</code></td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`;
    const body = html`<p class="crumbs">
        <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
        <a href="${accountHref(account.id)}">${account.name}</a> › ${t('accRefusals')}
      </p>
      <h1>${t('accRefusalsTitle', { name: account.name })}</h1>
      <p class="hint">${t('accRefusalsIntro', { kept: REFUSALS_KEPT })}</p>
      ${
        refusals === null
          ? html`<div class="error" role="alert">${t('accRefusalsUnavailable')}</div>`
          : refusals.length === 0
            ? html`<p role="status">${t('accRefusalsEmpty')}</p>`
            : html`<p role="status">${t('accRefusalsCount', { count: refusals.length })}</p>
                ${table(refusals)}`
      }
      <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
    return kit.send(request, reply, ctx, t('accRefusalsTitle', { name: account.name }), body, {
      status: refusals === null ? 503 : 200,
    });
  });
}
