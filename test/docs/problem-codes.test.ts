import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROBLEM_CODE_TEXTS, problemDocPath, type Answerer } from '../../src/docs/problem-codes.js';
import { problemCatalogue, type ProblemCode } from '../../src/errors/problem-catalogue.js';
import { bodyOf } from '../expect-http.js';
import { dialects, useTestApp } from '../helper.js';
import { publicRequest } from '../request.js';

// The page of problem codes (docs/api-conventions.md, Documentation pages): every code of the catalogue under
// a stable anchor, `#problem-<code>`, saying what it means and what to do; the refusal lists link there
// (docs/operations.md, Why did my call fail).

const CODES = Object.keys(problemCatalogue) as ProblemCode[];

/** The codes an OpenAPI document lists in its responses' `x-problem-codes`. */
function codesOf(document: unknown): Set<string> {
  const codes = new Set<string>();
  JSON.stringify(document, (key, value: unknown) => {
    if (key === 'x-problem-codes') for (const code of value as string[]) codes.add(code);
    return value;
  });
  return codes;
}

describe('the page of problem codes, /docs/problems', () => {
  const t = useTestApp(dialects[0]!);

  it('has an anchor for every code of the catalogue, with its status, its meaning and what to do', async () => {
    const response = await publicRequest(t, { url: '/docs/problems' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    const page = response.body;
    for (const code of CODES) {
      const start = page.indexOf(`<article class="docs-problem" id="problem-${code}">`);
      expect(start, code).toBeGreaterThan(0);
      const article = page.slice(start, page.indexOf('</article>', start));
      expect(article, code).toContain(`<code>${code}</code>`);
      expect(article, code).toContain(`>${problemCatalogue[code].status} `);
      expect(article, code).toMatch(/What it means\.<\/strong> \S/);
      expect(article, code).toMatch(/What to do\.<\/strong> \S/);
      // The index at the top links each code too.
      expect(page, code).toContain(`<a href="#problem-${code}"><code>${code}</code></a>`);
    }
    // Each anchor once: a code is in one group.
    expect(page.match(/<article class="docs-problem" id=/g)).toHaveLength(CODES.length);
  });

  it('says who answers each code as the OpenAPI documents list it', async () => {
    const listed: Record<Exclude<Answerer, 'edge'>, Set<string>> = {
      helpdesk: codesOf(bodyOf(await publicRequest(t, { url: '/docs/openapi/help-desk.json' }))),
      pos: codesOf(bodyOf(await publicRequest(t, { url: '/docs/openapi/pos.json' }))),
      admin: codesOf(JSON.parse(readFileSync('openapi/admin.json', 'utf8'))),
    };
    for (const code of CODES) {
      const by = PROBLEM_CODE_TEXTS[code].answeredBy;
      for (const answerer of ['helpdesk', 'pos', 'admin'] as const) {
        expect(by.includes(answerer), `${code} by ${answerer}`).toBe(listed[answerer].has(code));
      }
      // A code no document lists is answered at the edge, before any API.
      if (by.length === 0 || !by.some((answerer) => answerer !== 'edge')) expect(by).toEqual(['edge']);
    }
  });

  it('every page links to it; a code’s path is its anchor, none for no code or an unknown one', async () => {
    for (const url of ['/docs', '/docs/help-desk', '/docs/pos', '/docs/problems']) {
      const response = await publicRequest(t, { url });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain('<a href="/docs/problems">Problem codes</a>');
    }
    expect(problemDocPath('invalid_parameter')).toBe('/docs/problems#problem-invalid_parameter');
    expect(problemDocPath(null)).toBeNull();
    expect(problemDocPath('no_such_code')).toBeNull();
    expect(problemDocPath('toString')).toBeNull();
  });
});
