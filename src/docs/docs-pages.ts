import { escapeHtml } from '../lib/escape-html.js';
import type { Json } from '../openapi/schema-components.js';
import type { DocsAssets } from './docs-assets.js';
import type { Guide } from './getting-started.js';
import { PROBLEM_CODES_PATH } from './problem-codes.js';

/**
 * The Content-Security-Policy of the pages: everything from this service and nothing else (no CDN, no
 * font or analytics host), no inline script or style, no frames, no forms; `data:` images are the
 * renderer's icons.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** One public API as its page presents it. */
export interface ApiPage {
  /** The page's path under the prefix: `/help-desk` or `/pos`. */
  path: string;
  /** The document's path under the prefix: `/openapi/help-desk.json`. */
  documentPath: string;
  title: string;
  /** One sentence saying who calls the API and for what. */
  summary: string;
}

/** The two public APIs, in the order the index lists them. */
export const API_PAGES = {
  'help-desk': {
    path: '/help-desk',
    documentPath: '/openapi/help-desk.json',
    title: 'Partner Help Desk Ticket API',
    summary:
      'Partner systems open help-desk tickets with a JSON POST or a webhook-style POST, and read the ticket options.',
  },
  pos: {
    path: '/pos',
    documentPath: '/openapi/pos.json',
    title: 'Point-of-Sale Data API',
    summary:
      "Merchants' integrations read places, events and receipts by payment method, with keys the merchant manages.",
  },
} as const satisfies Record<string, ApiPage>;

/** A whole page: its head (title, icon, stylesheet), the pages' navigation, its body and script. */
export function layout(options: {
  title: string;
  prefix: string;
  assets: DocsAssets;
  body: string;
  script?: string;
  /** The page's language: English but for a refusal, which speaks the reader's. */
  lang?: string;
}) {
  const { title, prefix, assets } = options;
  const script =
    options.script === undefined
      ? ''
      : `\n${options.script}\n<script src="${prefix}${assets.script.path}"></script>`;
  return `<!doctype html>
<html lang="${options.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="${prefix}${assets.icon.path}" type="image/svg+xml">
<link rel="stylesheet" href="${prefix}${assets.stylesheet.path}">
</head>
<body class="docs-page">
<header class="docs-header">
<nav aria-label="Documentation" lang="en">
<a href="${prefix}">All documentation</a>
<a href="${prefix}${API_PAGES['help-desk'].path}">Help-desk tickets</a>
<a href="${prefix}${API_PAGES.pos.path}">Point-of-sale data</a>
<a href="${prefix}${PROBLEM_CODES_PATH}">Problem codes</a>
</nav>
</header>
${options.body}${script}
</body>
</html>
`;
}

/** The index: both APIs, their pages and their documents. */
export function indexPage(prefix: string, assets: DocsAssets, publicBaseUrl: string): string {
  const cards = Object.values(API_PAGES)
    .map(
      (api) => `<li>
<h2><a href="${prefix}${api.path}">${escapeHtml(api.title)}</a></h2>
<p>${escapeHtml(api.summary)}</p>
<p><a href="${prefix}${api.path}">Getting started and reference</a> ·
<a href="${prefix}${api.documentPath}">OpenAPI 3.1 document (JSON)</a></p>
</li>`,
    )
    .join('\n');
  return layout({
    title: 'API documentation',
    prefix,
    assets,
    body: `<main class="docs-main">
<h1>API documentation</h1>
<p>Two public APIs are served from <code>${escapeHtml(publicBaseUrl)}</code>. Each page starts with a short
getting started (your key, the first call, when to retry) followed by the reference of every operation,
generated from the same route tables the server runs.</p>
<ul class="docs-cards">
${cards}
</ul>
<p>What each refusal's <code>code</code> means and what to do about it:
<a href="${prefix}${PROBLEM_CODES_PATH}">Problem codes</a>.</p>
<p>The OpenAPI documents can be fed to a client generator. These pages allow 30 requests a minute from one
address; the APIs' own limits are separate.</p>
</main>`,
  });
}

/** A reference page: the API's guide, then its document rendered by the renderer. */
export function referencePage(
  prefix: string,
  assets: DocsAssets,
  api: ApiPage,
  guide: Guide,
  document: Json,
): string {
  const steps = guide.steps
    .map((step) => {
      const paragraphs = step.html.map((html) => `<p>${html}</p>`).join('\n');
      const command =
        step.command === undefined ? '' : `\n<pre><code>${escapeHtml(step.command)}</code></pre>`;
      return `<li>\n<h3>${escapeHtml(step.title)}</h3>\n${paragraphs}${command}\n</li>`;
    })
    .join('\n');
  // `<` escaped, so that no text of the document can close the script element.
  const json = JSON.stringify(document).replace(/</g, '\\u003c');
  return layout({
    title: api.title,
    prefix,
    assets,
    body: `<main>
<div class="docs-main">
<h1>${escapeHtml(api.title)}</h1>
<p>${escapeHtml(api.summary)} The OpenAPI 3.1 document:
<a href="${prefix}${api.documentPath}">${escapeHtml(prefix + api.documentPath)}</a>.</p>
<section aria-labelledby="getting-started">
<h2 id="getting-started">Getting started</h2>
<ol class="docs-steps">
${steps}
</ol>
</section>
</div>
<section class="docs-reference" aria-labelledby="reference">
<h2 id="reference">Reference</h2>
<div id="api-reference"><p class="docs-main">The reference needs JavaScript; without it, read the
<a href="${prefix}${api.documentPath}">OpenAPI document</a>.</p></div>
</section>
</main>`,
    script: `<script type="application/json" id="openapi-document">${json}</script>`,
  });
}
