import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CatalogCollection } from '../../../helpdesk/catalog-collections.js';
import { integerIdPath } from '../../../helpdesk/catalog-input.js';
import { checkboxField, errorSummary, selectField, textField, type FormErrors } from '../../../web/form.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import {
  TEXTS,
  type Field,
  fieldsOf,
  type FormValues,
  listPath,
  entryPath,
  choicesFor,
  named,
  type FormMode,
} from './catalog-fields.js';
import { crumbs } from './catalog-views.js';

// The form of a new entry or of an entry (GET and refused POST), and the write of a checked one.

/** The form page of the catalog's entries, for this kit. */
export function entryFormPage(kit: ConsoleKit) {
  /** The form of a new entry or of an entry, with what was typed and what is wrong with it. */
  return async function sendForm(
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
  };
}

/**
 * Writes a checked entry through the catalog service, records and flashes it: null when saved, or the
 * errors of a refusal of the service (a category of a type that is not there), nothing written.
 */
export async function write(
  kit: ConsoleKit,
  request: FastifyRequest,
  ctx: StaffContext,
  collection: CatalogCollection,
  key: string | number,
  body: Record<string, unknown>,
): Promise<FormErrors | null> {
  const put = await kit.services.catalog.putEntry(collection.table, key, body);
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
