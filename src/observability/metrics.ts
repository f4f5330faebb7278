import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { DatabaseObserver } from '../db/database.js';
import type { ApiName, LimitKind } from './request-facts.js';

// The Prometheus metrics of the service (docs/operations.md, Metrics), shown on the admin listener's GET /metrics.
// Each app has its own registry, so that test apps do not share counters; the process's own metrics
// (prom-client's defaults: CPU, memory, event loop, GC) live in one registry per process, shown with it.

/** Latency buckets (seconds) of the request, store and query histograms. */
const SECONDS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];
/** The shared store answers in well under a millisecond when it is healthy. */
const STORE_SECONDS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 2.5];

let processRegistry: Registry | undefined;

/** The process's default metrics, collected once per process whatever the number of apps. */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** What one answered request contributes to the metrics. */
export interface AnsweredRequest {
  api: ApiName;
  /** The operation's name, `none` when no route matched. */
  operation: string;
  status: number;
  /** The problem code, `none` for a success or a problem without one. */
  code: string;
  seconds: number;
}

/** How a ticket request ended when it reached the ticket registry. */
export type TicketOpened = 'created' | 'duplicate';

/**
 * The instruments of requests and what serves them: answers, limits, the rate-limit store, the database.
 * Registered before `outcomeMetrics`' ones: /metrics prints them in that order.
 */
function requestMetrics(registry: Registry) {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by API (helpdesk, pos, docs, admin, console, other), operation, status and problem code.',
    labelNames: ['api', 'operation', 'status', 'code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by API and operation.',
    labelNames: ['api', 'operation'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const limitRefusals = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Calls refused by a limit, by API and kind (system, key, account, concurrency, ip_block, unauthenticated, absolute_ceiling, docs_pages, store_unavailable).',
    labelNames: ['api', 'kind'] as const,
    registers: [registry],
  });
  const storeErrors = new Counter({
    name: 'rate_limit_store_errors_total',
    help: 'Operations of the rate-limit store that failed (unreachable, too slow, or an error reply), by operation; the call went on unmeasured.',
    labelNames: ['operation'] as const,
    registers: [registry],
  });
  const storeDuration = new Histogram({
    name: 'rate_limit_store_duration_seconds',
    help: 'Round-trip time of the rate-limit store’s operations (Redis, or the in-process store), by operation.',
    labelNames: ['operation'] as const,
    buckets: STORE_SECONDS,
    registers: [registry],
  });
  const dbErrors = new Counter({
    name: 'db_errors_total',
    help: 'Database statements that failed.',
    registers: [registry],
  });
  const poolWaits = new Histogram({
    name: 'db_pool_wait_seconds',
    help: 'PostgreSQL: time a query waited for a connection because the pool was full (its _count is the number of waits).',
    buckets: SECONDS,
    registers: [registry],
  });
  return { requests, duration, limitRefusals, storeErrors, storeDuration, dbErrors, poolWaits };
}

/** The instruments of what requests did (tickets, receipts, sales queries) and of refusals at the edge. */
function outcomeMetrics(registry: Registry) {
  const tickets = new Counter({
    name: 'helpdesk_tickets_total',
    help: 'Ticket requests that reached the ticket registry: created (201) or duplicate (200, an external_id sent before).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const receipts = new Counter({
    name: 'pos_receipts_ingested_total',
    help: 'Receipts of accepted uploads, by what each did: inserted, updated or unchanged.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const salesQueries = new Histogram({
    name: 'pos_sales_query_duration_seconds',
    help: 'Time of a sales figures query (within its time limit), by outcome (ok, timed_out).',
    labelNames: ['outcome'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  const refusalLogErrors = new Counter({
    name: 'refusal_log_errors_total',
    help: 'Refusals that could not be written to, or read from, the refusal log (the shared store failed).',
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
  return { tickets, receipts, salesQueries, refusalLogErrors, clientAborted, edgeRefusals, overIpLimit };
}

/** Prometheus metrics of one app instance. */
export function createMetrics() {
  const registry = new Registry();
  const { requests, duration, limitRefusals, storeErrors, storeDuration, dbErrors, poolWaits } =
    requestMetrics(registry);
  const { tickets, receipts, salesQueries, refusalLogErrors, clientAborted, edgeRefusals, overIpLimit } =
    outcomeMetrics(registry);

  return {
    registry,
    /** The Prometheus text of this app's metrics and the process's default metrics. */
    async text(): Promise<string> {
      const [own, process] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${own}\n${process}`;
    },
    /** Counts one answered request. */
    request(answered: AnsweredRequest): void {
      const { api, operation } = answered;
      requests.inc({ api, operation, status: String(answered.status), code: answered.code });
      duration.observe({ api, operation }, answered.seconds);
    },
    /** Counts one call refused by a limit. */
    limitRefusal(api: ApiName, kind: LimitKind): void {
      limitRefusals.inc({ api, kind });
    },
    /** Times one operation of the rate-limit store, and counts it when it failed. */
    storeOperation(operation: string, seconds: number, failed: boolean): void {
      storeDuration.observe({ operation }, seconds);
      if (failed) storeErrors.inc({ operation });
    },
    /** What the database layer tells. */
    database: {
      queryFailed: () => {
        dbErrors.inc();
      },
      poolWaited: (seconds: number) => {
        poolWaits.observe(seconds);
      },
    } satisfies DatabaseObserver,
    /** Counts one ticket request that reached the registry. */
    ticketOpened(outcome: TicketOpened): void {
      tickets.inc({ outcome });
    },
    /** Counts the receipts of one accepted upload. */
    receiptsIngested(counts: { inserted: number; updated: number; unchanged: number }): void {
      receipts.inc({ outcome: 'inserted' }, counts.inserted);
      receipts.inc({ outcome: 'updated' }, counts.updated);
      receipts.inc({ outcome: 'unchanged' }, counts.unchanged);
    },
    /** Times one sales figures query. */
    salesQuery(seconds: number, outcome: 'ok' | 'timed_out'): void {
      salesQueries.observe({ outcome }, seconds);
    },
    /** Counts one write or read of the refusal log that failed. */
    refusalLogFailed(): void {
      refusalLogErrors.inc();
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
