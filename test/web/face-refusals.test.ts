import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEachDialect, testApp, type TestApp } from '../helper.js';
import { capturedLog, type LogLine } from './face-log.js';

// Every refusal of a web face is a page (docs/back-office.md, Merchant panel: refusals): a body the face does not
// read (JSON, text, multipart, none) 415, a form over 64 KB 413, bytes that are not UTF-8 or a path the
// router cannot decode 400, a known path with another method 405 with Allow; each in the face's frame and
// the reader's language, logged at info, never a 500. The language switch goes back only to a safe path of
// the face. The same on both faces: the panel on the public listener, the console on the admin listener.

interface Face {
  name: 'panel' | 'console';
  prefix: string;
  listener(t: TestApp): FastifyInstance;
}

const FACES: readonly Face[] = [
  { name: 'panel', prefix: '/panel', listener: (t) => t.app.public },
  { name: 'console', prefix: '/console', listener: (t) => t.app.admin },
];

const FORM = 'application/x-www-form-urlencoded';

/** The sentences of the refusal pages, in both languages (src/web/web-messages.ts). */
const SAYS = {
  415: { 'pt-BR': 'Esta página só aceita formulários', en: 'This page only takes forms' },
  413: { 'pt-BR': 'passa de 64 KB', en: 'is over 64 KB' },
  405: { 'pt-BR': 'só aceita: GET, HEAD, POST', en: 'takes only: GET, HEAD, POST' },
  400: { 'pt-BR': 'não pôde ser lido', en: 'could not be read' },
  badPath: { 'pt-BR': 'Este endereço não é válido', en: 'This address is not valid' },
} as const;

describeEachDialect('web faces: every refusal is a page', (dialect) => {
  let t: TestApp;
  let log: ReturnType<typeof capturedLog>;
  let drop: () => Promise<void>;

  beforeEach(async () => {
    const opened = await dialect.open();
    drop = () => opened.drop();
    log = capturedLog();
    t = testApp({ db: opened.db, rateLimits: await dialect.openStore(), logger: log.logger });
  });
  afterEach(async () => {
    await t.app.close();
    await drop();
  });

  for (const face of FACES) {
    describe(`the ${face.name}`, () => {
      const send = (options: InjectOptions) => face.listener(t).inject(options);

      /** The page of a refusal: its status, the face's frame in the language, the sentence, no stack. */
      function expectRefusalPage(
        response: LightMyRequestResponse,
        status: number,
        sentence: string,
        locale: 'pt-BR' | 'en' = 'pt-BR',
      ) {
        expect(response.statusCode, response.body.slice(0, 300)).toBe(status);
        expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(response.headers['content-security-policy']).toContain("default-src 'none'");
        expect(response.body).toContain(`<html lang="${locale}">`);
        expect(response.body).toContain(`href="${face.prefix}/assets/`);
        expect(response.body).toContain(sentence);
        expect(response.body).not.toMatch(/\bat .+:\d+:\d+|Error:/);
      }

      /** The refusal was logged at info under the face's name, and nothing at error. */
      function expectLoggedAtInfo(status: number) {
        const refused = log.lines.filter((line: LogLine) => line.msg === `${face.name}: request refused`);
        expect(refused.map((line) => [line.level, line.status])).toContainEqual([30, status]);
        expect(log.errors()).toEqual([]);
      }

      it('a JSON body on the sign-in form is 415, a page saying the page takes forms; in English by the cookie', async () => {
        const post = (cookie?: string) =>
          send({
            method: 'POST',
            url: `${face.prefix}/sign-in`,
            headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
            payload: JSON.stringify({ email: 'a@example.com', password: 'a long passphrase' }),
          });
        expectRefusalPage(await post(), 415, SAYS[415]['pt-BR']);
        expectRefusalPage(await post('lang=en'), 415, SAYS[415].en, 'en');
        expectLoggedAtInfo(415);
      });

      it('a body of another type (text, multipart) or none is 415', async () => {
        for (const type of ['text/plain', 'multipart/form-data; boundary=x', undefined]) {
          const response = await send({
            method: 'POST',
            url: `${face.prefix}/sign-in`,
            headers: type === undefined ? {} : { 'content-type': type },
            payload: type === undefined ? 'email=a' : '--x--',
          });
          expectRefusalPage(response, 415, SAYS[415]['pt-BR']);
        }
        expectLoggedAtInfo(415);
      });

      it('a post without any body is 415 even with the session’s own CSRF token (it is not a form)', async () => {
        const page = await send({ method: 'GET', url: `${face.prefix}/sign-in` });
        const cookie = page.cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
        const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
        for (const path of ['/sign-in', '/language', '/set-password', '/sign-out']) {
          const response = await send({
            method: 'POST',
            url: `${face.prefix}${path}`,
            headers: { cookie, 'x-csrf-token': token },
          });
          expectRefusalPage(response, 415, SAYS[415]['pt-BR']);
        }
        expectLoggedAtInfo(415);
      });

      it('a form in a content coding (gzip) or another charset is 415', async () => {
        for (const headers of [
          { 'content-type': FORM, 'content-encoding': 'gzip' },
          { 'content-type': `${FORM}; charset=iso-8859-1` },
        ]) {
          const response = await send({
            method: 'POST',
            url: `${face.prefix}/sign-in`,
            headers,
            payload: 'email=a',
          });
          expectRefusalPage(response, 415, SAYS[415]['pt-BR']);
        }
        expect(log.errors()).toEqual([]);
      });

      it('a form of 1 MB and of 10 MB is 413, a page saying the limit', async () => {
        for (const size of [1024 * 1024, 10 * 1024 * 1024]) {
          const response = await send({
            method: 'POST',
            url: `${face.prefix}/sign-in`,
            headers: { 'content-type': FORM },
            payload: `email=${'a'.repeat(size)}`,
          });
          expectRefusalPage(response, 413, SAYS[413]['pt-BR']);
        }
        expectLoggedAtInfo(413);
      });

      it('a form whose bytes or percent-escapes are not UTF-8 is 400', async () => {
        for (const payload of [
          Buffer.from('email=\xff\xfe', 'latin1'),
          'email=%ff',
          'email=%E2%82',
          'email=%zz',
        ]) {
          const response = await send({
            method: 'POST',
            url: `${face.prefix}/sign-in`,
            headers: { 'content-type': FORM },
            payload,
          });
          expectRefusalPage(response, 400, SAYS[400]['pt-BR']);
        }
        expectLoggedAtInfo(400);
      });

      it('a known path with a method it does not take is 405 with Allow, saying which it takes', async () => {
        for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
          const response = await send({ method, url: `${face.prefix}/sign-in` });
          expectRefusalPage(response, 405, SAYS[405]['pt-BR']);
          expect(response.headers.allow).toBe('GET, HEAD, POST');
        }
        const english = await send({
          method: 'PUT',
          url: `${face.prefix}/sign-in`,
          headers: { cookie: 'lang=en' },
        });
        expectRefusalPage(english, 405, SAYS[405].en, 'en');
        // A path the face does not have at all stays 404.
        expect((await send({ method: 'PUT', url: `${face.prefix}/no-such-page` })).statusCode).toBe(404);
        expectLoggedAtInfo(405);
      });

      it('U+0000 in a path parameter is 404, in a query or a form field 400 (PostgreSQL refuses it in text)', async () => {
        const keys = face.name === 'panel' ? '/keys/a%00b' : '/systems/a%00b';
        expectRefusalPage(
          await send({ method: 'GET', url: `${face.prefix}${keys}` }),
          404,
          'Não há nada neste endereço',
        );
        const query = face.name === 'panel' ? '/reports/receipts?from=%00' : '/find?q=a%00';
        expectRefusalPage(
          await send({ method: 'GET', url: `${face.prefix}${query}` }),
          400,
          SAYS[400]['pt-BR'],
        );
        const form = await send({
          method: 'POST',
          url: `${face.prefix}/sign-in`,
          headers: { 'content-type': FORM },
          payload: 'email=a%00b',
        });
        expectRefusalPage(form, 400, SAYS[400]['pt-BR']);
        expect(log.errors()).toEqual([]);
      });

      it('a path the router cannot decode is the face’s 400 page', async () => {
        expectRefusalPage(
          await send({ method: 'GET', url: `${face.prefix}/%ff` }),
          400,
          SAYS.badPath['pt-BR'],
        );
        const english = await send({
          method: 'GET',
          url: `${face.prefix}/keys/%`,
          headers: { cookie: 'lang=en' },
        });
        expectRefusalPage(english, 400, SAYS.badPath.en, 'en');
        expect(log.errors()).toEqual([]);
      });

      it('the language switch goes back only to a safe path of the face: CR/LF, U+2028 and other sites go home', async () => {
        const page = await send({ method: 'GET', url: `${face.prefix}/sign-in` });
        const cookie = page.cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
        const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
        const switchTo = (back: string) =>
          send({
            method: 'POST',
            url: `${face.prefix}/language`,
            headers: { cookie, 'content-type': FORM },
            payload: new URLSearchParams({ _csrf: token, lang: 'en', back }).toString(),
          });
        const followed = await switchTo(`${face.prefix}/sign-in?x=1`);
        expect(followed.statusCode).toBe(303);
        expect(followed.headers.location).toBe(`${face.prefix}/sign-in?x=1`);
        for (const back of [
          `${face.prefix}/sign-in\r\nSet-Cookie: x=1`,
          `${face.prefix}/sign-in\nx`,
          `${face.prefix}/sign-in\u2028x`,
          `${face.prefix}/sign-in\u2029x`,
          `${face.prefix}/sign-in\u0007`,
          `${face.prefix}/sign-in\u20ac`,
          `${face.prefix}//evil.example/`,
          `${face.prefix}/\\evil.example`,
          `${face.prefix}/../admin/v1/staff`,
          `${face.prefix}/%2e%2e/admin`,
          '//evil.example/',
          'https://evil.example/',
        ]) {
          const response = await switchTo(back);
          expect(response.statusCode, JSON.stringify(back)).toBe(303);
          expect(response.headers.location, JSON.stringify(back)).toBe(`${face.prefix}/`);
        }
        expect(log.errors()).toEqual([]);
      });

      it('none of these refusals counts as a 5xx in the metrics', async () => {
        await send({
          method: 'POST',
          url: `${face.prefix}/sign-in`,
          headers: { 'content-type': 'application/json' },
          payload: '{}',
        });
        await send({ method: 'PUT', url: `${face.prefix}/sign-in` });
        await send({
          method: 'POST',
          url: `${face.prefix}/sign-in`,
          headers: { 'content-type': FORM },
          payload: `email=${'a'.repeat(1024 * 1024)}`,
        });
        const text = await t.services.metrics.text();
        const answered = text.split('\n').filter((line) => line.startsWith('http_requests_total{'));
        expect(answered.filter((line) => line.includes('status="415"'))).not.toEqual([]);
        expect(answered.filter((line) => /status="5\d\d"/.test(line))).toEqual([]);
      });
    });
  }

  it('the APIs’ answers to a path the router cannot decode are unchanged', async () => {
    const publicApi = await t.call({ method: 'GET', url: '/v1/api-public/%ff' });
    expect(publicApi.statusCode).toBe(404);
    expect(publicApi.headers['content-type']).toContain('application/problem+json');
    const elsewhere = await t.call({ method: 'GET', url: '/%ff' });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.headers['content-type']).toContain('text/plain');
    const admin = await t.app.admin.inject({ method: 'GET', url: '/admin/v1/%ff' });
    expect(admin.statusCode).toBe(404);
    expect(admin.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(admin.body)).toMatchObject({
      code: 'not_found',
      detail: 'The path is not a valid URL.',
    });
  });
});
