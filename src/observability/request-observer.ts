import type { FastifyReply, FastifyRequest } from 'fastify';
import { ADMIN_API, CONSOLE_PAGES, isUnder, publicEntryOf } from '../lib/api-registry.js';
import { redactKeys } from '../lib/redact-keys.js';
import type { Metrics } from './metrics.js';
import type { RefusalLog } from './refusal-log.js';
import type { Traffic } from './traffic.js';
import { factsOf, type ApiName } from './request-facts.js';

// What happens once a request is answered, on both listeners: it is counted (docs/operations.md, Metrics; and per
// minute for the fleet, docs/operations.md, Traffic by minute), logged in one line (docs/operations.md, Logs) and, when it was a
// refusal of a known system or account, added to that subject's last refusals (docs/operations.md, Why did my call
// fail). The line carries identifiers only: never a key (the URL's are redacted), a key hash, a body, or
// a requester's name or contact.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operation's name in its route table (admin routes; the public APIs note theirs per call). */
    operationId?: string;
  }
}

/** A balancer's and a scraper's calls, every few seconds: logged at debug, so that they do not drown the rest. */
const QUIET_OPERATIONS = new Set(['getHealth', 'getReadiness', 'getMetrics']);

/** Which part of the public listener a path belongs to. */
function publicApiOf(path: string): ApiName {
  return publicEntryOf(path)?.label ?? 'other';
}

/** Observes answered requests into the metrics, the traffic counts, the log and the refusal log. */
export function createRequestObserver(deps: {
  metrics: Metrics;
  refusals: RefusalLog;
  traffic: Pick<Traffic, 'record'>;
}) {
  const { metrics, refusals, traffic } = deps;
  return function observe(listener: 'public' | 'admin', request: FastifyRequest, reply: FastifyReply): void {
    const facts = factsOf(request);
    const path = request.url.split('?')[0] ?? '';
    const api =
      listener === 'admin'
        ? isUnder(CONSOLE_PAGES, path)
          ? CONSOLE_PAGES.label
          : ADMIN_API.label
        : publicApiOf(path);
    // The documentation pages have no operation names: their route pattern (a bounded set) stands for one.
    const operation =
      facts.operation ??
      request.routeOptions.config.operationId ??
      (api === 'docs' ? (request.routeOptions.url ?? 'none') : 'none');
    const status = reply.statusCode;
    const code = status >= 400 ? (facts.code ?? null) : null;
    const ms = reply.elapsedTime;
    metrics.request({ api, operation, status, code: code ?? 'none', seconds: ms / 1000 });
    traffic.record(api, status);
    if (facts.limit !== undefined && status >= 400) metrics.limitRefusal(api, facts.limit);
    const { subject } = facts;
    if (subject !== undefined && status >= 400) {
      refusals.record(subject, {
        request_id: request.id,
        api,
        operation,
        status,
        code,
        credential: facts.credential ?? null,
        param: facts.param ?? null,
        detail: facts.detail ?? null,
      });
    }
    const level = QUIET_OPERATIONS.has(operation) ? 'debug' : 'info';
    request.log[level](
      {
        api,
        operation,
        method: request.method,
        url: redactKeys(request.url),
        status,
        ...(code === null ? {} : { code }),
        ...(facts.limit === undefined ? {} : { limit: facts.limit }),
        duration_ms: Math.round(ms * 100) / 100,
        ...(subject === undefined ? {} : { [subject.kind]: subject.id }),
        ...(facts.credential === undefined ? {} : { credential: facts.credential }),
        ip: request.ip,
      },
      'request',
    );
  };
}
