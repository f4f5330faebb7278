import Fastify, { type LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { helpDeskDocument } from '../../src/openapi/help-desk-document.js';
import { posDocument } from '../../src/openapi/pos-document.js';
import { DocumentConformance, holdToDocuments } from '../openapi-conformance.js';

// The check that keeps the documents true refuses what they do not describe: an answer of the right
// shape passes, and each kind of gap is reported.

const REQUEST_ID = '0b4d3c2a-1f6e-4d7c-9a8b-7c6d5e4f3a2b';
const TICKET = '/v1/api-external-system/help-desk-ticket';

function answer(status: number, body: unknown, headers: Record<string, string> = {}): LightMyRequestResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  const type = status >= 400 ? 'application/problem+json; charset=utf-8' : 'application/json; charset=utf-8';
  return {
    statusCode: status,
    headers: { 'x-request-id': REQUEST_ID, ...(text === '' ? {} : { 'content-type': type }), ...headers },
    body: text,
  } as unknown as LightMyRequestResponse;
}

const problem = (status: number, title: string, code?: string) => ({
  type: 'about:blank',
  title,
  status,
  detail: 'A detail.',
  ...(code === undefined ? {} : { code }),
});

const created = {
  ticket: 'I-000042',
  id: 'x',
  duplicate: false,
  warnings: [],
  applied: { category_id: 1, priority_id: 1, support_level: 1, nature: null, company: 'acme' },
};

describe('answers held to the OpenAPI documents', () => {
  const helpDesk = new DocumentConformance('help-desk', helpDeskDocument('https://api.example.test'));
  const pos = new DocumentConformance('pos', posDocument('https://api.example.test'));

  it('a documented answer passes: status, body, headers and code', () => {
    expect(helpDesk.check('POST', TICKET, answer(201, created, { 'x-ratelimit-limit': '120' }))).toEqual([]);
    expect(
      helpDesk.check(
        'POST',
        TICKET,
        answer(401, problem(401, 'Unauthorized', 'unauthorized'), { 'www-authenticate': 'Bearer' }),
      ),
    ).toEqual([]);
    // A method without an operation on the path: the path's 405 describes it.
    expect(
      helpDesk.check(
        'PUT',
        TICKET,
        answer(405, problem(405, 'Method Not Allowed', 'method_not_allowed'), { allow: 'POST, OPTIONS' }),
      ),
    ).toEqual([]);
    // Paths of no document are not checked here (the HTML 404 outside the prefixes, say).
    expect(helpDesk.check('GET', '/elsewhere', answer(418, 'x'))).toEqual([]);
  });

  it('a status the operation does not list fails', () => {
    expect(helpDesk.check('POST', TICKET, answer(418, problem(418, "I'm a Teapot", 'teapot')))).toEqual([
      expect.stringContaining('status 418 is not documented for POST'),
    ]);
  });

  it('a body its schema does not accept fails (an undocumented member, a missing one)', () => {
    expect(helpDesk.check('POST', TICKET, answer(201, { ...created, extra: 1 }))).toEqual([
      expect.stringContaining('body does not match the schema'),
    ]);
    const { ticket: _ticket, ...withoutNumber } = created;
    expect(helpDesk.check('POST', TICKET, answer(200, withoutNumber))).toEqual([
      expect.stringContaining("must have required property 'ticket'"),
    ]);
  });

  it('a problem code not listed for its status fails, and a missing code where every refusal has one', () => {
    expect(
      helpDesk.check('POST', TICKET, answer(422, problem(422, 'Unprocessable Entity', 'invalid_parameter'))),
    ).toEqual([expect.stringContaining('problem code invalid_parameter is not listed for this status')]);
    expect(helpDesk.check('POST', TICKET, answer(422, problem(422, 'Unprocessable Entity')))).toEqual([
      expect.stringContaining("must have required property 'code'"),
    ]);
  });

  it('a required header missing, an undocumented one sent, or a value outside its schema fails', () => {
    expect(helpDesk.check('POST', TICKET, answer(401, problem(401, 'Unauthorized', 'unauthorized')))).toEqual(
      [expect.stringContaining('required header WWW-Authenticate is missing')],
    );
    expect(
      helpDesk.check(
        'POST',
        TICKET,
        answer(415, problem(415, 'Unsupported Media Type', 'unsupported_media_type'), {
          'x-ratelimit-limit': '120',
        }),
      ),
    ).toEqual([expect.stringContaining('header X-RateLimit-Limit is sent but not documented')]);
    expect(
      pos.check(
        'GET',
        '/v1/api-public/ping',
        answer(429, problem(429, 'Too Many Requests', 'rate_limited'), { 'retry-after': 'soon' }),
      ),
    ).toEqual([expect.stringContaining('header Retry-After')]);
  });

  it('the harness makes inject reject an answer the document does not describe', async () => {
    const app = Fastify();
    app.get('/v1/api-public/ping', (_request, reply) => reply.code(202).send({ surprise: true }));
    holdToDocuments(app, 'public');
    await expect(app.inject({ url: '/v1/api-public/ping' })).rejects.toThrow(
      /does not describe the answer to GET \/v1\/api-public\/ping:\n- status 202 is not documented/,
    );
    await app.close();
  });
});
