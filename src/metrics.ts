import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one app instance (its own registry, so that test apps do not share counters). */
export function createMetrics() {
  const registry = new Registry();
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered by the public listener, by API and status.',
    labelNames: ['api', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request of the public listener, by API.',
    labelNames: ['api'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [registry],
  });
  // A client that leaves before its answer (an upload aborted mid-body, a reset connection) is no fault
  // of the service: it is counted here and logged at info, never as an error.
  const clientAborted = new Counter({
    name: 'client_aborted_requests_total',
    help: 'Requests whose client went away before the answer, by listener (public or admin).',
    labelNames: ['listener'] as const,
    registers: [registry],
  });

  // Refusals at the HTTP edge, before any API: what slow, malformed or greedy clients cost the listeners.
  const edgeRefusals = new Counter({
    name: 'http_edge_refusals_total',
    help: 'Requests refused at the HTTP edge before any API read them (malformed, too large a head, past a time limit, an Expect that cannot be met), by listener and problem code.',
    labelNames: ['listener', 'code'] as const,
    registers: [registry],
  });
  const overIpLimit = new Counter({
    name: 'connections_over_ip_limit_total',
    help: 'Connections refused by the public listener because their address already held MAX_CONNECTIONS_PER_IP open.',
    registers: [registry],
  });

  const apiOf = (url: string) =>
    url.startsWith('/v1/api-external-system/')
      ? 'helpdesk'
      : url.startsWith('/v1/api-public/')
        ? 'pos'
        : 'other';

  return {
    registry,
    /** Counts one answered request of the public listener. */
    observe(request: FastifyRequest, reply: FastifyReply): void {
      const api = apiOf(request.url);
      requests.inc({ api, status: String(reply.statusCode) });
      duration.observe({ api }, reply.elapsedTime / 1000);
    },
    /** Counts one request whose client went away before the answer. */
    clientGone(listener: 'public' | 'admin'): void {
      clientAborted.inc({ listener });
    },
    /** Counts one request refused at the HTTP edge, by its problem code. */
    edgeRefusal(listener: 'public' | 'admin', code: string): void {
      edgeRefusals.inc({ listener, code });
    },
    /** Counts one connection refused for its address's open connections. */
    connectionOverIpLimit(): void {
      overIpLimit.inc();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
