import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectApiProblem, expectNoRateHeaders, expectRateHeaders } from '../expect-http.js';
import { OPTIONS_URL, postTicket, seedHelpdesk, ticket, type Keys } from '../helpdesk/fixtures.js';
import { dialects, openTestRedisStore, redisUrl, testApp, type TestApp } from '../helper.js';
import { getWithKey, SALES_URL, seedPos } from '../pos/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { timeUntil } from '../support/timing.js';

// The shared store unreachable (docs/api-conventions.md; issue "Run as a fleet", Faults): ticket routes and
// the POS routes other than sales go on without measuring, so without X-RateLimit-*; sales routes answer
// 503 `temporarily_unavailable` with the "temporarily unable to accept requests" detail; everything
// recovers by itself when Redis returns. Redis is reached through a proxy that the test breaks, so the
// machine's Redis, which other suites use at the same time, is never touched.

const STORE_TIMEOUT_MS = 200;
const UNAVAILABLE_DETAIL =
  'This endpoint is temporarily unable to accept requests. Retry after the time in the Retry-After header.';

describe.skipIf(redisUrl === undefined)(
  `Redis unreachable: unmeasured, sales 503, recovery [sqlite + redis through a proxy${
    redisUrl === undefined ? ': skipped, TEST_REDIS_URL is not set' : ''
  }]`,
  () => {
    let proxy: TcpProxy;
    let t: TestApp;
    let drop: () => Promise<void>;
    let keys: Keys;
    let posKey: string;

    beforeEach(async () => {
      const target = new URL(redisUrl ?? '');
      proxy = await startTcpProxy({ targetHost: target.hostname, targetPort: Number(target.port || 6379) });
      const rateLimits = await openTestRedisStore({
        url: proxy.url(redisUrl ?? ''),
        commandTimeoutMs: STORE_TIMEOUT_MS,
      });
      const opened = await (dialects[0]?.open() ?? Promise.reject(new Error('no SQLite dialect')));
      drop = () => opened.drop();
      t = testApp({ db: opened.db, rateLimits });
      keys = await seedHelpdesk(t);
      posKey = (await seedPos(t)).key;
    });

    afterEach(async () => {
      await t.app.close();
      await drop();
      await proxy.close();
    });

    const options = () =>
      t.call({ method: 'GET', url: OPTIONS_URL, headers: { authorization: `Bearer ${keys.alpha}` } });

    it('while Redis answers, both APIs measure every authenticated call', async () => {
      expectRateHeaders(await postTicket(t, keys.alpha, ticket()));
      expectRateHeaders(await getWithKey(t, posKey, '/v1/api-public/ping'));
      expectRateHeaders(await getWithKey(t, posKey, SALES_URL));
    });

    it('Redis refusing connections: ticket routes go on, unmeasured, without X-RateLimit-*', async () => {
      await proxy.refuse();
      const created = await postTicket(t, keys.alpha, ticket({ external_id: 'during-outage' }));
      expect(created.statusCode, created.body).toBe(201);
      expectNoRateHeaders(created);
      const again = await postTicket(t, keys.alpha, ticket({ external_id: 'during-outage' }));
      expect(again.statusCode).toBe(200);
      expectNoRateHeaders(again);
      const listed = await options();
      expect(listed.statusCode).toBe(200);
      expectNoRateHeaders(listed);
    });

    it('Redis refusing connections: ping, places and events go on, unmeasured', async () => {
      await proxy.refuse();
      for (const url of ['/v1/api-public/ping', '/v1/api-public/places', '/v1/api-public/events?place=P1']) {
        const response = await getWithKey(t, posKey, url);
        expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
        expectNoRateHeaders(response);
      }
    });

    it('Redis refusing connections: sales answer 503 temporarily_unavailable, "temporarily unable to accept requests"', async () => {
      await proxy.refuse();
      const response = await getWithKey(t, posKey, SALES_URL);
      expect(expectApiProblem(response, 503, 'temporarily_unavailable').detail).toBe(UNAVAILABLE_DETAIL);
      expect(response.headers['retry-after']).toBe('60');
      expectNoRateHeaders(response);
    });

    it("Redis refusing connections: the 503 is the receipts route's only; a planned sales route still answers 501, unmeasured", async () => {
      await proxy.refuse();
      const planned = await getWithKey(
        t,
        posKey,
        '/v1/api-public/sales/summary?from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
      );
      expectApiProblem(planned, 501, 'not_implemented');
      expectNoRateHeaders(planned);
    });

    it('Redis refusing connections: wrong keys still get 401, and the right key still passes (no IP block is measured)', async () => {
      await proxy.refuse();
      for (let i = 0; i < 25; i += 1) {
        const refused = await postTicket(t, `gtes_${'x'.repeat(43)}`, ticket());
        expect(refused.statusCode).toBe(401);
      }
      expect((await postTicket(t, keys.alpha, ticket())).statusCode).toBe(201);
      expect((await getWithKey(t, 'not-a-key', '/v1/api-public/ping')).statusCode).toBe(401);
    });

    it('Redis silent (connections accepted, never answered): every call is answered within the store timeout', async () => {
      proxy.blackhole();
      const calls = [
        () => postTicket(t, keys.alpha, ticket({ external_id: 'silent' })),
        () => getWithKey(t, posKey, '/v1/api-public/places'),
        () => getWithKey(t, posKey, SALES_URL),
      ];
      const statuses: number[] = [];
      for (const call of calls) {
        const started = Date.now();
        const response = await call();
        // A call makes at most a handful of store operations, each failing after STORE_TIMEOUT_MS.
        expect(Date.now() - started).toBeLessThan(10 * STORE_TIMEOUT_MS);
        expectNoRateHeaders(response);
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([201, 200, 503]);
    });

    it('/readyz says the shared store is unreachable, and ready again once it returns', async () => {
      const ready = () => t.app.admin.inject({ method: 'GET', url: '/readyz' });
      expect(JSON.parse((await ready()).body)).toEqual({
        status: 'ready',
        database: 'ok',
        shared_store: 'ok',
      });
      await proxy.refuse();
      const down = await ready();
      expect(down.statusCode).toBe(503);
      expect(JSON.parse(down.body)).toEqual({
        status: 'not ready',
        database: 'ok',
        shared_store: 'unreachable',
      });
      await proxy.restore();
      await timeUntil(async () => (await ready()).statusCode === 200, 5000);
    });

    it('recovers by itself when Redis returns: measured again, the balance counted again (within seconds)', async () => {
      expectRateHeaders(await postTicket(t, keys.alpha, ticket({ external_id: 'before' })));
      await proxy.refuse();
      expectNoRateHeaders(await postTicket(t, keys.alpha, ticket({ external_id: 'during' })));
      await proxy.restore();
      let last: Awaited<ReturnType<typeof postTicket>> | undefined;
      await timeUntil(async () => {
        last = await postTicket(t, keys.alpha, ticket({ external_id: 'after' }));
        return last.headers['x-ratelimit-remaining'] !== undefined;
      }, 5000);
      // 120 a minute: the call before the outage and this one were counted; the one during it was not.
      expect(last?.headers['x-ratelimit-remaining']).toBe('118');
      const sales = await getWithKey(t, posKey, SALES_URL);
      expect(sales.statusCode, sales.body).toBe(200);
      expectRateHeaders(sales);
    });
  },
);
