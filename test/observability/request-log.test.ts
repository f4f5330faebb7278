import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { logSerializers } from '../../src/observability/logger-options.js';
import { hashApiKey } from '../../src/lib/api-key.js';
import { UUID } from '../expect-http.js';
import { adminAs, dialects, SUPPORT_TOKEN, testApp, type TestApp } from '../helper.js';
import { getOptions, LEAD_URL, postTicket, seedHelpdesk, ticket, webhookUrl } from '../helpdesk/fixtures.js';
import { SALES_URL, seedPos } from '../pos/fixtures.js';
import { posGet, publicRequest } from '../request.js';

// One JSON line per request (docs/operations.md, Logs): request id, API, operation, status, code, duration, system
// or account and credential id, client IP; never a key, a key hash, a body, a requester's name or
// contact.

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  [field: string]: unknown;
}

describe('request logs [sqlite]', () => {
  let t: TestApp;
  let text: string[];
  const lines = () =>
    text
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Line);
  const requestLines = () => lines().filter((line) => line.msg === 'request');

  beforeEach(async () => {
    text = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        text.push(chunk.toString('utf8'));
        callback();
      },
    });
    // Debug: every line the app writes, the quiet ones too.
    const logger = pino({ level: 'debug', serializers: logSerializers }, stream);
    const opened = await dialects[0]!.open();
    t = testApp({ db: opened.db, logger });
  });

  afterEach(async () => {
    await t.app.close();
    await t.db.destroy();
  });

  it('a realistic session logs no key, key hash, body, requester name or contact, anywhere', async () => {
    const keys = await seedHelpdesk(t);
    const requesters = [
      { name: 'Maria Aparecida dos Santos', contact: 'maria.santos@example.com.br' },
      { name: 'João Pedro Oliveira', contact: '+55 11 98765-4321' },
    ];
    const description = 'O terminal 3 da loja Centro não imprime o comprovante desde ontem.';
    for (const [index, requester] of requesters.entries()) {
      const body = ticket({ external_id: `log-${index}`, description, requester });
      expect((await postTicket(t, keys.alpha, body)).statusCode).toBe(201);
      expect((await postTicket(t, keys.alpha, body)).statusCode).toBe(200); // a duplicate
      expect((await postTicket(t, keys.beta, body, { url: webhookUrl('beta') })).statusCode).toBe(201);
      // Refused after the body was read: a field 422, a lead, a wrong scope.
      const bad = ticket({ external_id: `bad-${index}`, requester, description: undefined });
      expect((await postTicket(t, keys.alpha, bad)).statusCode).toBe(422);
      await postTicket(
        t,
        keys.beta,
        { external_id: `lead-${index}`, name: requester.name },
        { url: LEAD_URL },
      );
      await postTicket(t, keys.gamma, body);
    }
    const rotated = JSON.parse(
      (await t.admin('POST', '/admin/v1/helpdesk/systems/alpha/keys/rotate')).body,
    ) as {
      key: string;
    };
    await getOptions(t, keys.alpha); // the previous key, in its grace period
    await getOptions(t, rotated.key);
    await getOptions(t, `${keys.alpha.slice(0, -1)}x`); // a wrong key
    await publicRequest(t, { url: `/v1/api-external-system/help-desk-ticket-options?key=${keys.beta}` });
    await t.admin('GET', '/admin/v1/helpdesk/tickets?system=alpha');

    const pos = await seedPos(t);
    const created = JSON.parse(
      (
        await t.admin('POST', '/admin/v1/pos/accounts/acme/keys', {
          name: 'Caixa',
          permissions: ['event.view'],
        })
      ).body,
    ) as { id: string; key: string };
    const turned = JSON.parse(
      (await t.admin('POST', `/admin/v1/pos/accounts/acme/keys/${created.id}/rotate`)).body,
    ) as { key: string };
    for (const key of [pos.key, created.key, turned.key]) {
      await posGet(t, '/v1/api-public/ping', key);
      await posGet(t, SALES_URL, key);
      await posGet(t, '/v1/api-public/events?place=P1', key);
    }
    await posGet(t, `/v1/api-public/ping?api_key=${pos.key}`, pos.key);
    await t.admin('POST', `/admin/v1/pos/accounts/acme/keys/${created.id}/revoke`);
    await posGet(t, '/v1/api-public/ping', turned.key);
    await adminAs(t, SUPPORT_TOKEN, 'GET', '/admin/v1/pos/accounts/acme/refusals');
    await adminAs(t, 'not-the-token', 'GET', '/admin/v1/pos/accounts');

    const log = text.join('');
    const secrets = [
      keys.alpha,
      keys.beta,
      keys.gamma,
      rotated.key,
      pos.key,
      created.key,
      turned.key,
      SUPPORT_TOKEN,
      'not-the-token',
      'test-admin-token-0123456789',
    ];
    for (const secret of secrets) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(hashApiKey(secret));
      expect(log).not.toContain(hashApiKey(secret).slice(0, 16));
    }
    for (const requester of requesters) {
      expect(log).not.toContain(requester.name);
      expect(log).not.toContain(requester.contact);
    }
    expect(log).not.toContain(description);
    expect(log).not.toContain('"receipts"');
    // And the session was logged: one line per request, the refusals with their system or account.
    expect(requestLines().length).toBeGreaterThan(60);
    expect(requestLines()).toContainEqual(
      expect.objectContaining({
        api: 'helpdesk',
        operation: 'createHelpDeskTicket',
        system: 'gamma',
        code: 'forbidden_scope',
      }),
    );
    expect(requestLines()).toContainEqual(
      expect.objectContaining({
        api: 'pos',
        operation: 'ping',
        account: 'acme',
        credential: created.id,
        status: 401,
      }),
    );
  });

  it('one line per request, with its id, API, operation, status, code, duration, subject, credential and IP', async () => {
    const keys = await seedHelpdesk(t);
    const before = requestLines().length;
    const answer = await publicRequest(t, {
      method: 'POST',
      url: LEAD_URL,
      key: keys.alpha,
      json: '{"external_id":"l-1"}',
      ip: '203.0.113.7',
    });
    expect(answer.statusCode).toBe(403);
    const admin = await t.admin('GET', '/admin/v1/helpdesk/systems');
    const logged = requestLines().slice(before);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: expect.any(Number),
      hostname: expect.any(String),
      reqId: answer.headers['x-request-id'],
      msg: 'request',
      api: 'helpdesk',
      operation: 'createLead',
      method: 'POST',
      url: LEAD_URL,
      status: 403,
      code: 'forbidden_scope',
      duration_ms: expect.any(Number),
      system: 'alpha',
      credential: 'current',
      ip: '203.0.113.7',
    });
    expect(logged[1]).toMatchObject({
      reqId: admin.headers['x-request-id'],
      api: 'admin',
      operation: 'listHelpDeskSystems',
      status: 200,
    });
    expect(logged[1]).not.toHaveProperty('code');
    // Fastify's own "request completed" line is gone; its "incoming request" is kept at debug only.
    expect(lines().filter((line) => line.msg === 'request completed')).toEqual([]);
    const arrivals = lines().filter((line) => line.msg === 'incoming request');
    expect(arrivals.length).toBeGreaterThan(0);
    expect(arrivals.filter((line) => line.level !== 20)).toEqual([]);
  });

  it('admin answers carry X-Request-Id like the public APIs’, refusals included', async () => {
    const answers = [
      await t.admin('GET', '/admin/v1/helpdesk/systems'),
      await adminAs(t, undefined, 'GET', '/admin/v1/helpdesk/systems'),
      await adminAs(t, SUPPORT_TOKEN, 'PUT', '/admin/v1/helpdesk/companies/acme', { name: 'Acme' }),
      await t.adminRaw({ url: '/admin/v1/nothing-here' }),
      await t.adminRaw({ url: '/healthz' }),
      await t.adminRaw({ url: '/admin/v1/helpdesk/%ff' }),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 401, 403, 404, 200, 404]);
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
    // The id is the one of the request's log line.
    const logged = requestLines().map((line) => line.reqId);
    for (const id of ids.slice(0, 5)) expect(logged).toContain(id);
  });
});
