import { escapeHtml } from '../lib/escape-html.js';

// HTML written by TypeScript functions: `html` escapes every value put into a template unless it is
// already `SafeHtml` (another template, or `raw` text the code itself wrote). The pages are typed
// functions of their data, so the compiler checks every value a page shows (issue 13, How it is built).

/** Markup that is safe to put into a page as it is. */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** A value a template accepts: text (escaped), markup, a list of them, or nothing (false, null, undefined). */
export type HtmlValue = string | number | SafeHtml | readonly HtmlValue[] | null | undefined | false;

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  return escapeHtml(String(value));
}

/** A template whose values are escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** Markup the code wrote itself (never text that came in). */
export function raw(text: string): SafeHtml {
  return new SafeHtml(text);
}

/** Data for a page's script: a `<script type="application/json">` element that nothing runs. */
export function jsonScript(id: string, data: unknown): SafeHtml {
  // `<` escaped, so that the text cannot close the element (`</script>`) whatever the data holds.
  return html`<script type="application/json" id="${id}">
    ${raw(JSON.stringify(data).replace(/</g, '\\u003c'))}
  </script>`;
}
