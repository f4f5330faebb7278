import type { KeyAuditEvent } from '../audit/key-audit-repository.js';
import { html, type HtmlValue, type SafeHtml } from './html.js';

// A key's history (the audit trail's events, newest first) as every face shows it: a table a row an
// event, each row marked with its event's name, each cell labelled with its column for a phone. The face
// says which columns (when, what, who, and what it adds: the key, a note) and in which words.

/** One column of the history: its header and what it shows of an event. */
export interface KeyHistoryColumn {
  label: string;
  cell(event: KeyAuditEvent): HtmlValue;
  /** A class of the column's cells (`note`). */
  className?: string;
}

/** The history's table, or `empty` when there is no event. */
export function keyHistoryTable(
  events: readonly KeyAuditEvent[],
  options: {
    empty: string;
    columns: readonly KeyHistoryColumn[];
    /** Each row also names its key (`data-key`), for a history of several keys. */
    keyOfRow?: boolean;
  },
): SafeHtml {
  if (events.length === 0) return html`<p>${options.empty}</p>`;
  const { columns } = options;
  // A row's and a cell's attributes written whole, so that a row reads `<tr data-event="issued">`.
  const rowOf = (event: KeyAuditEvent) =>
    options.keyOfRow === true
      ? html`data-event="${event.event}" data-key="${event.keyId}"`
      : html`data-event="${event.event}"`;
  const cellOf = (column: KeyHistoryColumn) =>
    column.className === undefined
      ? html`data-label="${column.label}"`
      : html`data-label="${column.label}" class="${column.className}"`;
  return html`<div class="table-wrap">
    <table class="stack" id="history">
      <thead>
        <tr>
          ${columns.map((column) => html` <th scope="col">${column.label}</th>`)}
        </tr>
      </thead>
      <tbody>
        ${events.map(
          (event) =>
            html`<tr ${rowOf(event)}>
              ${columns.map((column) => html` <td ${cellOf(column)}>${column.cell(event)}</td>`)}
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
