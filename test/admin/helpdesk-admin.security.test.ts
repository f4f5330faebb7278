import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminAs, describeEachDialect, SUPPORT_TOKEN, useTestApp } from '../helper.js';
import { bodyOf, expectProblem } from '../expect-http.js';
import { getOptions, seedHelpdesk } from '../helpdesk/fixtures.js';
import { asOperator, HD } from './fixtures.js';
import { list, rotate, seedCatalog } from './helpdesk-admin-fixtures.js';

// Who may use the help-desk half of the back office (docs/admin-rules.md, intro): the operator's token, the
// support token's few rights, 401 and 403, keys and their hashes never shown, and the health and metrics
// routes.

type Body = Record<string, unknown>;

describeEachDialect('admin API, help desk: tokens and roles', (dialect) => {
  const t = useTestApp(dialect);

  describe('authentication and roles (docs/admin-rules.md, intro)', () => {
    it('absent or wrong token: 401 problem+json with WWW-Authenticate, nothing written', async () => {
      for (const token of [
        undefined,
        'wrong-token-0123456789',
        `${ADMIN_TOKEN}x`,
        ADMIN_TOKEN.slice(0, -1),
      ]) {
        const read = await adminAs(t, token, 'GET', `${HD}/systems`);
        expectProblem(read, 401, 'unauthorized');
        expect(read.headers['www-authenticate']).toBe('Bearer');
        expectProblem(
          await adminAs(t, token, 'PUT', `${HD}/companies/acme`, { name: 'Acme' }),
          401,
          'unauthorized',
        );
      }
      const basic = await t.app.admin.inject({
        method: 'GET',
        url: `${HD}/systems`,
        headers: { authorization: `Basic ${ADMIN_TOKEN}` },
      });
      expectProblem(basic, 401, 'unauthorized');
      expect(await list(t, 'companies')).toEqual([]);
    });

    it('the scheme word is case-insensitive for the operator token', async () => {
      const response = await t.app.admin.inject({
        method: 'GET',
        url: `${HD}/systems`,
        headers: { authorization: `bearer ${ADMIN_TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
    });

    it('support may list systems, one system and tickets, and stop a previous key', async () => {
      await seedHelpdesk(t);
      await rotate(t, 'alpha');
      const systems = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/systems`);
      expect(systems.statusCode).toBe(200);
      expect((bodyOf(systems) as unknown as Body[]).map((s) => s.identifier)).toEqual([
        'alpha',
        'beta',
        'gamma',
      ]);
      const one = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/systems/alpha`);
      expect(one.statusCode).toBe(200);
      expect(bodyOf(one).identifier).toBe('alpha');
      const tickets = await adminAs(t, SUPPORT_TOKEN, 'GET', `${HD}/tickets`);
      expect(tickets.statusCode).toBe(200);
      const stop = await adminAs(t, SUPPORT_TOKEN, 'POST', `${HD}/systems/alpha/keys/stop-previous`);
      expect(stop.statusCode).toBe(200);
      expect(bodyOf(stop).stopped).toBe(true);
    });

    it('support gets 403 forbidden on everything else, and nothing changes', async () => {
      await seedHelpdesk(t);
      const refused: [InjectOptions['method'], string, unknown?][] = [
        ['PUT', `${HD}/companies/nova`, { name: 'Nova' }],
        ['PUT', `${HD}/systems/alpha`, { name: 'x', default_category_id: null }],
        ['POST', `${HD}/systems/alpha/keys/rotate`],
        ['DELETE', `${HD}/categories/10`],
        ['GET', `${HD}/companies`],
        ['GET', `${HD}/maintenance`],
        ['PUT', `${HD}/maintenance`, { enabled: true }],
        ['GET', '/metrics'],
      ];
      for (const [method, url, body] of refused) {
        const response = await adminAs(t, SUPPORT_TOKEN, method, url, body);
        expectProblem(response, 403, 'forbidden');
      }
      expect((await list(t, 'companies')).map((c) => c.id)).not.toContain('nova');
      expect((await list(t, 'categories')).map((c) => c.id)).toContain(10);
      expect(bodyOf(await t.admin('GET', `${HD}/systems/alpha`)).name).toBe('alpha');
      expect(bodyOf(await t.admin('GET', `${HD}/maintenance`)).enabled).toBe(false);
    });
  });

  describe('keys (docs/admin-rules.md: rotate, stop-previous; docs/api-conventions.md, Keys: shown once, only a hash stored)', () => {
    it('systems never show keys or their hashes', async () => {
      await seedCatalog(t);
      await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 });
      const keys = [String((await rotate(t, 'alpha')).key), String((await rotate(t, 'alpha')).key)];
      const secrets = keys.flatMap((key) => [
        key,
        key.slice(5),
        createHash('sha256').update(key).digest('hex'),
        createHash('sha256').update(key).digest('base64'),
      ]);
      const pages = [
        await t.admin('GET', `${HD}/systems`),
        await t.admin('GET', `${HD}/systems/alpha`),
        await t.admin('PUT', `${HD}/systems/alpha`, { name: 'Alpha', default_category_id: 10 }),
        await t.admin('POST', `${HD}/systems/alpha/keys/stop-previous`),
      ];
      for (const page of pages) {
        for (const secret of secrets) expect(page.body).not.toContain(secret);
        expect(page.body.toLowerCase()).not.toMatch(/hash|"key"/);
      }
    });
  });

  describe('health and metrics', () => {
    it('/healthz and /readyz need no token', async () => {
      const health = await t.app.admin.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(bodyOf(health).status).toBe('ok');
      const ready = await t.app.admin.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(bodyOf(ready).status).toBe('ready');
    });

    it('/metrics needs the token and answers Prometheus text', async () => {
      expectProblem(await t.app.admin.inject({ method: 'GET', url: '/metrics' }), 401, 'unauthorized');
      await getOptions(t);
      const metrics = await asOperator(t, 'GET', '/metrics');
      expect(metrics.statusCode).toBe(200);
      expect(metrics.headers['content-type']).toMatch(/^text\/plain/);
      expect(metrics.body).toMatch(/^# HELP http_requests_total /m);
      expect(metrics.body).toMatch(/^# TYPE http_requests_total counter$/m);
      expect(metrics.body).toMatch(
        /^http_requests_total\{api="helpdesk",operation="getHelpDeskTicketOptions",status="401",code="unauthorized"\} 1$/m,
      );
    });
  });
});
