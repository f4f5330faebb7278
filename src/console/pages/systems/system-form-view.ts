import { SCOPES } from '../../../helpdesk/system-scopes.js';
import {
  checkboxField,
  checkboxGroup,
  errorSummary,
  selectField,
  textField,
  type FormErrors,
} from '../../../web/form.js';
import { html, type SafeHtml } from '../../../web/html.js';
import { csrfField } from '../../../web/layout.js';
import type { ConsoleKit, StaffContext } from '../../console-kit.js';
import { CONSOLE_PREFIX } from '../../console-path.js';
import { fieldHints, type SystemForm } from './system-form.js';
import { systemUrl } from './system-paths.js';
import { SCOPE_LABELS, type T } from './system-views.js';

const labels = (t: T): Record<string, string> => ({
  identifier: t('colIdentifier'),
  name: t('colName'),
  active: t('sysActiveLabel'),
  scopes: t('sysScopes'),
  rate_limit_per_minute: t('sysRate'),
  key_grace_seconds: t('sysGrace'),
  default_category_id: t('sysDefaultCategory'),
  released_category_ids: t('sysReleasedCategories'),
});

/** The create or settings form of this kit's pages, with the errors of a refused post. */
export function systemFormView(kit: ConsoleKit) {
  const { catalog } = kit.services;

  /** The form, the catalog's categories to choose from. */
  return async (
    ctx: StaffContext,
    options: { action: string; form: SystemForm; errors: FormErrors; creating: boolean; submit: string },
  ): Promise<SafeHtml> => {
    const { t, locale } = ctx;
    const { form, errors } = options;
    const named = labels(t);
    const categories = await catalog.listEntries('hd_categories');
    const categoryOptions = categories.map((entry) => ({
      value: String(entry.id),
      label: `${String(entry.name)} (${String(entry.id)})`,
    }));
    const rules = fieldHints(t, locale);
    return html`${errorSummary(t('errorsTitle'), errors, named)}
      <form method="post" action="${options.action}" class="card" novalidate>
        ${csrfField(ctx.csrf)}
        ${
          options.creating
            ? textField({
                name: 'identifier',
                label: named.identifier ?? '',
                value: form.identifier,
                hint: rules.identifier,
                error: errors.identifier,
                autocomplete: 'off',
                required: true,
              })
            : ''
        }
        ${textField({
          name: 'name',
          label: named.name ?? '',
          value: form.name,
          hint: rules.name,
          error: errors.name,
          required: true,
        })}
        ${checkboxField({
          name: 'active',
          label: named.active ?? '',
          checked: form.active,
          hint: t('sysActiveHint'),
          error: errors.active,
        })}
        ${checkboxGroup({
          name: 'scopes',
          label: named.scopes ?? '',
          values: form.scopes,
          options: SCOPES.map((scope) => ({ value: scope, label: `${t(SCOPE_LABELS[scope])} (${scope})` })),
          hint: t('sysScopesHint'),
          error: errors.scopes,
        })}
        ${textField({
          name: 'rate_limit_per_minute',
          label: named.rate_limit_per_minute ?? '',
          value: form.rate_limit_per_minute,
          type: 'text',
          inputmode: 'numeric',
          hint: rules.rate_limit_per_minute,
          error: errors.rate_limit_per_minute,
          required: true,
        })}
        ${textField({
          name: 'key_grace_seconds',
          label: named.key_grace_seconds ?? '',
          value: form.key_grace_seconds,
          type: 'text',
          inputmode: 'numeric',
          hint: rules.key_grace_seconds,
          error: errors.key_grace_seconds,
          required: true,
        })}
        ${selectField({
          name: 'default_category_id',
          label: named.default_category_id ?? '',
          value: form.default_category_id,
          options: [{ value: '', label: t('sysNoDefaultCategory') }, ...categoryOptions],
          hint: t('sysDefaultCategoryHint'),
          error: errors.default_category_id,
        })}
        ${checkboxGroup({
          name: 'released_category_ids',
          label: named.released_category_ids ?? '',
          values: form.released_category_ids,
          options: categoryOptions,
          hint: t('sysReleasedHint'),
          error: errors.released_category_ids,
        })}
        <div class="actions">
          <button type="submit">${options.submit}</button>
          <a href="${options.creating ? `${CONSOLE_PREFIX}/systems` : systemUrl(form.identifier)}"
            >${t('sysCancel')}</a
          >
        </div>
      </form>`;
  };
}
