import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { originForm } from '../../src/http/request-target.js';
import { ADMIN_TOKEN, dialects, testApp, type TestApp } from '../helper.js';
import { seedPos } from '../pos/fixtures.js';

// Absolute-form request targets (RFC 9112, 3.2.2: a server MUST accept them) are routed by their path and
// query on both listeners, as the origin form is. `inject` cannot send one: these go over a real socket.

/** Sends one raw HTTP/1.1 request and returns the status and body of the answer. */
function rawRequest(port: number, head: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(`${head}Connection: close\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => {
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), body });
    });
    socket.on('error', reject);
  });
}

describe('request targets', () => {
  it('originForm drops the scheme and authority and keeps the path and query as sent', () => {
    expect(originForm('http://api.example.test/v1/api-public/ping')).toBe('/v1/api-public/ping');
    expect(originForm('HTTPS://api.example.test:8443/v1/x%2Fy?a=1&b=%2B')).toBe('/v1/x%2Fy?a=1&b=%2B');
    expect(originForm('http://api.example.test')).toBe('/');
    expect(originForm('http://api.example.test?a=1')).toBe('/?a=1');
    expect(originForm('/v1/api-public/ping')).toBe('/v1/api-public/ping');
    expect(originForm('*')).toBe('*');
  });
});

describe('absolute-form targets on a listening server [sqlite]', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.app.close();
    await t?.db.destroy();
  });

  it('public and admin listeners answer an absolute-form target as its origin form (RFC 9112, 3.2.2)', async () => {
    const dialect = dialects[0]!;
    const opened = await dialect.open();
    t = testApp({ db: opened.db });
    const { key } = await seedPos(t);
    await t.app.public.listen({ port: 0, host: '127.0.0.1' });
    await t.app.admin.listen({ port: 0, host: '127.0.0.1' });
    const publicPort = (t.app.public.server.address() as { port: number }).port;
    const adminPort = (t.app.admin.server.address() as { port: number }).port;

    const origin = await rawRequest(
      publicPort,
      `GET /v1/api-public/places HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${key}\r\n`,
    );
    const absolute = await rawRequest(
      publicPort,
      `GET http://api.example.test/v1/api-public/places HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${key}\r\n`,
    );
    expect(origin.status).toBe(200);
    expect(absolute).toEqual(origin);

    const unknown = await rawRequest(
      publicPort,
      'GET http://api.example.test/v1/api-public/nowhere HTTP/1.1\r\nHost: a\r\n',
    );
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ code: 'not_found' });

    const admin = await rawRequest(
      adminPort,
      `GET http://admin.example.test/admin/v1/pos/accounts HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${ADMIN_TOKEN}\r\n`,
    );
    expect(admin.status).toBe(200);
    expect(JSON.parse(admin.body)).toEqual([expect.objectContaining({ id: 'acme' })]);
  });
});
