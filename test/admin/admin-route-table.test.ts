import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AdminRoute } from '../../src/admin/admin-route.js';
import { adminRoutes } from '../../src/admin/admin-routes.js';
import { fastifyPath } from '../../src/admin/register-admin-routes.js';
import { problemCatalogue } from '../../src/errors/problem-catalogue.js';
import { pathMatcher } from '../../src/http/route-path.js';
import { bodyOf } from '../expect-http.js';
import { postTicket, ticket } from '../helpdesk/fixtures.js';
import {
  ADMIN_TOKEN,
  adminAs,
  describeEachDialect,
  SUPPORT_TOKEN,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { HD, POS } from './fixtures.js';

// The admin route table is the back office's contract as data (docs/admin-rules.md): every operation once,
// registered on the admin listener as declared, and every happy answer described exactly by its schema
// (strict objects: an undocumented member fails).

describe('admin route table', () => {
  it('every operation has a unique id and codes from the one catalogue', () => {
    const ids = adminRoutes.map((route) => route.operationId);
    expect(new Set(ids).size, ids.join(', ')).toBe(ids.length);
    for (const route of adminRoutes) {
      expect(route.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      for (const code of route.problems) expect(problemCatalogue).toHaveProperty(code);
      expect(Object.keys(route.responses).length).toBeGreaterThan(0);
    }
  });

  it('one route per method and path', () => {
    const keys = adminRoutes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

/** One happy call: the request, and the operation the table says answers it. */
interface Call {
  method: NonNullable<InjectOptions['method']>;
  url: string;
  body?: unknown;
  ndjson?: string;
}

const byMethod = new Map(
  ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((method) => [
    method,
    pathMatcher(adminRoutes.filter((route) => route.method === method)),
  ]),
);

/** The table's route for a request, by method and path. */
function routeOf(call: Call): AdminRoute {
  const found = byMethod.get(call.method)?.match(call.url.split('?')[0] ?? '');
  if (found === undefined) throw new Error(`no route of the table for ${call.method} ${call.url}`);
  return found.route;
}

/** Sends a call as the operator and holds its 2xx answer to the route's response schema. */
async function drive(
  t: TestApp,
  call: Call,
): Promise<{ route: AdminRoute; response: LightMyRequestResponse }> {
  const route = routeOf(call);
  const response = await t.app.admin.inject({
    method: call.method,
    url: call.url,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(call.ndjson === undefined ? {} : { 'content-type': 'application/x-ndjson' }),
    },
    ...(call.body === undefined ? {} : { payload: call.body as InjectOptions['payload'] }),
    ...(call.ndjson === undefined ? {} : { payload: call.ndjson }),
  });
  const where = `${route.operationId} (${call.method} ${call.url}) answered ${response.statusCode}: ${response.body.slice(0, 300)}`;
  expect(response.statusCode, where).toBeLessThan(300);
  expect(Object.keys(route.responses), where).toContain(String(response.statusCode));
  const schema = route.responses[response.statusCode];
  if (schema === null || schema === undefined) {
    expect(response.body, where).toBe('');
  } else if (String(response.headers['content-type']).startsWith('application/json')) {
    expect(() => schema.parse(JSON.parse(response.body)), where).not.toThrow();
  } else {
    expect(() => schema.parse(response.body), where).not.toThrow();
  }
  return { route, response };
}

describeEachDialect('admin route table against the admin listener', (dialect) => {
  const t = useTestApp(dialect);

  it('every route of the table is registered on the admin listener', async () => {
    // Uploads are registered in a context of their own, which Fastify builds when the listener is ready.
    await t.app.admin.ready();
    for (const route of adminRoutes) {
      const url = fastifyPath(route.path);
      expect(t.app.admin.hasRoute({ method: route.method, url }), `${route.method} ${url}`).toBe(true);
    }
  });

  it('each route answers the tokens as its access level says (docs/admin-rules.md, intro)', async () => {
    for (const route of adminRoutes) {
      const url = route.path.replace(/\{[^}]+\}/g, 'x1');
      const anonymous = await adminAs(t, undefined, route.method, url);
      const support = await adminAs(t, SUPPORT_TOKEN, route.method, url);
      const where = `${route.operationId}: ${anonymous.statusCode}, ${support.statusCode}`;
      expect(anonymous.statusCode === 401, where).toBe(route.access !== 'open');
      expect(support.statusCode === 403, where).toBe(route.access === 'operator');
    }
  });

  it('one happy call per operation: each 2xx body parses with its route’s response schema', async () => {
    const driven = new Set<string>();
    const run = async (call: Call) => {
      const { route, response } = await drive(t, call);
      driven.add(route.operationId);
      return response;
    };

    await run({ method: 'GET', url: '/healthz' });
    await run({ method: 'GET', url: '/readyz' });

    // The help-desk catalog, a system and its keys.
    await run({ method: 'PUT', url: `${HD}/companies/acme`, body: { name: 'Acme' } });
    await run({ method: 'GET', url: `${HD}/companies` });
    await run({ method: 'PUT', url: `${HD}/category-types/1`, body: { name: 'Incidente' } });
    await run({ method: 'GET', url: `${HD}/category-types` });
    const priority = { name: 'Alta', description: 'Fast', level: 2, response_time_hours: 8 };
    await run({ method: 'PUT', url: `${HD}/priorities/2`, body: priority });
    await run({ method: 'GET', url: `${HD}/priorities` });
    await run({
      method: 'PUT',
      url: `${HD}/categories/10`,
      body: { name: 'Rede', type_id: 1, default_priority_id: 2 },
    });
    await run({ method: 'PUT', url: `${HD}/categories/11`, body: { name: 'Impressão', type_id: 1 } });
    await run({ method: 'GET', url: `${HD}/categories` });
    await run({ method: 'PUT', url: `${HD}/support-levels/1`, body: { name: 'N1' } });
    await run({ method: 'GET', url: `${HD}/support-levels` });
    await run({ method: 'PUT', url: `${HD}/natures/duvida`, body: { name: 'Dúvida' } });
    await run({ method: 'GET', url: `${HD}/natures` });
    const system = { name: 'Alpha', default_category_id: 10, released_category_ids: [11] };
    await run({ method: 'PUT', url: `${HD}/systems/alpha`, body: system });
    await run({ method: 'GET', url: `${HD}/systems` });
    const first = bodyOf(await run({ method: 'POST', url: `${HD}/systems/alpha/keys/rotate` }));
    expect(first.previous_valid_until).toBeNull();
    const rotated = bodyOf(await run({ method: 'POST', url: `${HD}/systems/alpha/keys/rotate` }));
    expect(rotated.previous_valid_until).not.toBeNull();
    await run({ method: 'GET', url: `${HD}/systems/alpha` });
    await run({ method: 'POST', url: `${HD}/systems/alpha/keys/stop-previous` });

    // Tickets: two through the public API, listed one per page.
    const key = String(rotated.key);
    for (const id of ['t-1', 't-2']) {
      const opened = await postTicket(
        t,
        key,
        ticket({ external_id: id, nature: 'duvida', cnpj: '12.345.678/0001-95' }),
      );
      expect(opened.statusCode, opened.body).toBe(201);
    }
    const page = bodyOf(await run({ method: 'GET', url: `${HD}/tickets?limit=1` }));
    expect(page.next_cursor).not.toBeNull();
    await run({ method: 'GET', url: `${HD}/tickets?cursor=${String(page.next_cursor)}&system=alpha` });
    await run({ method: 'GET', url: `${HD}/systems/alpha/refusals` });

    await run({ method: 'PUT', url: `${HD}/maintenance`, body: { enabled: false } });
    await run({ method: 'GET', url: `${HD}/maintenance` });
    await run({ method: 'DELETE', url: `${HD}/categories/11` });

    // Point-of-sale data and receipts.
    const account = `${POS}/accounts/acme`;
    await run({ method: 'PUT', url: account, body: { name: 'Acme Bares' } });
    await run({ method: 'GET', url: `${POS}/accounts` });
    await run({ method: 'GET', url: account });
    await run({ method: 'PUT', url: `${account}/places/P1`, body: { timezone: 'America/Sao_Paulo' } });
    await run({ method: 'GET', url: `${account}/places` });
    const event = {
      name: 'Show',
      starts_at: '2026-11-20T20:00:00-03:00',
      ends_at: '2026-11-21T02:00:00-03:00',
    };
    await run({ method: 'PUT', url: `${account}/places/P1/events/E1`, body: event });
    await run({ method: 'GET', url: `${account}/places/P1/events` });
    const receipt = (id: string, event: string | null) => ({
      id,
      place: 'P1',
      event,
      occurred_at: '2026-11-20T21:30:00-03:00',
      payment_method: 'pix',
      amount: '12.50',
      kind: 'sale',
    });
    await run({ method: 'POST', url: `${account}/receipts`, body: { receipts: [receipt('R1', 'E1')] } });
    await run({
      method: 'POST',
      url: `${account}/receipts`,
      ndjson: `${JSON.stringify(receipt('R1', null))}\n${JSON.stringify(receipt('R2', null))}\n`,
    });
    await run({ method: 'DELETE', url: `${account}/places/P1/events/E1` });

    // Merchants' keys.
    const created = bodyOf(await run({ method: 'POST', url: `${account}/keys`, body: { name: 'ERP' } }));
    const keyUrl = `${account}/keys/${String(created.id)}`;
    await run({ method: 'GET', url: `${account}/keys` });
    await run({ method: 'GET', url: `${POS}/keys?account=acme` });
    await run({ method: 'PATCH', url: keyUrl, body: { name: 'ERP 2', places: ['P1'] } });
    await run({ method: 'POST', url: `${keyUrl}/rotate` });
    await run({ method: 'POST', url: `${keyUrl}/pause` });
    await run({ method: 'POST', url: `${keyUrl}/reactivate` });
    await run({ method: 'POST', url: `${keyUrl}/revoke` });
    await run({ method: 'GET', url: `${account}/refusals?limit=10` });

    // The merchant panel's people: an invitation, and the account's users.
    await run({ method: 'POST', url: `${account}/users`, body: { email: 'ana@example.com', name: 'Ana' } });
    await run({ method: 'GET', url: `${account}/users` });

    // The key audit trail.
    await run({ method: 'GET', url: '/admin/v1/audit/keys?kind=merchant&limit=2' });
    await run({ method: 'GET', url: '/admin/v1/helpdesk/systems/alpha/audit' });
    await run({ method: 'GET', url: `${account}/audit` });
    await run({ method: 'GET', url: `${keyUrl}/audit?event=rotated,revoked` });

    // The back-office console's staff users, and the back-office action log (written by the calls above).
    const staff = bodyOf(
      await run({
        method: 'POST',
        url: '/admin/v1/staff/users',
        body: { email: 'bia@example.com', name: 'Bia', role: 'support' },
      }),
    );
    await run({ method: 'GET', url: '/admin/v1/staff/users' });
    await run({ method: 'POST', url: `/admin/v1/staff/users/${String(staff.id)}/password-link` });
    await run({ method: 'POST', url: `/admin/v1/staff/users/${String(staff.id)}/disable` });
    const actions = bodyOf(await run({ method: 'GET', url: '/admin/v1/audit/actions?limit=2' }));
    await run({ method: 'GET', url: `/admin/v1/audit/actions?cursor=${String(actions.next_cursor)}` });

    // The document of this table (its own operation is in it too).
    const document = bodyOf(await run({ method: 'GET', url: '/admin/v1/openapi.json' }));
    expect(Object.keys(document.paths as object)).toContain('/admin/v1/openapi.json');

    // Last, so that the public calls above are counted in it.
    const metrics = await run({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toContain('http_requests_total');

    expect(adminRoutes.map((route) => route.operationId).filter((id) => !driven.has(id))).toEqual([]);
  });
});
