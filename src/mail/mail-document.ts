import { escapeHtml } from '../lib/escape-html.js';

// A message's content written once and rendered twice, as plain text and as HTML, so that both bodies
// say the same and every value is escaped in the HTML by construction.

/** The content of a message, in the reader's language. */
export interface MailDocument {
  /** The first line (`Olá, …`). */
  greeting: string;
  /** What happened, in one sentence. */
  lead: string;
  /** A link to follow (a one-time link: in the text on a line of its own, in the HTML a link). */
  action?: { readonly label: string; readonly url: string };
  /** Labelled facts (`Chave`, `Identificador`, …), in order. */
  facts: readonly (readonly [label: string, value: string])[];
  /** A list of changes, shown as bullets; may be empty. */
  changes: readonly string[];
  /** Closing paragraphs: what to do if it was not the reader, and the like. */
  closing: readonly string[];
  /** The signature. */
  signature: string;
}

/** The plain-text body. */
export function renderText(doc: MailDocument): string {
  const lines = [doc.greeting, '', doc.lead, ''];
  if (doc.action !== undefined) lines.push(`${doc.action.label}:`, doc.action.url, '');
  if (doc.changes.length > 0) lines.push(...doc.changes.map((change) => `- ${change}`), '');
  lines.push(...doc.facts.map(([label, value]) => `${label}: ${value}`), '');
  for (const paragraph of doc.closing) lines.push(paragraph, '');
  lines.push(`— ${doc.signature}`);
  return lines.join('\n') + '\n';
}

/** The HTML body: a whole document titled with the subject, each value escaped. */
export function renderHtml(doc: MailDocument, page: { language: string; title: string }): string {
  const p = (text: string) => `<p>${escapeHtml(text)}</p>`;
  const parts = [p(doc.greeting), p(doc.lead)];
  if (doc.action !== undefined)
    parts.push(`<p><a href="${escapeHtml(doc.action.url)}">${escapeHtml(doc.action.label)}</a></p>`);
  if (doc.changes.length > 0)
    parts.push(`<ul>${doc.changes.map((change) => `<li>${escapeHtml(change)}</li>`).join('')}</ul>`);
  parts.push(
    `<table role="presentation">${doc.facts
      .map(
        ([label, value]) =>
          `<tr><th scope="row" align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`,
      )
      .join('')}</table>`,
  );
  parts.push(...doc.closing.map(p), p(`— ${doc.signature}`));
  return (
    `<!doctype html><html lang="${escapeHtml(page.language)}"><head><meta charset="utf-8">` +
    `<title>${escapeHtml(page.title)}</title></head><body>${parts.join('\n')}</body></html>\n`
  );
}
