import { PLANNED_TAG } from '../openapi/route-operation.js';

// The pages' own look, served in the one stylesheet after the renderer's (the CSP allows no inline style).
// Small screens first: the commands scroll sideways instead of widening the page.

/** The renderer's section of the planned operations' group (their tag, listed last by each document). */
const PLANNED = `.opblock-tag-section:has(> .opblock-tag[data-tag="${PLANNED_TAG.name}"])`;

/**
 * The stylesheet of the index and of the "Getting started" part of each reference page, and what it
 * changes in the reference: each planned operation greyed, dashed, and marked with a "Planned" badge; on
 * a phone, a group's description under its name rather than squeezed beside it.
 */
export const DOCS_STYLE = `
.docs-page { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24;
  background: #fff; line-height: 1.5; }
.docs-page a { color: #0b57d0; }
.docs-page a:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.docs-header { background: #16324f; color: #fff; padding: 0.75rem 1rem; }
.docs-header a { color: #fff; }
.docs-header nav { max-width: 60rem; margin: 0 auto; display: flex; flex-wrap: wrap; gap: 0.5rem 1.25rem; }
.docs-main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
.docs-main h1 { font-size: 1.75rem; margin: 0.5rem 0 0.75rem; }
.docs-main h2 { font-size: 1.3rem; margin: 1.75rem 0 0.5rem; }
.docs-main h3 { font-size: 1.05rem; margin: 1.25rem 0 0.25rem; }
.docs-main p { margin: 0.5rem 0; }
.docs-main code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em;
  background: #f1f3f5; border-radius: 3px; padding: 0 0.2em; }
.docs-main pre { background: #0f1720; color: #e6edf3; border-radius: 6px; padding: 0.75rem 1rem;
  overflow-x: auto; margin: 0.5rem 0 1rem; }
.docs-main pre code { background: none; color: inherit; padding: 0; font-size: 0.85rem; white-space: pre; }
.docs-steps { padding-left: 1.25rem; }
.docs-cards { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); padding: 0;
  list-style: none; }
.docs-cards li { border: 1px solid #d0d7de; border-radius: 8px; padding: 1rem; }
.docs-cards h2 { margin-top: 0; }
.docs-reference { border-top: 1px solid #d0d7de; margin-top: 2rem; }
.docs-reference > h2 { max-width: 60rem; margin: 1.5rem auto 0; padding: 0 1rem; font-size: 1.3rem; }
${PLANNED} .opblock { background: #f6f7f9; border-color: #8a8f98; border-style: dashed; }
${PLANNED} .opblock .opblock-summary { border-color: #8a8f98; }
${PLANNED} .opblock .opblock-summary-method { background: #5b616b; }
${PLANNED} .opblock-summary-path::after { content: "Planned"; display: inline-block; margin-left: 0.5rem;
  padding: 0 0.45rem; border-radius: 999px; background: #7a4b00; color: #fff; font-family: system-ui, sans-serif;
  font-size: 0.75rem; font-weight: 700; line-height: 1.5; vertical-align: middle; white-space: nowrap; }
@media (max-width: 40rem) {
  .swagger-ui .opblock-tag { flex-wrap: wrap; }
  .swagger-ui .opblock-tag small { flex: 1 0 100%; order: 3; padding: 0.25rem 0 0; }
}
`;
