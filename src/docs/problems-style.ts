// The look of the page of problem codes (src/docs/problems-page.ts), served after the pages' stylesheet.

/** The page's own look, after the pages' stylesheet. */
export const PROBLEMS_STYLE = `
.docs-problem-index { padding-left: 1.25rem; }
.docs-problem-index li { margin: 0.25rem 0; }
.docs-problem { border: 1px solid #d0d7de; border-radius: 8px; padding: 0.25rem 1rem 0.5rem; margin: 0.75rem 0;
  scroll-margin-top: 1rem; overflow-wrap: anywhere; }
.docs-problem:target { border-color: #0b57d0; box-shadow: 0 0 0 2px #0b57d0; background: #f5f9ff; }
.docs-problem h3 { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.75rem; }
.docs-problem-self { text-decoration: none; }
.docs-problem-status { font-weight: normal; color: #57606a; font-size: 0.95rem; }
.docs-problem-by { color: #57606a; }
`;
