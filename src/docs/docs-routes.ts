import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { Problem } from '../errors/problem.js';
import { sendProblem } from '../http/send-problem.js';
import { DOCS_PAGES } from '../lib/api-registry.js';
import { noteRequest } from '../observability/request-facts.js';
import { helpDeskDocument } from '../openapi/help-desk-document.js';
import { posDocument } from '../openapi/pos-document.js';
import type { Json } from '../openapi/schema-components.js';
import { POS_DOCS_PER_IP, type PosLimits } from '../pos/api/pos-limits.js';
import { docsAssets, type DocsAsset } from './docs-assets.js';
import { API_PAGES, DOCS_CSP, indexPage, referencePage } from './docs-pages.js';
import { rateLimitedPage, readerLocale, wantsPage } from './docs-refusal.js';
import { helpDeskGuide, posGuide } from './getting-started.js';
import { PROBLEM_CODES_PATH } from './problem-codes.js';
import { problemsPage } from './problems-page.js';
import { addStrictTransportSecurity } from '../web/https-only.js';

// The documentation of both public APIs, outside both prefixes, under /docs (docs/pos-api.md, Settled
// details): an index, one page per API (a getting started, then the document rendered), the two OpenAPI
// documents and the renderer's files. Every call under the prefix, a miss included, counts toward the per-IP
// limit of 30 a minute; so a page is one request, its document inside it, and its two files are fingerprinted
// and kept by the browser for a year: opening the three pages costs five requests, then one a page.

/** The prefix of the documentation on the public listener. */
const DOCS_PREFIX = DOCS_PAGES.prefix;

/** What the documentation is served from. */
export interface DocsDeps {
  /** The per-IP limit of the documentation pages. */
  limits: Pick<PosLimits, 'checkDocumentationPage'>;
  /** `{base_url}` of the documents' `servers` and of the guides' commands (config PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** Dates the POS guide's sales query (the last 3 days). */
  clock: Clock;
  /** Answers a path under the prefix that is no page (the listener's own not-found answer). */
  notFound(request: FastifyRequest, reply: FastifyReply): unknown;
  /** `production` (config NODE_ENV): the answers over HTTPS carry Strict-Transport-Security. */
  env: Config['env'];
}

/** The documents by base URL: generated once per process, on first request. */
const generated = new Map<string, Json>();

function documentOf(name: 'help-desk' | 'pos', baseUrl: string): Json {
  const key = `${name} ${baseUrl}`;
  let document = generated.get(key);
  if (document === undefined) {
    document = name === 'help-desk' ? helpDeskDocument(baseUrl) : posDocument(baseUrl);
    generated.set(key, document);
  }
  return document;
}

/** Registers the documentation under /docs on the public listener, its limit on the whole prefix. */
export function registerDocs(app: FastifyInstance, deps: DocsDeps): void {
  void app.register(
    (docs, _options, done) => {
      addStrictTransportSecurity(docs, deps);
      docs.addHook('onRequest', async (request, reply) => {
        const decision = await deps.limits.checkDocumentationPage(request.ip);
        if (decision.ok) return;
        noteRequest(request, { limit: 'docs_pages' });
        // Returning the reply ends the request here: neither the page nor the not-found answer runs. A
        // browser gets a page to read; every other caller the problem, as the APIs' callers do.
        if (wantsPage(request)) {
          noteRequest(request, { code: 'rate_limited' });
          return page(reply.code(429).headers(decision.headers)).send(
            rateLimitedPage({
              prefix: DOCS_PREFIX,
              assets: docsAssets(),
              locale: readerLocale(request),
              limit: POS_DOCS_PER_IP,
              retryAfterSeconds: decision.retryAfter,
            }),
          );
        }
        return sendProblem(
          reply,
          Problem.of(
            'rate_limited',
            {
              detail:
                'Too many requests for the documentation from this IP. Retry after the time in the Retry-After header.',
            },
            { ...decision.headers },
          ),
        );
      });
      for (const name of ['help-desk', 'pos'] as const) {
        docs.get(`/openapi/${name}.json`, (_request, reply) =>
          reply
            .type('application/json; charset=utf-8')
            .send(JSON.stringify(documentOf(name, deps.publicBaseUrl))),
        );
      }
      docs.get('/', (_request, reply) =>
        page(reply).send(indexPage(DOCS_PREFIX, docsAssets(), deps.publicBaseUrl)),
      );
      docs.get(PROBLEM_CODES_PATH, (_request, reply) =>
        page(reply).send(problemsPage(DOCS_PREFIX, docsAssets())),
      );
      docs.get(API_PAGES['help-desk'].path, (_request, reply) =>
        page(reply).send(
          referencePage(
            DOCS_PREFIX,
            docsAssets(),
            API_PAGES['help-desk'],
            helpDeskGuide(deps.publicBaseUrl),
            documentOf('help-desk', deps.publicBaseUrl),
          ),
        ),
      );
      docs.get(API_PAGES.pos.path, (_request, reply) =>
        page(reply).send(
          referencePage(
            DOCS_PREFIX,
            docsAssets(),
            API_PAGES.pos,
            posGuide(deps.publicBaseUrl, deps.clock.now()),
            documentOf('pos', deps.publicBaseUrl),
          ),
        ),
      );
      docs.get<{ Params: { file: string } }>('/assets/:file', (request, reply) => {
        const { script, stylesheet, icon } = docsAssets();
        const asset = [script, stylesheet, icon].find((a) => a.path === `/assets/${request.params.file}`);
        if (asset === undefined) return deps.notFound(request, reply);
        return sendAsset(request, reply, asset);
      });
      docs.setNotFoundHandler((request, reply) => deps.notFound(request, reply));
      done();
    },
    { prefix: DOCS_PREFIX },
  );
}

/** An HTML page: its CSP; not stored (the POS guide's dates move, and a page is one request anyway). */
function page(reply: FastifyReply): FastifyReply {
  return reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_CSP);
}

/**
 * A fingerprinted file: its path changes with its bytes, so the browser keeps it for a year without
 * asking again (each ask would count toward the limit), gzipped when the browser accepts it.
 */
function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: DocsAsset): FastifyReply {
  reply
    .type(asset.type)
    .header('cache-control', 'public, max-age=31536000, immutable')
    .header('vary', 'accept-encoding');
  if (/\bgzip\b/i.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(asset.gzip);
  }
  return reply.send(asset.body);
}
