import { html, type HtmlValue, type SafeHtml } from './html.js';

// A table of the web faces, written one way: column headers with scope, each cell labelled with its
// column for a phone (the stylesheet's `table.stack` turns rows into cards there), numbers aligned right.

/** One column: its header, and whether it holds numbers. */
export interface Column {
  label: string;
  numeric?: boolean;
}

/** A table of rows of cells, one cell per column; none when `rows` is empty. */
export function dataTable(columns: readonly Column[], rows: readonly (readonly HtmlValue[])[]): SafeHtml {
  return html`<div class="table-wrap">
    <table class="stack">
      <thead>
        <tr>
          ${columns.map((c) => html`<th scope="col" ${c.numeric === true ? html` class="num"` : ''}>${c.label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${rows.map(
          (cells) =>
            html`<tr>
              ${cells.map((cell, i) => {
                const column = columns[i];
                return html`<td
                  data-label="${column?.label ?? ''}"
                  ${column?.numeric === true ? html` class="num"` : ''}
                >
                  ${cell}
                </td>`;
              })}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
