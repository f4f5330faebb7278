import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryRateLimitStore } from '../../src/rate-limit/memory-store.js';
import type { RateLimitStore } from '../../src/rate-limit/rate-limit-store.js';
import { connectRedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { bodyOf, expectProblem, UUID } from '../expect-http.js';
import {
  adminAs,
  describeEachDialect,
  redisUrl,
  SUPPORT_TOKEN,
  testApp,
  useTestApp,
  type TestApp,
} from '../helper.js';
import { getOptions, LEAD_URL, postTicket, putSystem, seedHelpdesk, ticket } from '../helpdesk/fixtures.js';
import { seedPos, PING } from '../pos/fixtures.js';
import { posGet } from '../request.js';
import { sampleSum, scrape } from './metrics-text.js';

// The last refusals of a partner system or a merchant account (docs/operations.md, Why did my call fail): support
// finds a refused call by its X-Request-Id, without reading logs.

const SYSTEM_REFUSALS = '/admin/v1/helpdesk/systems/alpha/refusals';
const ACCOUNT_REFUSALS = '/admin/v1/pos/accounts/acme/refusals';

type Refusal = Record<string, unknown>;

/** The subject's refusals as support reads them, once `count` have been written (in the background). */
async function refusals(t: TestApp, url: string, count: number): Promise<Refusal[]> {
  return vi.waitFor(async () => {
    const response = await adminAs(t, SUPPORT_TOKEN, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    const data = bodyOf(response).data as Refusal[];
    expect(data.length).toBeGreaterThanOrEqual(count);
    return data;
  });
}

const requestId = (response: LightMyRequestResponse) => response.headers['x-request-id'] as string;

describeEachDialect('refusals of a system or account', (dialect) => {
  const t = useTestApp(dialect);

  it('a system’s refusals, newest first: status, code, operation, time, request id (docs/operations.md, Why did my call fail)', async () => {
    const keys = await seedHelpdesk(t);
    await putSystem(t, 'alpha', ['help-desk-ticket.create'], { rate_limit_per_minute: 2 });
    const lead = await postTicket(t, keys.alpha, { name: 'x' }, { url: LEAD_URL });
    expect(lead.statusCode).toBe(403);
    expect((await getOptions(t, keys.alpha)).statusCode).toBe(200);
    const limited = await postTicket(t, keys.alpha, ticket());
    expect(limited.statusCode).toBe(429);
    // Another system's refusals are its own.
    expect((await postTicket(t, keys.gamma, ticket())).statusCode).toBe(403);

    const data = await refusals(t, SYSTEM_REFUSALS, 2);
    expect(data).toEqual([
      {
        at: '2026-11-20T12:00:00.000Z',
        request_id: requestId(limited),
        api: 'helpdesk',
        operation: 'createHelpDeskTicket',
        status: 429,
        code: 'rate_limited',
        credential: 'current',
        param: null,
        detail:
          'This system used its 2 calls of the last minute. Retry after the time in the Retry-After header.',
        doc_url: 'https://api.example.test/docs/problems#problem-rate_limited',
      },
      {
        at: '2026-11-20T12:00:00.000Z',
        request_id: requestId(lead),
        api: 'helpdesk',
        operation: 'createLead',
        status: 403,
        code: 'forbidden_scope',
        credential: 'current',
        param: null,
        detail: 'This key lacks the scope "lead.create" that this route requires.',
        doc_url: 'https://api.example.test/docs/problems#problem-forbidden_scope',
      },
    ]);
    expect(requestId(limited)).toMatch(UUID);
    const limitedOnly = await adminAs(t, SUPPORT_TOKEN, 'GET', `${SYSTEM_REFUSALS}?limit=1`);
    expect(bodyOf(limitedOnly).data).toEqual([data[0]]);
  });

  it('an account’s refusals name the key: a revoked key’s 401, a missing permission’s 403', async () => {
    const { id, key } = await seedPos(t, ['event.view']);
    const forbidden = await posGet(
      t,
      '/v1/api-public/sales/by-payment-method?place=P1&from=2026-11-19T00:00:00-03:00&to=2026-11-20T00:00:00-03:00',
      key,
    );
    expect(forbidden.statusCode).toBe(403);
    expect((await posGet(t, PING, key)).statusCode).toBe(200);
    await t.admin('POST', `/admin/v1/pos/accounts/acme/keys/${id}/revoke`);
    t.clock.advance(1000);
    const revoked = await posGet(t, PING, key);
    expect(revoked.statusCode).toBe(401);

    const data = await refusals(t, ACCOUNT_REFUSALS, 2);
    expect(data).toMatchObject([
      {
        request_id: requestId(revoked),
        api: 'pos',
        operation: 'ping',
        status: 401,
        code: 'invalid_token',
        credential: id,
      },
      {
        request_id: requestId(forbidden),
        operation: 'getSalesByPaymentMethod',
        status: 403,
        code: 'forbidden_permission',
        credential: id,
      },
    ]);
    expect(data[0]!.at).toBe('2026-11-20T12:00:01.000Z');
  });

  it('a refusal keeps the param and detail its answer gave: a POS call with a bad limit, a ticket field', async () => {
    const { key } = await seedPos(t, ['event.view']);
    const refused = await posGet(t, '/v1/api-public/events?place=P1&limit=500', key);
    expectProblem(refused, 422, 'invalid_parameter');
    const answered = bodyOf(refused);
    expect(answered.param).toBe('limit');
    const [entry] = await refusals(t, ACCOUNT_REFUSALS, 1);
    expect(entry).toMatchObject({
      request_id: requestId(refused),
      operation: 'listEvents',
      status: 422,
      code: 'invalid_parameter',
      param: 'limit',
      detail: answered.detail,
      doc_url: 'https://api.example.test/docs/problems#problem-invalid_parameter',
    });
    expect(entry!.detail).toMatch(/"limit"/);

    const keys = await seedHelpdesk(t);
    const missing = await postTicket(t, keys.alpha, { external_id: 'x-1', company: 'acme' });
    expectProblem(missing, 422, 'missing_description');
    const [field] = await refusals(t, SYSTEM_REFUSALS, 1);
    expect(field).toMatchObject({
      code: 'missing_description',
      param: 'description',
      detail: bodyOf(missing).detail,
    });
  });

  it('what is kept of a detail: key-shaped text redacted, cut to 500 characters; older entries read as null', async () => {
    await seedHelpdesk(t);
    const subject = { kind: 'system', id: 'alpha' } as const;
    const base = {
      api: 'helpdesk',
      operation: 'createHelpDeskTicket',
      status: 422,
      credential: 'current',
    } as const;
    t.services.refusals.record(subject, {
      ...base,
      request_id: 'r-key',
      code: 'invalid_field',
      param: 'requester.name',
      detail: `A key gtes_${'a'.repeat(43)} in a detail, and ${'é'.repeat(600)}`,
    });
    const [entry] = await refusals(t, SYSTEM_REFUSALS, 1);
    expect(entry!.detail).toMatch(/^A key \[redacted key\] in a detail, and é+…$/);
    expect(Array.from(entry!.detail as string)).toHaveLength(500);
    expect(entry!.detail).not.toContain('gtes_');
    expect(entry!.param).toBe('requester.name');

    // An entry written before param and detail were kept (straight into the store, as it was).
    const old = {
      at: '2026-11-19T12:00:00.000Z',
      request_id: 'r-old',
      ...base,
      code: null,
      credential: 'previous',
    };
    await t.services.rateLimits.pushRecent('refusals:system:alpha', JSON.stringify(old), 100, 60_000);
    const [read] = await refusals(t, SYSTEM_REFUSALS, 2);
    expect(read).toEqual({ ...old, param: null, detail: null, doc_url: null });
  });

  it('an unknown system or account is 404; the token of neither role is 401', async () => {
    expectProblem(await t.adminRaw({ url: '/admin/v1/helpdesk/systems/nobody/refusals' }), 404, 'not_found');
    expectProblem(await t.adminRaw({ url: '/admin/v1/pos/accounts/nobody/refusals' }), 404, 'not_found');
    expectProblem(await adminAs(t, undefined, 'GET', SYSTEM_REFUSALS), 401, 'unauthorized');
  });

  it('bounded: the last 100 of a subject are kept, newest first', async () => {
    await seedHelpdesk(t);
    for (let i = 1; i <= 105; i += 1) {
      t.services.refusals.record(
        { kind: 'system', id: 'alpha' },
        {
          request_id: `r-${i}`,
          api: 'helpdesk',
          operation: 'createHelpDeskTicket',
          status: 429,
          code: 'rate_limited',
          credential: 'current',
        },
      );
    }
    const data = await vi.waitFor(async () => {
      const found = await refusals(t, SYSTEM_REFUSALS, 100);
      expect(found[0]!.request_id).toBe('r-105');
      return found;
    });
    expect(data).toHaveLength(100);
    expect(data.at(-1)!.request_id).toBe('r-6');
  });
});

describe('refusals: a store that fails', () => {
  it('a refusal that cannot be written is counted, and the answer is the same; reading it is 503', async () => {
    const { openDatabase } = await import('../../src/db/database.js');
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(db);
    const memory = createMemoryRateLimitStore();
    const store: RateLimitStore = {
      ...memory,
      pushRecent: () => Promise.reject(new Error('store unreachable')),
      recent: () => Promise.reject(new Error('store unreachable')),
    };
    const t = testApp({ db, rateLimits: store });
    try {
      const keys = await seedHelpdesk(t);
      const refused = await postTicket(t, keys.gamma, ticket());
      expect(refused.statusCode).toBe(403);
      await vi.waitFor(async () => {
        expect(sampleSum(await scrape(t), 'refusal_log_errors_total')).toBe(1);
      });
      const read = await t.adminRaw({ url: '/admin/v1/helpdesk/systems/gamma/refusals' });
      expectProblem(read, 503, 'temporarily_unavailable');
      expect(read.headers['retry-after']).toBe('5');
    } finally {
      await t.app.close();
      await db.destroy();
    }
  });
});

describe.skipIf(redisUrl === undefined)('refusals: a fleet shares them through Redis', () => {
  it('a refusal answered by one process is read through another', async () => {
    const { openDatabase } = await import('../../src/db/database.js');
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    const keyPrefix = `test:${randomBytes(6).toString('hex')}:`;
    const open = () => connectRedisRateLimitStore({ url: redisUrl!, keyPrefix, commandTimeoutMs: 2000 });
    // One database for both processes, as a fleet has.
    const db = openDatabase({ kind: 'sqlite', path: ':memory:' });
    await migrateToLatest(db);
    const first = testApp({ db, rateLimits: await open() });
    const second = testApp({ db, rateLimits: await open() });
    try {
      const keys = await seedHelpdesk(first);
      const refused = await postTicket(first, keys.gamma, ticket());
      expect(refused.statusCode).toBe(403);
      const data = await refusals(second, '/admin/v1/helpdesk/systems/gamma/refusals', 1);
      expect(data[0]).toMatchObject({ request_id: requestId(refused), code: 'forbidden_scope' });
    } finally {
      await first.app.close();
      await second.app.close();
      await db.destroy();
    }
  });
});
