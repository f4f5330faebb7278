import { problemCatalogue, type ProblemCode } from '../errors/problem-catalogue.js';
import { statusTitle } from '../errors/problem.js';
import type { DocsAssets } from './docs-assets.js';
import { layout } from './docs-pages.js';
import { PROBLEM_CODE_TEXTS, problemAnchor, type Answerer } from './problem-codes.js';

// The page of problem codes (/docs/problems): every code of the catalogue under a stable anchor,
// `#problem-<code>`, with its status, who answers it, what it means and what to do. The refusal lists of
// the panel, the console, the admin API and the command line link each code here (docs/operations.md, Why
// did my call fail). One request, no script: it counts once toward the pages' per-IP limit.

/** The page's groups, in order: each code goes in the first whose test it passes. */
const GROUPS: readonly {
  id: string;
  title: string;
  intro: string;
  has: (by: readonly Answerer[]) => boolean;
}[] = [
  {
    id: 'both-apis',
    title: 'Both public APIs',
    intro: 'Answered by the help-desk ticket API and the point-of-sale data API alike.',
    has: (by) => by.includes('helpdesk') && by.includes('pos'),
  },
  {
    id: 'help-desk',
    title: 'Help-desk ticket API',
    intro: 'Answered to partner systems opening tickets.',
    has: (by) => by.includes('helpdesk'),
  },
  {
    id: 'pos',
    title: 'Point-of-sale data API',
    intro: 'Answered to a merchant’s integrations reading places, events and sales.',
    has: (by) => by.includes('pos'),
  },
  {
    id: 'edge',
    title: 'Before any API reads the request',
    intro: 'Answered by every address of the service when the request itself cannot be read.',
    has: (by) => by.includes('edge'),
  },
  {
    id: 'back-office',
    title: 'Back-office API',
    intro: 'Answered to the operator’s staff only; partners and merchants never get these.',
    has: () => true,
  },
];

const ANSWERER_NAMES: Record<Answerer, string> = {
  helpdesk: 'the help-desk ticket API',
  pos: 'the point-of-sale data API',
  admin: 'the back-office API',
  edge: 'any address, before an API reads the request',
};

/** The codes of each group, in the catalogue's order. */
function grouped(): { group: (typeof GROUPS)[number]; codes: ProblemCode[] }[] {
  const codes = Object.keys(problemCatalogue) as ProblemCode[];
  const placed = new Set<ProblemCode>();
  return GROUPS.map((group) => {
    const mine = codes.filter((code) => !placed.has(code) && group.has(PROBLEM_CODE_TEXTS[code].answeredBy));
    for (const code of mine) placed.add(code);
    return { group, codes: mine };
  });
}

function entry(code: ProblemCode): string {
  const text = PROBLEM_CODE_TEXTS[code];
  const { status } = problemCatalogue[code];
  const by = text.answeredBy.map((answerer) => ANSWERER_NAMES[answerer]).join('; ');
  return `<article class="docs-problem" id="${problemAnchor(code)}">
<h3><a class="docs-problem-self" href="#${problemAnchor(code)}"><code>${code}</code></a>
<span class="docs-problem-status">${status} ${statusTitle(status)}</span></h3>
<p class="docs-problem-by">Answered by ${by}.</p>
<p><strong>What it means.</strong> ${text.means}</p>
<p><strong>What to do.</strong> ${text.todo}</p>
</article>`;
}

/** The page of problem codes. */
export function problemsPage(prefix: string, assets: DocsAssets): string {
  const groups = grouped().filter(({ codes }) => codes.length > 0);
  const contents = groups
    .map(
      ({ group, codes }) =>
        `<li><a href="#${group.id}">${group.title}</a>: ${codes
          .map((code) => `<a href="#${problemAnchor(code)}"><code>${code}</code></a>`)
          .join(', ')}</li>`,
    )
    .join('\n');
  const sections = groups
    .map(
      ({ group, codes }) => `<section aria-labelledby="${group.id}">
<h2 id="${group.id}">${group.title}</h2>
<p>${group.intro}</p>
${codes.map(entry).join('\n')}
</section>`,
    )
    .join('\n');
  return layout({
    title: 'Problem codes',
    prefix,
    assets,
    body: `<main class="docs-main docs-problems">
<h1>Problem codes</h1>
<p>Every refusal is <code>application/problem+json</code> with a <code>status</code> and, nearly always, a
<code>code</code>: decide by the code, never by the English <code>detail</code>, and handle a code you do not
know by its status. <code>param</code>, when present, names the field or query parameter to fix. Each code
below keeps its address (<code>#problem-&lt;code&gt;</code>), so a refusal can link straight to it.</p>
<nav aria-label="Codes"><ul class="docs-problem-index">
${contents}
</ul></nav>
${sections}
</main>`,
  });
}
