import { notFound } from '../../../errors/refusals.js';
import { html } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { listPath, entryPath, collectionOf, entryOf } from './catalog-fields.js';
import { crumbs } from './catalog-views.js';

// Deleting a category, after a page saying what it does (GET, POST /console/catalog/categories/:id/delete).

export function registerDeleteCategoryPages(kit: ConsoleKit): void {
  const { services } = kit;

  // ---- Deleting a category ----

  const categories = collectionOf('categories');

  /** The category, and the partner systems that have it as default or among their released ones. */
  async function categoryToDelete(id: string) {
    const { key, entry } = await entryOf(kit, categories, id);
    const systems = await services.systems.list();
    return {
      id: Number(key),
      name: String(entry.name),
      defaultOf: systems.filter((s) => s.defaultCategoryId === key).map((s) => s.identifier),
      releasedTo: systems.filter((s) => s.releasedCategoryIds.includes(Number(key))).map((s) => s.identifier),
    };
  }

  kit.page<{ Params: { id: string } }>(
    '/catalog/categories/:id/delete',
    'catalog',
    async (request, reply, ctx) => {
      const { t } = ctx;
      const category = await categoryToDelete(request.params.id);
      const id = String(category.id);
      const title = t('catDeleteTitle', { id, name: category.name });
      const body = html`${crumbs(ctx, categories)}
        <h1>${title}</h1>
        <form method="post" action="${CONSOLE_PREFIX}${entryPath(categories, id, 'delete')}" class="card">
          ${csrfField(ctx.csrf)}
          <p>${t('catDeleteIntro')}</p>
          <ul>
            <li>${t('catDeleteTickets')}</li>
            ${category.defaultOf.length > 0 ? html`<li>${t('catDeleteDefault', { systems: category.defaultOf.join(', ') })}</li>` : ''}
            ${category.releasedTo.length > 0 ? html`<li>${t('catDeleteReleased', { systems: category.releasedTo.join(', ') })}</li>` : ''}
            ${category.defaultOf.length + category.releasedTo.length === 0 ? html`<li>${t('catDeleteNoSystem')}</li>` : ''}
          </ul>
          <div class="actions">
            <button type="submit" class="danger">${t('catDeleteButton', { id })}</button>
            <a href="${CONSOLE_PREFIX}${listPath(categories)}">${t('catCancel')}</a>
          </div>
        </form>`;
      return kit.send(request, reply, ctx, title, body);
    },
  );

  kit.action<{ Params: { id: string } }>(
    '/catalog/categories/:id/delete',
    'catalog',
    async (request, reply, ctx) => {
      const category = await categoryToDelete(request.params.id);
      if (!(await services.catalog.deleteCategory(category.id)).ok) throw notFound(`category ${category.id}`);
      await kit.record(ctx, {
        action: 'deleteHelpDeskCategory',
        target: `helpdesk/categories/${category.id}`,
        details: { name: category.name, default_of: category.defaultOf, released_to: category.releasedTo },
      });
      kit.flash(request, ctx.t('catDeleted', { id: category.id, name: category.name }));
      return kit.redirect(reply, listPath(categories));
    },
  );
}
