import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { TEXTS, fieldsOf, keyOf, listPath, entryPath, collectionOf, choicesFor } from './catalog-fields.js';
import { subnav, crumbs, cell, numeric } from './catalog-views.js';

// A collection's entries, by id (GET /console/catalog/:collection).

export function registerEntriesPage(kit: ConsoleKit): void {
  const { services } = kit;

  kit.page<{ Params: { collection: string } }>(
    '/catalog/:collection',
    'catalog',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const collection = collectionOf(request.params.collection);
      const { stem } = TEXTS[collection.table];
      const fields = fieldsOf(collection);
      const [entries, choices] = await Promise.all([
        services.catalog.listEntries(collection.table),
        choicesFor(kit, collection),
      ]);
      const keyLabel = t(collection.key === 'identifier' ? 'catFieldIdentifier' : 'catFieldId');
      const deletable = collection.table === 'hd_categories';
      const table = html`<div class="table-wrap">
        <table class="stack" id="entries">
          <thead>
            <tr>
              <th scope="col">${keyLabel}</th>
              ${fields.map((field) => html`<th scope="col" class="${numeric(field)}">${t(field.label)}</th>`)}
              <th scope="col">${t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            ${entries.map((entry) => {
              const id = keyOf(collection, entry);
              return html`<tr data-id="${id}">
                <th scope="row"><code>${id}</code></th>
                ${fields.map(
                  (field) =>
                    html`<td data-label="${t(field.label)}" class="${numeric(field)}">
                      ${cell(ctx, field, entry, choices)}
                    </td>`,
                )}
                <td data-label="${t('actions')}">
                  <span
                    ><a
                      href="${CONSOLE_PREFIX}${entryPath(collection, id, 'edit')}"
                      aria-label="${t('catEditAria', { id })}"
                      >${t('catEdit')}</a
                    >${
                      deletable
                        ? html` ·
                            <a
                              href="${CONSOLE_PREFIX}${entryPath(collection, id, 'delete')}"
                              aria-label="${t('catDeleteAria', { id })}"
                              >${t('catDelete')}</a
                            >`
                        : ''
                    }</span
                  >
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
      const body = html`${crumbs(ctx, null)}
        <h1>${t(`cat${stem}`)}</h1>
        ${subnav(ctx, collection.table)}
        <p>${t(`cat${stem}About`)}</p>
        <p>
          <a class="button" href="${CONSOLE_PREFIX}${listPath(collection)}/new">${t(`cat${stem}New`)}</a>
        </p>
        ${
          entries.length === 0
            ? html`<p>${t('catEmpty')}</p>`
            : html`<p class="hint">${t('catCount', { count: entries.length })}</p>
                ${table}`
        }`;
      return kit.send(request, reply, ctx, t(`cat${stem}`), body);
    },
  );
}
