import type { z } from 'zod';
import { Problem } from '../errors/problem.js';
import { html, type SafeHtml } from './html.js';

// Form fields of the web faces, written one way: a label tied to its control, a hint and an error tied
// to it by aria-describedby, aria-invalid on a field in error, and above the form a summary of the
// errors whose links lead to each field (the pattern WCAG 3.3.1 and 3.3.3 ask for). A form is checked on
// the server by the same zod schema as the admin API's body, so the document's limits hold in both.

/** The message of each field in error, by the field's name. */
export type FormErrors = Readonly<Record<string, string>>;

/** The first message of each field a zod check refused (`description` of `body.description`). */
export function zodFormErrors(error: z.ZodError): FormErrors {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const field = issue.path.length === 0 ? '_form' : String(issue.path[0]);
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * The field a service's 422 names (`body.type_id` → `type_id`), or the whole form's error; null for any
 * other refusal, which the page should not mistake for a field's.
 */
export function problemFormErrors(error: unknown): FormErrors | null {
  if (!(error instanceof Problem) || error.status !== 422) return null;
  const param = error.extras.param;
  const field = param?.replace(/^(body|query|path)\./, '').split('.')[0] ?? '_form';
  const prefix = `${param ?? ''}: `;
  const detail = error.detail.startsWith(prefix) ? error.detail.slice(prefix.length) : error.detail;
  return { [field]: detail };
}

/** The box above a form that lists its errors, each a link to its field; nothing when there is none. */
export function errorSummary(title: string, errors: FormErrors, labels: Readonly<Record<string, string>>) {
  const entries = Object.entries(errors);
  if (entries.length === 0) return html``;
  return html`<div class="error" role="alert" id="error-summary" tabindex="-1">
    <p><strong>${title}</strong></p>
    <ul>
      ${entries.map(([field, message]) =>
        field === '_form'
          ? html`<li>${message}</li>`
          : html`<li><a href="#field-${field}">${labels[field] ?? field}: ${message}</a></li>`,
      )}
    </ul>
  </div>`;
}

/** What every field takes. */
interface FieldBase {
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
  required?: boolean;
}

function describedBy(field: FieldBase): SafeHtml {
  const ids = [
    field.hint === undefined ? null : `hint-${field.name}`,
    field.error === undefined ? null : `error-${field.name}`,
  ].filter((id) => id !== null);
  return html`${ids.length === 0 ? '' : html` aria-describedby="${ids.join(' ')}"`}${
    field.error === undefined ? '' : html` aria-invalid="true"`
  }${field.required === true ? html` required` : ''}`;
}

function notes(field: FieldBase): SafeHtml {
  return html`${field.hint === undefined ? '' : html`<p class="hint" id="hint-${field.name}">${field.hint}</p>`}${
    field.error === undefined ? '' : html`<p class="field-error" id="error-${field.name}">${field.error}</p>`
  }`;
}

/** A text field (or a text area with `rows`). */
export function textField(
  field: FieldBase & {
    value: string;
    type?: 'text' | 'email' | 'number' | 'password' | 'date' | 'url';
    rows?: number;
    autocomplete?: string;
    inputmode?: 'numeric' | 'text';
  },
): SafeHtml {
  const id = `field-${field.name}`;
  const control =
    field.rows === undefined
      ? html`<input
          type="${field.type ?? 'text'}"
          id="${id}"
          name="${field.name}"
          value="${field.value}"
          ${field.autocomplete === undefined ? '' : html` autocomplete="${field.autocomplete}"`}
          ${field.inputmode === undefined ? '' : html` inputmode="${field.inputmode}"`}
          ${describedBy(field)}
        />`
      : html`<textarea id="${id}" name="${field.name}" rows="${field.rows}" ${describedBy(field)}>
${field.value}</textarea>`;
  return html`<div class="field"><label for="${id}">${field.label}</label>${control}${notes(field)}</div>`;
}

/** A choice of one among a few. */
export function selectField(
  field: FieldBase & { value: string; options: readonly { value: string; label: string }[] },
): SafeHtml {
  const id = `field-${field.name}`;
  return html`<div class="field">
    <label for="${id}">${field.label}</label>
    <select id="${id}" name="${field.name}" ${describedBy(field)}>
      ${field.options.map(
        (option) =>
          html`<option value="${option.value}" ${option.value === field.value ? html` selected` : ''}>
            ${option.label}
          </option>`,
      )}
    </select>
    ${notes(field)}
  </div>`;
}

/** One checkbox, its label beside it. */
export function checkboxField(field: FieldBase & { checked: boolean; value?: string }): SafeHtml {
  const id = `field-${field.name}`;
  return html`<div class="field check">
    <label for="${id}"
      ><input
        type="checkbox"
        id="${id}"
        name="${field.name}"
        value="${field.value ?? 'true'}"
        ${field.checked ? html` checked` : ''}
        ${describedBy({ ...field, required: false })}
      />
      ${field.label}</label
    >${notes(field)}
  </div>`;
}

/** Several checkboxes of one name (scopes, categories), in a fieldset. */
export function checkboxGroup(
  field: FieldBase & { values: readonly string[]; options: readonly { value: string; label: string }[] },
): SafeHtml {
  return html`<fieldset id="field-${field.name}" ${describedBy({ ...field, required: false })}>
    <legend>${field.label}</legend>
    ${field.options.map(
      (option, index) =>
        html`<label for="field-${field.name}-${index}"
          ><input
            type="checkbox"
            id="field-${field.name}-${index}"
            name="${field.name}"
            value="${option.value}"
            ${field.values.includes(option.value) ? html` checked` : ''}
          />
          ${option.label}</label
        >`,
    )}
    ${notes(field)}
  </fieldset>`;
}

/** A form field as text: a field sent twice (an array) or not at all is empty. */
export function formText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A form field that may come once (text) or several times (a list): always a list. */
export function formList(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/**
 * A whole number typed into a form field, for the schema to check: its number; undefined when empty (the
 * schema says it is required); the text as typed otherwise, which the schema refuses as not a number.
 */
export function formInteger(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^[+-]?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * The words of a form for the schemas' number checks, in the schemas' own style (zod's defaults, "Too
 * small: expected number to be >=1", are written for programmers). Passed to `safeParse` as its error
 * map: a message the schema itself gives still wins.
 */
export const formIssues: z.core.$ZodErrorMap = (issue) => {
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int')) {
    return issue.input === undefined ? 'is required' : 'must be a whole number';
  }
  if (issue.code === 'too_small' && issue.origin === 'number')
    return `must be at least ${String(issue.minimum)}`;
  if (issue.code === 'too_big' && issue.origin === 'number')
    return `must be at most ${String(issue.maximum)}`;
  return undefined;
};
