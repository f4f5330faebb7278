import { CATALOG_COLLECTIONS } from '../../../helpdesk/catalog-collections.js';
import { html } from '../../../web/html.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { TEXTS, listPath } from './catalog-fields.js';
import { subnav } from './catalog-views.js';

// The catalog's collections, with their counts (GET /console/catalog).

export function registerCollectionsPage(kit: ConsoleKit): void {
  const { services } = kit;

  kit.page('/catalog', 'catalog', async (request, reply, ctx) => {
    const { t } = ctx;
    const counts = await Promise.all(
      CATALOG_COLLECTIONS.map(async (c) => (await services.catalog.listEntries(c.table)).length),
    );
    const body = html`<h1>${t('catTitle')}</h1>
      <p>${t('catIntro')}</p>
      ${subnav(ctx, null)}
      <div class="table-wrap">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">${t('catColCollection')}</th>
              <th scope="col">${t('catColAbout')}</th>
              <th scope="col" class="num">${t('catColEntries')}</th>
            </tr>
          </thead>
          <tbody>
            ${CATALOG_COLLECTIONS.map((collection, index) => {
              const stem = TEXTS[collection.table].stem;
              return html`<tr data-collection="${collection.path}">
                <th scope="row">
                  <a href="${CONSOLE_PREFIX}${listPath(collection)}">${t(`cat${stem}`)}</a>
                </th>
                <td data-label="${t('catColAbout')}">${t(`cat${stem}About`)}</td>
                <td class="num" data-label="${t('catColEntries')}">${counts[index] ?? 0}</td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`;
    return kit.send(request, reply, ctx, t('catTitle'), body);
  });
}
