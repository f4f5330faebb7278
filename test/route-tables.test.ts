import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '../src/errors/problem-catalogue.js';
import { posRoutes, POS_API_PREFIX } from '../src/pos/api/pos-routes.js';
import { POS_QUERY_ROUTES } from '../src/pos/api/query-params.js';
import { ticketRoutes, TICKET_API_PREFIX } from '../src/helpdesk/ticket-routes.js';
import { describeEachDialect, useTestApp } from './helper.js';
import {
  LEAD_URL,
  OPTIONS_URL,
  postTicket,
  seedHelpdesk,
  ticket,
  TICKET_URL,
  webhookUrl,
} from './helpdesk/fixtures.js';
import { getWithKey, seedPos, SALES_URL } from './pos/fixtures.js';
import { expectConforms } from './route-conformance.js';

// The route tables of the two public APIs are the contract as data: what they say must be what the
// server does. Every answer below, happy or refused, is held to its route's schemas and problem codes.

describe('route tables', () => {
  it('every operation has a unique id, a path under its prefix and codes from the one catalogue', () => {
    const all = [...ticketRoutes, ...posRoutes];
    expect(new Set(all.map((route) => route.operationId)).size).toBe(all.length);
    for (const route of ticketRoutes) expect(route.path.startsWith(TICKET_API_PREFIX)).toBe(true);
    for (const route of posRoutes) expect(route.path.startsWith(POS_API_PREFIX)).toBe(true);
    for (const route of all) for (const code of route.problems) expect(problemCatalogue).toHaveProperty(code);
  });

  it('POS: one route per parameter table, and the planned routes are those of the document (Endpoints)', () => {
    expect(posRoutes.map((route) => route.route).sort()).toEqual(Object.keys(POS_QUERY_ROUTES).sort());
    expect(posRoutes.filter((route) => route.planned === true).map((route) => route.path)).toEqual(
      [
        'sales/summary',
        'sales/by-day',
        'sales/by-product',
        'sales/by-place',
        'orders',
        'orders/{order_id}',
        'products',
      ].map((path) => `${POS_API_PREFIX}${path}`),
    );
    for (const route of posRoutes) {
      expect(route.problems.includes('forbidden_permission')).toBe(route.permission !== null);
    }
  });

  it('ticket API: the lead route is the planned one, and only JSON routes answer 415', () => {
    expect(ticketRoutes.filter((route) => route.planned === true).map((route) => route.operationId)).toEqual([
      'createLead',
    ]);
    for (const route of ticketRoutes) {
      expect(route.problems.includes('unsupported_media_type')).toBe(route.body === 'json');
    }
  });
});

describeEachDialect('route tables against the server', (dialect) => {
  const t = useTestApp(dialect);

  it('ticket API: successes match their schemas and refusals carry the codes the table lists', async () => {
    const keys = await seedHelpdesk(t);
    const answers = [
      [OPTIONS_URL, await t.call({ url: OPTIONS_URL, headers: { authorization: `Bearer ${keys.alpha}` } })],
      [TICKET_URL, await postTicket(t, keys.alpha, ticket({ cnpj: 'not a cnpj', extra: 1 }))],
      [TICKET_URL, await postTicket(t, keys.alpha, ticket({ cnpj: 'not a cnpj', extra: 1 }))],
      [
        webhookUrl('alpha'),
        await postTicket(t, keys.alpha, ticket({ external_id: 'w1' }), { url: webhookUrl('alpha') }),
      ],
      [webhookUrl('alpha'), await postTicket(t, keys.alpha, '[1', { url: webhookUrl('alpha') })],
      [TICKET_URL, await postTicket(t, keys.alpha, ticket({ company: 'nobody' }))],
      [TICKET_URL, await postTicket(t, keys.gamma, ticket())],
      [LEAD_URL, await postTicket(t, keys.beta, { external_id: 'lead-1' }, { url: LEAD_URL })],
      [
        TICKET_URL,
        await t.call({
          method: 'POST',
          url: TICKET_URL,
          payload: 'x',
          headers: { 'content-type': 'text/plain' },
        }),
      ],
    ] as const;
    const statuses = answers.map(([url, response]) => {
      expectConforms(ticketRoutes, url, response);
      return response.statusCode;
    });
    expect(statuses).toEqual([200, 201, 200, 201, 400, 422, 403, 501, 415]);
  });

  it('POS API: successes match their schemas and refusals carry the codes the table lists', async () => {
    const { key } = await seedPos(t);
    const urls = [
      '/v1/api-public/ping',
      '/v1/api-public/places',
      '/v1/api-public/events?place=P1&limit=1',
      '/v1/api-public/events?place=P1&search=s%C3%A3o',
      SALES_URL,
      `${SALES_URL}&event=E1`,
      '/v1/api-public/sales/by-payment-method?place=P9&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
      '/v1/api-public/events?place=P1&bogus=1',
      '/v1/api-public/orders/42',
      '/v1/api-public/products?place=P1',
    ];
    const statuses: number[] = [];
    for (const url of urls) {
      const response = await getWithKey(t, key, url);
      expectConforms(posRoutes, url, response);
      statuses.push(response.statusCode);
    }
    const unauthenticated = await t.call({ url: '/v1/api-public/ping' });
    expectConforms(posRoutes, '/v1/api-public/ping', unauthenticated);
    expect([...statuses, unauthenticated.statusCode]).toEqual([
      200, 200, 200, 200, 200, 200, 404, 422, 501, 501, 401,
    ]);
  });
});
