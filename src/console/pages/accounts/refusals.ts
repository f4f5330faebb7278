import { REFUSALS_KEPT, type Refusal } from '../../../observability/refusal-log.js';
import { formText } from '../../../web/form.js';
import { html } from '../../../web/html.js';
import { refusalKeyFilter, refusalTable } from '../../../web/refusal-table.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { accountHref, keyPath, type AccountParams } from './accounts-view.js';

// An account's last refusals (support), from the shared refusal log
// (GET /console/accounts/:account/refusals, `?key=<id>` for one key's, as the merchant panel shows a key's):
// each with the code linked to its explanation on the documentation pages, the param and detail the
// merchant's integration read, and the key it came with.

export function registerAccountRefusalsPage(kit: ConsoleKit): void {
  const { services } = kit;
  const { posData, merchantKeys } = services;

  kit.page<AccountParams & { Querystring: { key?: unknown } }>(
    '/accounts/:account/refusals',
    'readRefusals',
    async (request, reply, ctx) => {
      const { t, locale } = ctx;
      const account = await posData.account(request.params.account);
      const keys = await merchantKeys.list(account.id);
      const wanted = formText(request.query.key).trim();
      // A key of another account, or none, is not found, as its own page is.
      const key = wanted === '' ? null : await merchantKeys.get(account.id, wanted);
      let refusals: Refusal[] | null;
      try {
        refusals = await services.refusals.list({ kind: 'account', id: account.id }, REFUSALS_KEPT);
      } catch {
        // The shared store does not answer (the admin API's 503): say so, and count it as the API does.
        services.metrics.refusalLogFailed();
        refusals = null;
      }
      const shown = key === null ? refusals : (refusals?.filter((r) => r.credential === key.id) ?? null);
      const keyNames = new Map(keys.map((k) => [k.id, k.name]));
      const title = t('accRefusalsTitle', { name: account.name });
      const table = (list: Refusal[]) =>
        refusalTable(list, {
          t,
          locale,
          docsOrigin: services.config.publicBaseUrl,
          key: (credential) =>
            credential === null
              ? '—'
              : html`<a href="${CONSOLE_PREFIX}${keyPath(account.id, credential)}"
                  >${keyNames.get(credential) ?? credential}</a
                >`,
        });
      const body = html`<p class="crumbs">
          <a href="${CONSOLE_PREFIX}/accounts">${t('accListTitle')}</a> ›
          <a href="${accountHref(account.id)}">${account.name}</a> › ${t('accRefusals')}
        </p>
        <h1>${title}</h1>
        <p class="hint">${t('accRefusalsIntro', { kept: REFUSALS_KEPT })}</p>
        ${
          keys.length === 0
            ? ''
            : refusalKeyFilter({
                t,
                action: accountHref(account.id, '/refusals'),
                keys,
                selected: key?.id ?? null,
              })
        }
        ${
          shown === null
            ? html`<div class="error" role="alert">${t('accRefusalsUnavailable')}</div>`
            : shown.length === 0
              ? html`<p role="status">
                  ${key === null ? t('accRefusalsEmpty') : t('accRefusalsKeyEmpty', { name: key.name, kept: REFUSALS_KEPT })}
                </p>`
              : html`<p role="status">${t('accRefusalsCount', { count: shown.length })}</p>
                  ${table(shown)}`
        }
        <p><a href="${accountHref(account.id)}">${t('accBackToAccount', { name: account.name })}</a></p>`;
      return kit.send(request, reply, ctx, title, body, { status: refusals === null ? 503 : 200 });
    },
  );
}
