import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { describeEachDialect, describePostgres, testApp, useTestApp, type TestApp } from '../helper.js';
import {
  getOptions,
  postTicket,
  putSystem,
  seedHelpdesk,
  ticket,
  UNKNOWN_KEY,
} from '../helpdesk/fixtures.js';
import { seedPos, SALES_URL } from '../pos/fixtures.js';
import { posGet, publicRequest } from '../request.js';
import { sampleSum, scrape } from './metrics-text.js';

// Each metric family of GET /metrics (docs/operations.md, Metrics) moves when the real app does what it counts.

const HD = '/admin/v1/helpdesk';

describeEachDialect('metrics', (dialect) => {
  const t = useTestApp(dialect, { config: { IP_BLOCK_THRESHOLD: '1000' } });

  it('requests by API, operation, status and problem code; latency per operation, on both listeners', async () => {
    expect((await getOptions(t)).statusCode).toBe(401);
    await t.admin('GET', `${HD}/systems`);
    const text = await scrape(t);
    expect(
      sampleSum(text, 'http_requests_total', {
        api: 'helpdesk',
        operation: 'getHelpDeskTicketOptions',
        status: '401',
        code: 'unauthorized',
      }),
    ).toBe(1);
    expect(
      sampleSum(text, 'http_request_duration_seconds_count', {
        api: 'helpdesk',
        operation: 'getHelpDeskTicketOptions',
      }),
    ).toBe(1);
    expect(
      sampleSum(text, 'http_requests_total', {
        api: 'admin',
        operation: 'listHelpDeskSystems',
        status: '200',
        code: 'none',
      }),
    ).toBe(1);
    // A path under an API's prefix that names no route.
    await publicRequest(t, { url: '/v1/api-public/nothing-here' });
    expect(
      sampleSum(await scrape(t), 'http_requests_total', { api: 'pos', operation: 'none', code: 'not_found' }),
    ).toBe(1);
  });

  it('limit refusals by kind: system, IP block (ticket API); key, account, concurrency, unauthenticated, absolute ceiling (POS API); docs pages', async () => {
    const keys = await seedHelpdesk(t);
    await putSystem(t, 'alpha', ['help-desk-ticket.create'], { rate_limit_per_minute: 1 });
    expect((await getOptions(t, keys.alpha)).statusCode).toBe(200);
    expect((await getOptions(t, keys.alpha)).statusCode).toBe(429);

    const { key } = await seedPos(t);
    for (let i = 0; i < 10; i += 1) expect((await posGet(t, SALES_URL, key)).statusCode).toBe(200);
    expect((await posGet(t, SALES_URL, key)).statusCode).toBe(429); // the key's 10 a minute

    // Two more keys spend the account's 30; a fourth key's first call meets the account's ceiling.
    for (const name of ['K2', 'K3']) {
      const other = JSON.parse(
        (
          await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', {
            name,
            permissions: ['sale-by-payment-method.view'],
          })
        ).body,
      ) as { key: string };
      for (let i = 0; i < 10; i += 1) expect((await posGet(t, SALES_URL, other.key)).statusCode).toBe(200);
    }
    const fourth = JSON.parse(
      (
        await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', {
          name: 'K4',
          permissions: ['sale-by-payment-method.view'],
        })
      ).body,
    ) as { key: string };
    expect((await posGet(t, SALES_URL, fourth.key)).statusCode).toBe(429);

    // The first key's refused calls go on counting toward its text's absolute ceiling (100 heavy): its
    // 101st call meets it.
    let last = 0;
    for (let i = 0; i < 90; i += 1) last = (await posGet(t, SALES_URL, key)).statusCode;
    expect(last).toBe(429);

    // Wrong keys from one address: 40 unauthenticated calls a minute (the IP block is set above it here).
    for (let i = 0; i < 41; i += 1)
      last = (await publicRequest(t, { url: '/v1/api-public/ping', key: UNKNOWN_KEY, ip: '10.0.0.9' }))
        .statusCode;
    expect(last).toBe(429);

    // Sales queries in progress, once the minute's balances are back: the account's 2 places held, the
    // next query waits its turn.
    t.clock.advance(61_000);
    const quota = { accountId: 'acme', measured: true, limit: 10, remaining: 9, reset: 0, headers: {} };
    const held = [
      await t.services.limits.beginSalesQuery(quota),
      await t.services.limits.beginSalesQuery(quota),
    ];
    expect((await posGet(t, SALES_URL, fourth.key)).statusCode).toBe(429);
    for (const lease of held) if (lease.ok) await lease.release();

    // The documentation pages: 30 a minute per address.
    for (let i = 0; i < 31; i += 1)
      last = (await publicRequest(t, { url: '/docs/openapi/pos.json', ip: '10.0.0.7' })).statusCode;
    expect(last).toBe(429);

    const text = await scrape(t);
    const kind = (api: string, name: string) =>
      sampleSum(text, 'rate_limit_refusals_total', { api, kind: name });
    expect(kind('helpdesk', 'system')).toBe(1);
    expect(kind('pos', 'key')).toBeGreaterThanOrEqual(1);
    expect(kind('pos', 'account')).toBe(1);
    expect(kind('pos', 'absolute_ceiling')).toBe(1);
    expect(kind('pos', 'unauthenticated')).toBe(1);
    expect(kind('pos', 'concurrency')).toBe(1);
    expect(kind('docs', 'docs_pages')).toBe(1);
  });

  it('limit refusals: the ticket API’s IP block', async () => {
    // An app of its own whose IP block is the contract's 20.
    const opened = await dialect.open();
    const own = testApp({ db: opened.db, rateLimits: await dialect.openStore() });
    try {
      let last = 0;
      for (let i = 0; i < 21; i += 1) last = (await getOptions(own, UNKNOWN_KEY)).statusCode;
      expect(last).toBe(429);
      expect(
        sampleSum(await scrape(own), 'rate_limit_refusals_total', { api: 'helpdesk', kind: 'ip_block' }),
      ).toBe(1);
    } finally {
      await own.app.close();
      await opened.drop();
    }
  });

  it('tickets created and duplicates; receipts ingested; sales query time', async () => {
    const keys = await seedHelpdesk(t);
    expect((await postTicket(t, keys.alpha, ticket({ external_id: 'm-1' }))).statusCode).toBe(201);
    expect((await postTicket(t, keys.alpha, ticket({ external_id: 'm-1' }))).statusCode).toBe(200);
    expect((await postTicket(t, keys.alpha, ticket({ external_id: 'm-2' }))).statusCode).toBe(201);
    const { key } = await seedPos(t); // three receipts
    await t.admin('POST', '/admin/v1/pos/accounts/acme/receipts', {
      receipts: [
        {
          id: 'R1',
          place: 'P1',
          occurred_at: '2026-11-19T10:00:00-03:00',
          payment_method: 'tef_credit',
          brand: 'VISA',
          amount: '10.00',
          kind: 'sale',
        },
      ],
    });
    expect((await posGet(t, SALES_URL, key)).statusCode).toBe(200);
    const text = await scrape(t);
    expect(sampleSum(text, 'helpdesk_tickets_total', { outcome: 'created' })).toBe(2);
    expect(sampleSum(text, 'helpdesk_tickets_total', { outcome: 'duplicate' })).toBe(1);
    expect(sampleSum(text, 'pos_receipts_ingested_total', { outcome: 'inserted' })).toBe(3);
    expect(sampleSum(text, 'pos_receipts_ingested_total', { outcome: 'unchanged' })).toBe(1);
    expect(sampleSum(text, 'pos_sales_query_duration_seconds_count', { outcome: 'ok' })).toBe(1);
  });

  it('the rate-limit store’s round-trip time, and its errors by operation', async () => {
    const opened = await dialect.open();
    const memory = createMemoryRateLimitStore();
    let reachable = true;
    const failing = (operation: () => Promise<unknown>) =>
      reachable ? operation() : Promise.reject(new Error('store unreachable'));
    const store = Object.fromEntries(
      Object.entries(memory).map(([name, operation]) => [
        name,
        name === 'close'
          ? operation
          : (...args: unknown[]) =>
              failing(() => (operation as (...a: unknown[]) => Promise<unknown>)(...args)),
      ]),
    ) as unknown as RateLimitStore;
    const own = testApp({ db: opened.db, rateLimits: store });
    try {
      const keys = await seedHelpdesk(own);
      expect((await getOptions(own, keys.alpha)).statusCode).toBe(200);
      reachable = false;
      // Unmeasured, not refused (docs/api-conventions.md).
      expect((await getOptions(own, keys.alpha)).statusCode).toBe(200);
      const text = await scrape(own);
      expect(sampleSum(text, 'rate_limit_store_duration_seconds_count', { operation: 'take' })).toBe(2);
      expect(sampleSum(text, 'rate_limit_store_errors_total', { operation: 'take' })).toBe(1);
    } finally {
      await own.app.close();
      await opened.drop();
    }
  });

  it('prom-client’s default process metrics', async () => {
    const text = await scrape(t);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
  });
});

describe('metrics: database errors [sqlite]', () => {
  it('a statement that fails is counted', async () => {
    const metrics = createMetrics();
    const db = openDatabase({ kind: 'sqlite', path: ':memory:' }, { observer: metrics.database });
    await migrateToLatest(db);
    const t: TestApp = testApp({ db, metrics });
    try {
      await sql`drop table hd_tickets`.execute(db);
      const response = await t.adminRaw({ method: 'GET', url: `${HD}/tickets` });
      expect(response.statusCode).toBe(500);
      expect(sampleSum(await scrape(t), 'db_errors_total')).toBeGreaterThanOrEqual(1);
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });
});

describePostgres('metrics: PostgreSQL pool waits', (dialect) => {
  it('a query that waits for a connection of a full pool is counted with its wait', async () => {
    const opened = await dialect.open();
    const metrics = createMetrics();
    const { url, searchPath } = opened.connection!;
    const db = openDatabase(
      { kind: 'postgres', url },
      { searchPath, poolSize: 1, observer: metrics.database },
    );
    const t = testApp({ db, metrics });
    try {
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => t.adminRaw({ method: 'GET', url: `${HD}/systems` })),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(6).fill(200));
      expect(sampleSum(await scrape(t), 'db_pool_wait_seconds_count')).toBeGreaterThanOrEqual(1);
      await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow();
      expect(sampleSum(await scrape(t), 'db_errors_total')).toBe(1);
    } finally {
      await t.app.close();
      await db.destroy();
      await opened.drop();
    }
  });
});
