import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminAs, describeEachDialect, SUPPORT_TOKEN, useTestApp } from '../helper.js';
import { bodyOf, expectApiProblem, expectNoRateHeaders, expectProblem } from '../expect-http.js';
import { publicRequest } from '../request.js';

// The documentation outside both prefixes, under /docs (docs/pos-api.md, Settled details: "Documentation
// pages"), and the back office's own document (docs/admin-rules.md: "Everything here is documented in the
// project's OpenAPI document").

const HELP_DESK = '/docs/openapi/help-desk.json';
const POS = '/docs/openapi/pos.json';

describe('documents served by the service', () => {
  describeEachDialect('public listener, /docs', (dialect) => {
    const t = useTestApp(dialect);

    it('both public documents are OpenAPI 3.1 with servers set to PUBLIC_BASE_URL (docs/api-conventions.md)', async () => {
      for (const [url, title] of [
        [HELP_DESK, 'Partner Help Desk Ticket API'],
        [POS, 'Point-of-Sale Data API'],
      ] as const) {
        const response = await publicRequest(t, { url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        const document = bodyOf(response);
        expect(document.openapi).toBe('3.1.0');
        expect((document.info as { title: string }).title).toBe(title);
        expect(document.servers).toEqual([
          { url: 'https://api.example.test', description: expect.any(String) },
        ]);
      }
    });

    it('the 31st call under /docs within a minute is 429 rate_limited, Retry-After 60, no X-RateLimit-* (docs/pos-api.md, Settled details)', async () => {
      // Every path under the prefix counts, a miss too.
      for (let i = 0; i < 30; i += 1) {
        const response = await publicRequest(t, { url: i % 3 === 0 ? '/docs/nothing-here' : POS });
        expect(response.statusCode).toBe(i % 3 === 0 ? 404 : 200);
      }
      const refused = await publicRequest(t, { url: HELP_DESK });
      expectProblem(refused, 429, 'rate_limited');
      expect(refused.headers['retry-after']).toBe('60');
      expectNoRateHeaders(refused);
      // Refused calls do not count: once the minute has passed, the IP is served again.
      t.clock.advance(60_000);
      expect((await publicRequest(t, { url: HELP_DESK })).statusCode).toBe(200);
    });

    it('the documentation limit is per IP, an IPv6 client by its /64 (docs/api-conventions.md)', async () => {
      for (let i = 0; i < 30; i += 1) {
        expect((await publicRequest(t, { url: POS, ip: `2001:db8:0:7::${i + 1}` })).statusCode).toBe(200);
      }
      expect((await publicRequest(t, { url: POS, ip: '2001:db8:0:7::ffff' })).statusCode).toBe(429);
      expect((await publicRequest(t, { url: POS, ip: '2001:db8:0:8::1' })).statusCode).toBe(200);
      expect((await publicRequest(t, { url: POS, ip: '192.0.2.1' })).statusCode).toBe(200);
    });

    it('the documentation limit does not touch the APIs: their calls neither count nor are refused', async () => {
      for (let i = 0; i < 30; i += 1) await publicRequest(t, { url: POS });
      expect((await publicRequest(t, { url: POS })).statusCode).toBe(429);
      const api = await publicRequest(t, { url: '/v1/api-public/ping' });
      expectApiProblem(api, 401, 'invalid_token');
    });

    it('the former documentation paths under both prefixes answer 404 not_found (docs/pos-api.md, Settled details)', async () => {
      for (const url of [
        '/v1/api-public/docs',
        '/v1/api-public/docs/openapi.json',
        '/v1/api-external-system/docs',
        '/v1/api-external-system/docs/openapi.json',
      ]) {
        expectApiProblem(await publicRequest(t, { url }), 404, 'not_found');
      }
    });

    it('a path under /docs that is no document gets the HTML 404 of a path outside the APIs', async () => {
      const response = await publicRequest(t, { url: '/docs/openapi/admin.json' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['x-request-id']).toBeUndefined();
    });
  });

  describeEachDialect('behind a proxy, /docs', (dialect) => {
    const t = useTestApp(dialect, { config: { TRUST_PROXY: '10.0.0.1' } });

    it('the documentation limit counts the client of a trusted proxy, not the proxy (docs/api-conventions.md)', async () => {
      const via = (client: string) =>
        publicRequest(t, { url: POS, ip: '10.0.0.1', headers: { 'x-forwarded-for': client } });
      for (let i = 0; i < 30; i += 1) expect((await via('198.51.100.7')).statusCode).toBe(200);
      expect((await via('198.51.100.7')).statusCode).toBe(429);
      expect((await via('198.51.100.8')).statusCode).toBe(200);
    });
  });

  describeEachDialect('admin listener, /admin/v1/openapi.json', (dialect) => {
    const t = useTestApp(dialect);
    const URL = '/admin/v1/openapi.json';

    it('the operator reads the admin document; support gets 403 and no token 401 (docs/admin-rules.md)', async () => {
      const response = await adminAs(t, ADMIN_TOKEN, 'GET', URL);
      expect(response.statusCode).toBe(200);
      const document = bodyOf(response);
      expect(document.openapi).toBe('3.1.0');
      expect(Object.keys(document.paths as object)).toContain('/admin/v1/pos/accounts/{account}/keys');
      expectProblem(await adminAs(t, SUPPORT_TOKEN, 'GET', URL), 403, 'forbidden');
      expectProblem(await adminAs(t, undefined, 'GET', URL), 401, 'unauthorized');
    });
  });
});
