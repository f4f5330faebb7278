import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import {
  bodyOf,
  expectApiProblem,
  expectNoRateHeaders,
  expectProblem,
  expectRateHeaders,
} from '../expect-http.js';
import { ADMIN_TOKEN, describeEachDialect, useTestApp } from '../helper.js';
import { LEAD_URL, postTicket, seedHelpdesk, ticket, UNKNOWN_KEY, webhookUrl } from '../helpdesk/fixtures.js';
import { PING, seedPos, UNKNOWN_KEY as UNKNOWN_POS_KEY } from '../pos/fixtures.js';
import { publicRequest } from '../request.js';
import { asOperator, HD } from '../admin/fixtures.js';

// A body in a content coding is refused, not read as plain text (RFC 9110, 8.4: the server decodes no
// coding; 15.5.16: 415 with Accept-Encoding naming what it takes). The service decodes none, so a JSON
// body labelled `gzip` was accepted as if the label were absent. Without Content-Encoding, or with
// `identity`, every request is answered as before.

const GZIP = { 'Content-Encoding': 'gzip' };

describeEachDialect('content coding of request bodies', (dialect) => {
  const t = useTestApp(dialect);

  it('ticket route: a body in a content coding is 415 unsupported_media_type with Accept-Encoding: identity, before the key; nothing stored (Authentication, order)', async () => {
    const keys = await seedHelpdesk(t);
    const body = ticket({ external_id: 'coded-1' });
    const labelled = await postTicket(t, keys.alpha, body, { headers: GZIP });
    expect(String(expectApiProblem(labelled, 415, 'unsupported_media_type').detail)).toContain(
      'Content-Encoding',
    );
    expect(labelled.headers['accept-encoding']).toBe('identity');
    expectNoRateHeaders(labelled);

    // A body that is really compressed is not decoded either; a wrong key changes nothing (before it).
    const compressed = await publicRequest(t, {
      method: 'POST',
      url: '/v1/api-external-system/help-desk-ticket',
      key: UNKNOWN_KEY,
      type: 'application/json',
      headers: { 'Content-Encoding': 'x-gzip, identity' },
      payload: gzipSync(JSON.stringify(body)),
    });
    expectApiProblem(compressed, 415, 'unsupported_media_type');
    expect(compressed.headers['accept-encoding']).toBe('identity');

    // Nothing was stored: the same ticket sent as is is a new one.
    expect((await postTicket(t, keys.alpha, body)).statusCode).toBe(201);
  });

  it('ticket route: `identity`, in any case and repeated, is the body as sent: 201 as without the header', async () => {
    const keys = await seedHelpdesk(t);
    for (const [index, coding] of ['identity', 'Identity', 'identity, IDENTITY', ''].entries()) {
      const response = await postTicket(t, keys.alpha, ticket({ external_id: `plain-${index}` }), {
        headers: { 'Content-Encoding': coding },
      });
      expect(response.statusCode, `${coding}: ${response.body}`).toBe(201);
      expect(response.headers['accept-encoding']).toBeUndefined();
    }
  });

  it('lead route: a body in a content coding is 415 unsupported_media_type, as on the ticket route', async () => {
    const keys = await seedHelpdesk(t);
    const response = await postTicket(
      t,
      keys.beta,
      { external_id: 'lead-1' },
      { url: LEAD_URL, headers: GZIP },
    );
    expectApiProblem(response, 415, 'unsupported_media_type');
    expect(response.headers['accept-encoding']).toBe('identity');
  });

  it('webhook: a body in a content coding is unreadable, answered after the key as its body rule answers (400 without code under a JSON type, else 422), saying why; nothing stored (POST webhook)', async () => {
    const keys = await seedHelpdesk(t);
    const body = JSON.stringify(ticket({ external_id: 'hook-1' }));
    const send = (key: string, type: string, headers: Record<string, string> = GZIP) =>
      publicRequest(t, { method: 'POST', url: webhookUrl('alpha'), key, type, headers, payload: body });

    expectApiProblem(await send(UNKNOWN_KEY, 'application/json'), 401, 'unauthorized');
    const json = await send(keys.alpha, 'application/json');
    expect(String(expectApiProblem(json, 400, null).detail)).toContain('Content-Encoding');
    expect(json.headers['accept-encoding']).toBe('identity');
    expectRateHeaders(json);
    const text = await send(keys.alpha, 'text/plain');
    expect(String(expectApiProblem(text, 422, 'invalid_body').detail)).toContain('Content-Encoding');
    expect(text.headers['accept-encoding']).toBe('identity');

    // Any type stays accepted (no 415), and the ticket was not stored by the refused calls.
    const plain = await send(keys.alpha, 'text/plain', { 'Content-Encoding': 'identity' });
    expect(plain.statusCode, plain.body).toBe(201);
  });

  it('POS API: a GET with a body in a content coding is 415 without code, Accept-Encoding: identity, after the key and counted; without a body the header changes nothing (Errors)', async () => {
    const { key } = await seedPos(t);
    const withBody = (k: string) =>
      publicRequest(t, { url: PING, key: k, type: 'application/json', headers: GZIP, payload: '{}' });

    expectApiProblem(await withBody(UNKNOWN_POS_KEY), 401, 'invalid_token');
    const coded = await withBody(key);
    expect(String(expectApiProblem(coded, 415, null).detail)).toContain('Content-Encoding');
    expect(coded.headers['accept-encoding']).toBe('identity');
    expectRateHeaders(coded);

    const bodiless = await publicRequest(t, { url: PING, key, headers: GZIP });
    expect(bodiless.statusCode, bodiless.body).toBe(200);
    const plainJson = await publicRequest(t, { url: PING, key, type: 'application/json', payload: '{}' });
    expect(plainJson.statusCode, plainJson.body).toBe(200);
  });

  it('admin API: a body in a content coding is 415 unsupported_media_type with Accept-Encoding: identity, after the token; nothing stored (docs/admin-rules.md: bad input changes nothing)', async () => {
    const put = (headers: Record<string, string>) =>
      t.app.admin.inject({
        method: 'PUT',
        url: `${HD}/companies/acme`,
        headers: { 'content-type': 'application/json', ...headers },
        payload: JSON.stringify({ name: 'Acme' }),
      });
    expectProblem(await put(GZIP), 401, 'unauthorized');
    const coded = await put({ ...GZIP, authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(String(expectProblem(coded, 415, 'unsupported_media_type').detail)).toContain('Content-Encoding');
    expect(coded.headers['accept-encoding']).toBe('identity');
    expect(bodyOf(await asOperator(t, 'GET', `${HD}/companies`))).toEqual([]);

    const plain = await put({ 'Content-Encoding': 'identity', authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(plain.statusCode, plain.body).toBe(201);
  });
});
