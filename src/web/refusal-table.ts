import { problemDocPath } from '../docs/problem-codes.js';
import type { Refusal } from '../observability/refusal-log.js';
import { formatInstant } from './format.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';
import type { Catalogue, Locale, Translate } from './i18n.js';

// A list of refused calls (docs/operations.md, Why did my call fail) as every face shows it: the merchant
// panel a key's or the account's, the console a system's or an account's. A row a refusal, newest first,
// each code linked to its explanation on the documentation pages (/docs/problems#problem-<code>, English
// only), the `param` and `detail` the caller read, and the request id to find the call's log line. The face
// says whether a key column shows and where it links; the texts are merged into each face's catalogue.

const en = {
  refusalWhen: 'When (UTC-03:00)',
  refusalStatus: 'Status',
  refusalCode: 'Code',
  refusalParam: 'Parameter',
  refusalDetail: 'Detail (as the API answered)',
  refusalOperation: 'Operation',
  refusalKey: 'Key',
  refusalRequestId: 'Request id',
  refusalCodeHelp: 'What “{code}” means and what to do (documentation, in English)',
  refusalKeyFilter: 'Key',
  refusalAllKeys: 'All keys',
  refusalFilterButton: 'Show',
};

type RefusalMessageKey = keyof typeof en;

const ptBR: Record<RefusalMessageKey, string> = {
  refusalWhen: 'Quando (UTC-03:00)',
  refusalStatus: 'Status',
  refusalCode: 'Código',
  refusalParam: 'Parâmetro',
  refusalDetail: 'Detalhe (como a API respondeu)',
  refusalOperation: 'Operação',
  refusalKey: 'Chave',
  refusalRequestId: 'Id da requisição',
  refusalCodeHelp: 'O que “{code}” significa e o que fazer (documentação, em inglês)',
  refusalKeyFilter: 'Chave',
  refusalAllKeys: 'Todas as chaves',
  refusalFilterButton: 'Mostrar',
};

/** The refusal list's texts, merged into the panel's and the console's catalogues. */
export const REFUSAL_MESSAGES: Catalogue<RefusalMessageKey> = { en, 'pt-BR': ptBR };

/** How a face shows a refusal list. */
export interface RefusalTableOptions {
  t: Translate<RefusalMessageKey>;
  locale: Locale;
  /**
   * The origin of the documentation pages: empty on the public listener (the panel, same origin), the
   * deployment's PUBLIC_BASE_URL elsewhere (the console, on the admin listener).
   */
  docsOrigin: string;
  /** The key column's cell; without it there is no key column (a key's own list). */
  key?: (credential: string | null) => HtmlValue;
}

/** A refusal's code, linked to its explanation when the documentation has one. */
function codeCell(refusal: Refusal, options: RefusalTableOptions): HtmlValue {
  if (refusal.code === null) return '—';
  const path = problemDocPath(refusal.code);
  if (path === null) return html`<code>${refusal.code}</code>`;
  return html`<a
    class="problem-code"
    href="${options.docsOrigin}${path}"
    hreflang="en"
    title="${options.t('refusalCodeHelp', { code: refusal.code })}"
    ><code>${refusal.code}</code></a
  >`;
}

/** The refusals' table, newest first (as the log keeps them). */
export function refusalTable(refusals: readonly Refusal[], options: RefusalTableOptions): SafeHtml {
  const { t, locale, key } = options;
  const columns: { label: string; className?: string; cell: (refusal: Refusal) => HtmlValue }[] = [
    { label: t('refusalWhen'), cell: (r) => formatInstant(Date.parse(r.at), locale, true) },
    { label: t('refusalStatus'), className: 'num', cell: (r) => String(r.status) },
    { label: t('refusalCode'), cell: (r) => codeCell(r, options) },
    { label: t('refusalParam'), cell: (r) => (r.param === null ? '—' : html`<code>${r.param}</code>`) },
    { label: t('refusalDetail'), className: 'detail', cell: (r) => r.detail ?? '—' },
    { label: t('refusalOperation'), cell: (r) => html`<code>${r.operation}</code>` },
    ...(key === undefined ? [] : [{ label: t('refusalKey'), cell: (r: Refusal) => key(r.credential) }]),
    { label: t('refusalRequestId'), className: 'mono', cell: (r) => html`<code>${r.request_id}</code>` },
  ];
  const cellAttributes = (column: (typeof columns)[number]) =>
    column.className === undefined
      ? html`data-label="${column.label}"`
      : html`data-label="${column.label}" class="${column.className}"`;
  return html`<div class="table-wrap">
    <table class="stack refusals" id="refusals">
      <thead>
        <tr>
          ${columns.map(
            (column) =>
              html`<th scope="col" ${column.className === 'num' ? html`class="num"` : ''}>
                ${column.label}
              </th>`,
          )}
        </tr>
      </thead>
      <tbody>
        ${refusals.map(
          (refusal) =>
            html`<tr data-request-id="${refusal.request_id}" data-key="${refusal.credential ?? ''}">
              ${columns.map((column) => html`<td ${cellAttributes(column)}>${column.cell(refusal)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

/** The key filter of an account's refusals: a GET form, so that a filtered list has its own address. */
export function refusalKeyFilter(options: {
  t: Translate<RefusalMessageKey>;
  /** The list's own address, which the form sends `key` to. */
  action: string;
  keys: readonly { id: string; name: string }[];
  /** The key shown, or null for all of them. */
  selected: string | null;
}): SafeHtml {
  const { t, keys, selected } = options;
  return html`<form method="get" action="${options.action}" class="filters" role="search">
    <label for="refusal-key">${t('refusalKeyFilter')}</label>
    <select id="refusal-key" name="key">
      <option value="" ${selected === null ? html`selected` : ''}>${t('refusalAllKeys')}</option>
      ${keys.map(
        (key) =>
          html`<option value="${key.id}" ${selected === key.id ? html`selected` : ''}>${key.name}</option>`,
      )}
    </select>
    <button type="submit" class="secondary">${t('refusalFilterButton')}</button>
  </form>`;
}
