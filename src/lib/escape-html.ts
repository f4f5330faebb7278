// Text put into HTML (a page of a web face, the documentation pages, an e-mail's HTML body) is escaped one
// way everywhere: the five characters that could open markup or close a quoted attribute.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` as HTML text or a quoted attribute value: & < > " ' replaced by their entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}
