import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { adminAs, describeEachDialect, useTestApp, ADMIN_TOKEN } from '../helper.js';
import { postTicket, seedHelpdesk, ticket, TICKET_URL } from '../helpdesk/fixtures.js';
import { PING } from '../pos/fixtures.js';
import { unavailableDeviations } from './shutdown-outcomes.js';

// What both listeners answer while the process shuts down (docs/operations.md, Running a fleet: Shutdown): while
// draining, /readyz says 503 and everything else is served, closing its connection; once closing, each
// API answers its own 503 before any other check (docs/ticket-api.md and docs/pos-api.md, Errors,
// 503) and nothing of the request is applied.

/** The injected answer in the shape the shared checks read. */
const asResponse = (response: LightMyRequestResponse) => ({
  status: response.statusCode,
  headers: response.headers as Record<string, string>,
  text: response.body,
  json: response.headers['content-type']?.toString().includes('json')
    ? (JSON.parse(response.body) as unknown)
    : undefined,
});

const POS_DETAIL =
  'This endpoint is temporarily unable to accept requests. Retry after the time in the Retry-After header.';

describeEachDialect('shutdown: the answers of both listeners', (dialect) => {
  const t = useTestApp(dialect);

  const ticketCount = async () =>
    Number(
      (
        await t.db
          .selectFrom('hd_tickets')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('draining: /readyz answers 503 "draining" though the database and the store answer; the APIs still serve, every answer with Connection: close', async () => {
    const keys = await seedHelpdesk(t);
    const before = await t.app.admin.inject({ url: '/readyz' });
    expect(before.statusCode).toBe(200);
    expect(before.headers.connection).not.toBe('close');
    expect((await postTicket(t, keys.alpha, ticket({ external_id: 'before' }))).headers.connection).not.toBe(
      'close',
    );

    t.services.lifecycle.startDraining();
    const ready = await t.app.admin.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'draining', database: 'ok', shared_store: 'ok' });
    expect(ready.headers.connection).toBe('close');
    const created = await postTicket(t, keys.alpha, ticket({ external_id: 'during' }));
    expect(created.statusCode).toBe(201);
    expect(created.headers.connection).toBe('close');
    const listed = await adminAs(t, ADMIN_TOKEN, 'GET', '/admin/v1/helpdesk/companies');
    expect(listed.statusCode).toBe(200);
    expect(listed.headers.connection).toBe('close');
    expect(await ticketCount()).toBe(2);
  });

  it('closing: the ticket API answers its own 503 before the key is read (Retry-After 5, X-Request-Id) and stores nothing', async () => {
    const keys = await seedHelpdesk(t);
    t.services.lifecycle.startDraining();
    t.services.lifecycle.startClosing();
    const refused = await postTicket(t, keys.alpha, ticket());
    expect(unavailableDeviations(asResponse(refused), { retryAfter: '5' })).toEqual([]);
    // Before any other check: no rate-limit headers (docs/ticket-api.md, Limits), no 401 without a key.
    expect(refused.headers['x-ratelimit-remaining']).toBeUndefined();
    const withoutKey = await t.call({ method: 'POST', url: TICKET_URL, payload: ticket() });
    expect(unavailableDeviations(asResponse(withoutKey), { retryAfter: '5' })).toEqual([]);
    expect(await ticketCount()).toBe(0);
  });

  it('closing: the POS API answers its 503 as its document gives it (the "temporarily unable" detail, Retry-After 60, X-Request-Id)', async () => {
    t.services.lifecycle.startDraining();
    t.services.lifecycle.startClosing();
    const refused = await t.call({ url: PING, headers: { authorization: `Bearer gtpk_${'A'.repeat(43)}` } });
    expect(unavailableDeviations(asResponse(refused), { retryAfter: '60' })).toEqual([]);
    expect(JSON.parse(refused.body)).toMatchObject({ detail: POS_DETAIL });
  });

  it('closing: the admin API answers its problem+json 503 before the token is read; other paths a plain 503; never Fastify’s own body', async () => {
    t.services.lifecycle.startDraining();
    t.services.lifecycle.startClosing();
    const admin = await adminAs(t, undefined, 'GET', '/admin/v1/helpdesk/companies');
    expect(unavailableDeviations(asResponse(admin), { retryAfter: '5', requestId: false })).toEqual([]);
    for (const url of ['/', '/v2/api-public/ping', '/v1/api-external-system']) {
      const other = await t.call({ url });
      expect(other.statusCode, url).toBe(503);
      expect(other.body, url).toBe('Service Unavailable');
      expect(other.headers, url).toMatchObject({
        'content-type': 'text/plain; charset=utf-8',
        'retry-after': '5',
        connection: 'close',
        'cache-control': 'no-store',
      });
    }
  });

  it('closing: /healthz and /readyz still answer for themselves (a balancer reads "draining", not a problem), with Connection: close', async () => {
    t.services.lifecycle.startDraining();
    t.services.lifecycle.startClosing();
    const ready = await t.app.admin.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(ready.body)).toEqual({ status: 'draining', database: 'ok', shared_store: 'ok' });
    expect(ready.headers.connection).toBe('close');
    const health = await t.app.admin.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.headers.connection).toBe('close');
  });
});
