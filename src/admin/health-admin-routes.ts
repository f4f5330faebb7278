import { z } from 'zod';
import { adminRoute, type AdminRoute } from './admin-route.js';

// Health and metrics on the admin listener (docs/admin-rules.md, intro): /healthz and /readyz need no token,
// /metrics (Prometheus text) needs the operator's.

const reach = z.enum(['ok', 'unreachable']);

/** 200 or 503 of GET /readyz: whether the process takes traffic, and whether each dependency answered. */
const readinessBody = z
  .strictObject({
    status: z.enum(['ready', 'not ready', 'draining']),
    database: reach,
    shared_store: reach,
  })
  .meta({
    id: 'Readiness',
    examples: [{ status: 'ready', database: 'ok', shared_store: 'ok' }],
  });

/** The health and metrics routes of the admin listener. */
export const healthAdminRoutes: readonly AdminRoute[] = [
  adminRoute({
    operationId: 'getHealth',
    method: 'GET',
    path: '/healthz',
    summary: 'The process is up.',
    access: 'open',
    responses: { 200: z.strictObject({ status: z.literal('ok') }).meta({ examples: [{ status: 'ok' }] }) },
    problems: [],
    handle: () => Promise.resolve({ status: 200, body: { status: 'ok' } }),
  }),
  adminRoute({
    operationId: 'getReadiness',
    method: 'GET',
    path: '/readyz',
    summary:
      'The database and the shared store are reachable (503 while either is not), and the process is not shutting down (503 draining).',
    access: 'open',
    responses: { 200: readinessBody, 503: readinessBody },
    successDescriptions: {
      503: 'The database or the shared store does not answer: take the process out of rotation.',
    },
    examples: { 503: { status: 'not ready', database: 'ok', shared_store: 'unreachable' } },
    problems: [],
    // A load balancer takes the process out of rotation while either does not answer (the process
    // itself goes on and recovers on its own), and from the moment it is told to stop.
    handle: async ({ log }, { readiness }) => {
      const report = await readiness.check();
      if (!report.database.ok) log.warn({ err: report.database.error }, 'database not reachable');
      if (!report.sharedStore.ok) log.warn({ err: report.sharedStore.error }, 'shared store not reachable');
      const database = report.database.ok ? 'ok' : 'unreachable';
      const store = report.sharedStore.ok ? 'ok' : 'unreachable';
      const ready = database === 'ok' && store === 'ok' && !report.draining;
      const status = report.draining ? 'draining' : ready ? 'ready' : 'not ready';
      return { status: ready ? 200 : 503, body: { status, database, shared_store: store } };
    },
  }),
  adminRoute({
    operationId: 'getMetrics',
    method: 'GET',
    path: '/metrics',
    summary:
      'The service’s metrics as Prometheus text: requests, latency, limit refusals, rate-limit store, database, tickets, receipts, sales queries, and the process.',
    access: 'operator',
    responses: {
      200: z.string().meta({
        examples: [
          '# HELP http_requests_total Requests answered, by API (helpdesk, pos, docs, admin, console, other), operation, status and problem code.\n',
        ],
      }),
    },
    problems: [],
    handle: async (_input, { metrics }) => ({
      status: 200,
      type: metrics.registry.contentType,
      body: await metrics.text(),
    }),
  }),
];
