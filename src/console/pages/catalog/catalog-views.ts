import { CATALOG_COLLECTIONS, type CatalogCollection } from '../../../helpdesk/catalog-collections.js';
import type { CatalogEntry, CatalogTable } from '../../../helpdesk/catalog-service.js';
import { html, type SafeHtml } from '../../../web/html.js';
import type { StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { TEXTS, type Field, listPath, type Choices, named } from './catalog-fields.js';

// The pieces of the catalog's pages: the collections' navigation, the crumbs, a field's value in a list.

/** The collections of the catalog, the current one marked. */
export function subnav(ctx: StaffContext, current: CatalogTable | null): SafeHtml {
  return html`<nav aria-label="${ctx.t('catSubnav')}">
    <ul class="subnav">
      ${CATALOG_COLLECTIONS.map(
        (collection) =>
          html`<li>
            <a
              href="${CONSOLE_PREFIX}${listPath(collection)}"
              ${collection.table === current ? html` aria-current="page"` : ''}
              >${ctx.t(`cat${TEXTS[collection.table].stem}`)}</a
            >
          </li>`,
      )}
    </ul>
  </nav>`;
}

export function crumbs(ctx: StaffContext, collection: CatalogCollection | null): SafeHtml {
  return html`<p class="crumbs">
    <a href="${CONSOLE_PREFIX}/catalog">${ctx.t('catTitle')}</a>${
      collection === null
        ? ''
        : html` ›
            <a href="${CONSOLE_PREFIX}${listPath(collection)}"
              >${ctx.t(`cat${TEXTS[collection.table].stem}`)}</a
            >`
    }
  </p>`;
}

/** How a field's value reads in a list. */
export function cell(
  ctx: StaffContext,
  field: Field,
  entry: CatalogEntry,
  choices: Choices,
): SafeHtml | string {
  const value = entry[field.name];
  if (field.widget === 'active') {
    return html`<span class="state state-${value === true ? 'active' : 'revoked'}"
      >${ctx.t(value === true ? 'active' : 'inactive')}</span
    >`;
  }
  if (value === null || value === undefined) return '—';
  if (field.widget === 'type') return named(choices.types, value);
  if (field.widget === 'priority') return named(choices.priorities, value);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/** The class of a field's column: numbers are aligned to the right. */
export const numeric = (field: Field) => (field.widget === 'integer' ? 'num' : '');
