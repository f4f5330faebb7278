import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../errors/refusals.js';
import {
  CATALOG_COLLECTIONS,
  catalogCollection,
  type CatalogCollection,
} from '../../helpdesk/catalog-collections.js';
import { integerIdPath } from '../../helpdesk/catalog-input.js';
import type { CatalogEntry, CatalogTable } from '../../helpdesk/catalog-service.js';
import { formText } from '../../web/face.js';
import {
  checkboxField,
  errorSummary,
  formInteger,
  formIssues,
  selectField,
  textField,
  zodFormErrors,
  type FormErrors,
} from '../../web/form.js';
import { html, type SafeHtml } from '../../web/html.js';
import { csrfField } from '../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../console-kit.js';
import { CONSOLE_PREFIX } from '../console-path.js';
import type { CatalogMessage } from '../messages/catalog.js';

// The help-desk catalog for the operator (issue 14): the six collections of admin-api.md (Help desk),
// derived from the admin API's own table (src/helpdesk/catalog-collections.ts), each listed by id and
// written through a form checked by the admin API's schemas (the id by the PUT path's, the fields by its
// body's), so the documents' limits (names of 200 characters, descriptions of 500) hold here as there.
// Every change goes through the catalog service and into the back-office log under the admin API's
// operation id. A category is the one entry that can be deleted, after a page saying what it does.
//
// Routes (ability `catalog`, the operator's):
//   GET  /console/catalog                            the collections, with their counts
//   GET  /console/catalog/:collection                a collection's entries, by id
//   GET  /console/catalog/:collection/new            the form of a new entry
//   POST /console/catalog/:collection/new            creates it (putHelpDesk<Entry>)
//   GET  /console/catalog/:collection/:id/edit       the form of an entry
//   POST /console/catalog/:collection/:id/edit       replaces it (putHelpDesk<Entry>)
//   GET  /console/catalog/categories/:id/delete      what deleting a category does, to confirm
//   POST /console/catalog/categories/:id/delete      deletes it (deleteHelpDeskCategory)

/** The stem of each collection's texts (`catCategories`, `catCategoriesNew`…). */
type Stem = 'Companies' | 'CategoryTypes' | 'Priorities' | 'Categories' | 'SupportLevels' | 'Natures';

/** Each collection's texts: its stem, the hint of its id, the hint of its `active` field. */
const TEXTS: Record<CatalogTable, { stem: Stem; idHint: CatalogMessage; activeHint?: CatalogMessage }> = {
  hd_companies: { stem: 'Companies', idHint: 'catHintCompanyId', activeHint: 'catHintActiveCompany' },
  hd_category_types: { stem: 'CategoryTypes', idHint: 'catHintIntegerId' },
  hd_priorities: { stem: 'Priorities', idHint: 'catHintIntegerId' },
  hd_categories: { stem: 'Categories', idHint: 'catHintIntegerId' },
  hd_support_levels: { stem: 'SupportLevels', idHint: 'catHintIntegerId' },
  hd_natures: { stem: 'Natures', idHint: 'catHintNatureId', activeHint: 'catHintActiveNature' },
};

/** How a field of a body is typed in the form and shown in the list. */
type Widget = 'text' | 'description' | 'active' | 'integer' | 'type' | 'priority';

/** Every member of the catalog's bodies, by name: a schema's member without one stops the start. */
const FIELDS: Readonly<Record<string, { widget: Widget; label: CatalogMessage; hint?: CatalogMessage }>> = {
  name: { widget: 'text', label: 'catFieldName', hint: 'catHintName' },
  description: { widget: 'description', label: 'catFieldDescription', hint: 'catHintDescription' },
  active: { widget: 'active', label: 'catFieldActive' },
  level: { widget: 'integer', label: 'catFieldLevel', hint: 'catHintLevel' },
  response_time_hours: { widget: 'integer', label: 'catFieldResponseTime', hint: 'catHintResponseTime' },
  type_id: { widget: 'type', label: 'catFieldType', hint: 'catHintType' },
  default_priority_id: {
    widget: 'priority',
    label: 'catFieldDefaultPriority',
    hint: 'catHintDefaultPriority',
  },
};

/** A field of a collection's form. */
interface Field {
  name: string;
  widget: Widget;
  label: CatalogMessage;
  hint: CatalogMessage | undefined;
}

/** The fields of a collection: the members of its body schema, in the schema's order. */
function fieldsOf(collection: CatalogCollection): Field[] {
  return Object.keys(collection.input.shape).map((name) => {
    const field = FIELDS[name];
    if (field === undefined) throw new Error(`the console has no form field for ${collection.path}.${name}`);
    const hint = field.widget === 'active' ? TEXTS[collection.table].activeHint : field.hint;
    return { name, widget: field.widget, label: field.label, hint };
  });
}

/** What the form's fields hold, as text (a checkbox: `true` or empty), by name; `id` too on a new entry. */
type FormValues = Record<string, string>;

/** An entry's fields as the form shows them. */
function valuesOf(fields: readonly Field[], entry: CatalogEntry): FormValues {
  const values: FormValues = {};
  for (const { name } of fields) {
    const value = entry[name];
    values[name] =
      typeof value === 'boolean'
        ? value
          ? 'true'
          : ''
        : typeof value === 'string' || typeof value === 'number'
          ? String(value)
          : '';
  }
  return values;
}

/** The fields as posted. */
function postedValues(fields: readonly Field[], posted: Record<string, unknown>): FormValues {
  const values: FormValues = { id: formText(posted.id).trim() };
  for (const { name } of fields) values[name] = formText(posted[name]);
  return values;
}

/**
 * The body of the admin API's PUT that the form stands for: an empty description is none (null), a
 * line break counts as one character as it does when typed (browsers send CRLF), a checkbox absent is
 * false, numbers are read from their text and left to the schema to refuse when they are not numbers.
 */
function bodyOf(fields: readonly Field[], values: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { name, widget } of fields) {
    const text = values[name] ?? '';
    if (widget === 'text') body[name] = text;
    else if (widget === 'description') body[name] = text.trim() === '' ? null : text.replace(/\r\n/g, '\n');
    else if (widget === 'active') body[name] = text === 'true';
    else if (widget === 'priority') body[name] = text === '' ? null : formInteger(text);
    else body[name] = formInteger(text);
  }
  return body;
}

/** The id of an entry as listed (`identifier` for natures). */
function keyOf(collection: CatalogCollection, entry: CatalogEntry): string {
  const key = entry[collection.key];
  return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
}

const listPath = (collection: CatalogCollection) => `/catalog/${collection.path}`;
const entryPath = (collection: CatalogCollection, id: string, action: 'edit' | 'delete') =>
  `/catalog/${collection.path}/${encodeURIComponent(id)}/${action}`;

/** The collection of a path segment; an unknown one is the console's 404. */
function collectionOf(path: string): CatalogCollection {
  const collection = catalogCollection(path);
  if (collection === undefined) throw notFound(`catalog collection "${path}"`);
  return collection;
}

/** An entry of a collection by the id in a path (checked by the PUT path's schema); 404 if none. */
async function entryOf(
  kit: ConsoleKit,
  collection: CatalogCollection,
  id: string,
): Promise<{ key: string | number; entry: CatalogEntry }> {
  const parsed = collection.id.safeParse({ id });
  if (!parsed.success) throw notFound(`${collection.path} entry "${id}"`);
  const key = parsed.data.id;
  const entries = await kit.services.catalog.listEntries(collection.table);
  const entry = entries.find((found) => found[collection.key] === key);
  if (entry === undefined) throw notFound(`${collection.path} entry "${id}"`);
  return { key, entry };
}

/** What a category's form chooses from: the category types by name, the priorities by level. */
interface Choices {
  types: CatalogEntry[];
  priorities: CatalogEntry[];
}

async function choicesFor(kit: ConsoleKit, collection: CatalogCollection): Promise<Choices> {
  if (!fieldsOf(collection).some((field) => field.widget === 'type' || field.widget === 'priority')) {
    return { types: [], priorities: [] };
  }
  const [types, priorities] = await Promise.all([
    kit.services.catalog.listEntries('hd_category_types'),
    kit.services.catalog.listEntries('hd_priorities'),
  ]);
  const text = (entry: CatalogEntry, member: string) => String(entry[member]);
  return {
    types: types.sort((a, b) => text(a, 'name').localeCompare(text(b, 'name'))),
    priorities: priorities.sort((a, b) => Number(a.level) - Number(b.level)),
  };
}

/** "Incidente (1)": an entry of another collection as a choice and in a list. */
function named(entries: readonly CatalogEntry[], id: unknown): string {
  const found = entries.find((entry) => entry.id === id);
  return found === undefined ? String(id) : `${String(found.name)} (${String(id)})`;
}

/** The collections of the catalog, the current one marked. */
function subnav(ctx: StaffContext, current: CatalogTable | null): SafeHtml {
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

function crumbs(ctx: StaffContext, collection: CatalogCollection | null): SafeHtml {
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
function cell(ctx: StaffContext, field: Field, entry: CatalogEntry, choices: Choices): SafeHtml | string {
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
const numeric = (field: Field) => (field.widget === 'integer' ? 'num' : '');

/** What a form is for: a new entry, or the entry of this id. */
type FormMode = { kind: 'new' } | { kind: 'edit'; id: string };

/** Registers the catalog's pages. */
export function registerCatalogPages(kit: ConsoleKit): void {
  const { services } = kit;
  // Every member of every body has its form field, or the console does not start.
  for (const collection of CATALOG_COLLECTIONS) fieldsOf(collection);

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

  /** The form of a new entry or of an entry, with what was typed and what is wrong with it. */
  async function sendForm(
    request: FastifyRequest,
    reply: FastifyReply,
    ctx: StaffContext,
    collection: CatalogCollection,
    mode: FormMode,
    values: FormValues,
    errors: FormErrors = {},
    status = 200,
  ): Promise<FastifyReply> {
    const { t } = ctx;
    const texts = TEXTS[collection.table];
    const fields = fieldsOf(collection);
    const choices = await choicesFor(kit, collection);
    const keyLabel = t(collection.key === 'identifier' ? 'catFieldIdentifier' : 'catFieldId');
    const labels: Record<string, string> = { id: keyLabel };
    for (const field of fields) labels[field.name] = t(field.label);
    const title = mode.kind === 'new' ? t(`cat${texts.stem}New`) : t(`cat${texts.stem}Edit`, { id: mode.id });
    const action =
      mode.kind === 'new' ? `${listPath(collection)}/new` : entryPath(collection, mode.id, 'edit');
    const numeric = collection.id === integerIdPath ? ('numeric' as const) : undefined;

    const control = (field: Field): SafeHtml => {
      const common = {
        name: field.name,
        label: t(field.label),
        hint: field.hint === undefined ? undefined : t(field.hint),
        error: errors[field.name],
      };
      const value = values[field.name] ?? '';
      switch (field.widget) {
        case 'text':
          return textField({ ...common, value, required: true });
        case 'description':
          return textField({ ...common, value, rows: 4 });
        case 'active':
          return checkboxField({ ...common, checked: value === 'true' });
        case 'integer':
          return textField({ ...common, value, inputmode: 'numeric', required: true });
        case 'type':
          return html`${
            choices.types.length === 0
              ? html`<div class="warning" role="status">
                  ${t('catNoTypes')}
                  <a href="${CONSOLE_PREFIX}/catalog/category-types/new">${t('catCategoryTypesNew')}</a>
                </div>`
              : ''
          }${selectField({
            ...common,
            value,
            required: true,
            options: [
              ...(value === '' ? [{ value: '', label: t('catChooseType') }] : []),
              ...choices.types.map((type) => ({
                value: String(type.id),
                label: named(choices.types, type.id),
              })),
            ],
          })}`;
        case 'priority':
          return selectField({
            ...common,
            value,
            options: [
              { value: '', label: t('catNoPriority') },
              ...choices.priorities.map((priority) => ({
                value: String(priority.id),
                label: named(choices.priorities, priority.id),
              })),
            ],
          });
      }
    };

    const body = html`${crumbs(ctx, collection)}
      <h1>${title}</h1>
      ${errorSummary(t('errorsTitle'), errors, labels)}
      <form method="post" action="${CONSOLE_PREFIX}${action}" class="card">
        ${csrfField(ctx.csrf)}
        ${
          mode.kind === 'new'
            ? textField({
                name: 'id',
                label: keyLabel,
                value: values.id ?? '',
                hint: t(texts.idHint),
                error: errors.id,
                required: true,
                ...(numeric === undefined ? {} : { inputmode: numeric }),
              })
            : html`<dl>
                <dt>${keyLabel}</dt>
                <dd><code>${mode.id}</code></dd>
              </dl>`
        }
        ${fields.map(control)}
        <div class="actions">
          <button type="submit">${t('catSave')}</button>
          <a href="${CONSOLE_PREFIX}${listPath(collection)}">${t('catCancel')}</a>
        </div>
      </form>`;
    return kit.send(request, reply, ctx, title, body, { status });
  }

  /** The posted fields checked by the admin API's body schema: the body of PUT, or each field's error. */
  function checked(
    collection: CatalogCollection,
    values: FormValues,
  ): { ok: true; body: Record<string, unknown> } | { ok: false; errors: FormErrors } {
    const parsed = collection.input.safeParse(bodyOf(fieldsOf(collection), values), { error: formIssues });
    return parsed.success
      ? { ok: true, body: parsed.data }
      : { ok: false, errors: zodFormErrors(parsed.error) };
  }

  /**
   * Writes a checked entry through the catalog service, records and flashes it: null when saved, or the
   * errors of a refusal of the service (a category of a type that is not there), nothing written.
   */
  async function write(
    request: FastifyRequest,
    ctx: StaffContext,
    collection: CatalogCollection,
    key: string | number,
    body: Record<string, unknown>,
  ): Promise<FormErrors | null> {
    const put = await services.catalog.putEntry(collection.table, key, body);
    if (!put.ok) {
      const what = put.reason === 'unknown_priority' ? 'priority' : 'category type';
      return { [put.param]: `there is no ${what} ${put.id}` };
    }
    const { created } = put;
    await kit.record(ctx, {
      action: `putHelpDesk${collection.one}`,
      target: `helpdesk/${collection.path}/${String(key)}`,
      details: { created, body },
    });
    kit.flash(request, ctx.t(`cat${TEXTS[collection.table].stem}Saved`, { id: String(key) }));
    return null;
  }

  kit.page<{ Params: { collection: string } }>(
    '/catalog/:collection/new',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      // A new company or nature is active unless the operator says otherwise, as the API's default.
      const values: FormValues = { id: '', active: 'true' };
      return sendForm(request, reply, ctx, collection, { kind: 'new' }, values);
    },
  );

  kit.action<{ Params: { collection: string }; Body: Record<string, unknown> }>(
    '/catalog/:collection/new',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const values = postedValues(fieldsOf(collection), request.body);
      const mode = { kind: 'new' } as const;
      const id = collection.id.safeParse({ id: values.id });
      const body = checked(collection, values);
      // Every field's error at once: the id's and the body's.
      if (!id.success || !body.ok) {
        const errors = { ...(id.success ? {} : zodFormErrors(id.error)), ...(body.ok ? {} : body.errors) };
        return sendForm(request, reply, ctx, collection, mode, values, errors, 422);
      }
      // The API's PUT replaces an entry; the form of a new one must not replace one by mistake.
      if (await services.catalog.exists(collection.table, id.data.id)) {
        const errors = { id: ctx.t('catIdTaken', { id: values.id ?? '' }) };
        return sendForm(request, reply, ctx, collection, mode, values, errors, 409);
      }
      const refused = await write(request, ctx, collection, id.data.id, body.body);
      if (refused !== null) return sendForm(request, reply, ctx, collection, mode, values, refused, 422);
      return kit.redirect(reply, listPath(collection));
    },
  );

  kit.page<{ Params: { collection: string; id: string } }>(
    '/catalog/:collection/:id/edit',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const { key, entry } = await entryOf(kit, collection, request.params.id);
      const values = valuesOf(fieldsOf(collection), entry);
      return sendForm(request, reply, ctx, collection, { kind: 'edit', id: String(key) }, values);
    },
  );

  kit.action<{ Params: { collection: string; id: string }; Body: Record<string, unknown> }>(
    '/catalog/:collection/:id/edit',
    'catalog',
    async (request, reply, ctx) => {
      const collection = collectionOf(request.params.collection);
      const { key } = await entryOf(kit, collection, request.params.id);
      const values = postedValues(fieldsOf(collection), request.body);
      const mode = { kind: 'edit', id: String(key) } as const;
      const body = checked(collection, values);
      const errors = body.ok ? await write(request, ctx, collection, key, body.body) : body.errors;
      if (errors !== null) return sendForm(request, reply, ctx, collection, mode, values, errors, 422);
      return kit.redirect(reply, listPath(collection));
    },
  );

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
