import type { FastifyRequest } from 'fastify';
import { escapeHtml } from '../lib/escape-html.js';
import { translator, type Catalogue, type Locale } from '../web/i18n.js';
import type { DocsAssets } from './docs-assets.js';
import { layout } from './docs-pages.js';

// The refusal of the documentation's per-IP limit as a person in a browser meets it: a page in the
// reader's language (the browser's Accept-Language, Portuguese or English; English, the pages' own, when
// it names neither), with the same status and Retry-After as the JSON answer that every other caller
// (curl, a client reading the documents) keeps getting (docs/getting-started.md, Documentation pages).

type DocsRefusalMessage = 'title' | 'text' | 'retry' | 'back';

const MESSAGES: Catalogue<DocsRefusalMessage> = {
  'pt-BR': {
    title: 'Muitas solicitações',
    text: 'As páginas de documentação aceitam {limit} solicitações por minuto de um mesmo endereço, e este endereço passou do limite.',
    retry: 'Tente novamente em {seconds} segundos.',
    back: 'Voltar ao índice da documentação',
  },
  en: {
    title: 'Too many requests',
    text: 'The documentation pages take {limit} requests a minute from one address, and this address went over.',
    retry: 'Try again in {seconds} seconds.',
    back: 'Back to the documentation index',
  },
};

/** One entry of an `Accept` or `Accept-Language` list: its value and its weight. */
interface Weighted {
  value: string;
  q: number;
}

/** The entries of a comma-separated list with `;q=` weights (RFC 9110, 12.4.2), lowercased. */
function weighted(header: string | undefined): Weighted[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((part) => {
      const [value = '', ...params] = part.split(';').map((piece) => piece.trim());
      const weight = params.find((param) => /^q=/i.test(param));
      const q = weight === undefined ? 1 : Number(weight.slice(2));
      return { value: value.toLowerCase(), q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 };
    })
    .filter((entry) => entry.value !== '');
}

/** The weight an `Accept` list gives a media type: its most specific matching range's (RFC 9110, 12.5.1). */
function weightOf(accept: readonly Weighted[], type: string): number {
  const [major] = type.split('/');
  const exact = accept.find((entry) => entry.value === type);
  const group = accept.find((entry) => entry.value === `${major}/*`);
  const any = accept.find((entry) => entry.value === '*/*');
  return (exact ?? group ?? any)?.q ?? 0;
}

/**
 * Whether the caller is a browser showing the answer: it prefers HTML to JSON. A browser's navigation
 * (`text/html` first, any type at a lower weight) does; curl (any type, all alike), a client asking for
 * JSON, or no `Accept` at all do not.
 */
export function wantsPage(request: FastifyRequest): boolean {
  const accept = weighted(request.headers.accept);
  const html = weightOf(accept, 'text/html');
  return (
    html > 0 &&
    html > weightOf(accept, 'application/json') &&
    html > weightOf(accept, 'application/problem+json')
  );
}

/** The reader's language among the faces' two: the first of Accept-Language that is one of them. */
export function readerLocale(request: FastifyRequest): Locale {
  const header = request.headers['accept-language'];
  const ranked = weighted(Array.isArray(header) ? header.join(',') : header)
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { value } of ranked) {
    const primary = value.split('-')[0];
    if (primary === 'pt') return 'pt-BR';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

/** The page of the limit's 429: what happened, when to come back, and the way back to the index. */
export function rateLimitedPage(options: {
  prefix: string;
  assets: DocsAssets;
  locale: Locale;
  /** The limit a minute. */
  limit: number;
  /** The `Retry-After` of the answer, in seconds. */
  retryAfterSeconds: number;
}): string {
  const t = translator(MESSAGES, options.locale);
  return layout({
    title: t('title'),
    prefix: options.prefix,
    assets: options.assets,
    lang: options.locale,
    body: `<main class="docs-main">
<h1>${escapeHtml(t('title'))}</h1>
<p>${escapeHtml(t('text', { limit: options.limit }))}</p>
<p><strong>${escapeHtml(t('retry', { seconds: options.retryAfterSeconds }))}</strong></p>
<p><a href="${options.prefix}">${escapeHtml(t('back'))}</a></p>
</main>`,
  });
}
