import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.js';
import { sendProblem } from '../http/send-problem.js';
import { helpDeskDocument } from '../openapi/help-desk-document.js';
import { posDocument } from '../openapi/pos-document.js';
import type { Json } from '../openapi/schema-components.js';
import type { PosLimits } from '../pos/pos-limits.js';

// The documentation of both public APIs, outside both prefixes, under /docs (DECISIONS, POS data API):
// today the two OpenAPI documents; the rendered pages come later under the same prefix and the same
// limit. Every call under the prefix, a miss included, counts toward the per-IP limit of 30 a minute.

/** The prefix of the documentation on the public listener. */
export const DOCS_PREFIX = '/docs';

/** What the documentation is served from. */
export interface DocsDeps {
  /** The per-IP limit of the documentation pages. */
  limits: Pick<PosLimits, 'checkDocumentationPage'>;
  /** `{base_url}` of the documents' `servers` (config PUBLIC_BASE_URL). */
  publicBaseUrl: string;
  /** Answers a path under the prefix that is no page (the listener's own not-found answer). */
  notFound(request: FastifyRequest, reply: FastifyReply): unknown;
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
      docs.addHook('onRequest', async (request, reply) => {
        const decision = await deps.limits.checkDocumentationPage(request.ip);
        if (decision.ok) return;
        // Returning the reply ends the request here: neither the page nor the not-found answer runs.
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
      docs.setNotFoundHandler((request, reply) => deps.notFound(request, reply));
      done();
    },
    { prefix: DOCS_PREFIX },
  );
}
