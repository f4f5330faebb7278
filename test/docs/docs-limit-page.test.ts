import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectNoRateHeaders, expectProblem } from '../expect-http.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { publicRequest } from '../request.js';

// The 31st call under /docs within a minute (docs/getting-started.md, Documentation pages): a browser
// showing it gets a page in the reader's language, with the same status and Retry-After; every other
// caller keeps the problem+json answer, byte for byte what it was.

/** What Chromium sends when a person opens a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** Spends the minute's 30 calls of the default caller address. */
async function spendTheMinute(t: TestApp): Promise<void> {
  for (let i = 0; i < 30; i += 1) {
    expect((await publicRequest(t, { url: '/docs/openapi/pos.json' })).statusCode).toBe(200);
  }
}

function expectPage(response: LightMyRequestResponse, lang: string): void {
  expect(response.statusCode).toBe(429);
  expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(response.headers['retry-after']).toBe('60');
  expect(String(response.headers['content-security-policy'])).toContain("default-src 'none'");
  expect(response.headers['cache-control']).toBe('no-store');
  expectNoRateHeaders(response);
  expect(response.body).toContain(`<html lang="${lang}">`);
  expect(response.body).toContain('href="/docs"');
}

describe('the documentation limit answers a browser with a page', () => {
  describeEachDialect('public listener, /docs', (dialect) => {
    const t = useTestApp(dialect);

    it('a browser gets a page in Portuguese or English by Accept-Language, 429 with Retry-After', async () => {
      await spendTheMinute(t);
      const portuguese = await publicRequest(t, {
        url: '/docs/pos',
        headers: { accept: BROWSER_ACCEPT, 'accept-language': 'pt-BR,pt;q=0.9,en-US;q=0.8,en;q=0.7' },
      });
      expectPage(portuguese, 'pt-BR');
      expect(portuguese.body).toContain('Muitas solicitações');
      expect(portuguese.body).toContain('Tente novamente em 60 segundos.');
      expect(portuguese.body).toContain('30 solicitações por minuto');

      const english = await publicRequest(t, {
        url: '/docs/help-desk',
        headers: { accept: BROWSER_ACCEPT, 'accept-language': 'en-GB,en;q=0.9,pt;q=0.5' },
      });
      expectPage(english, 'en');
      expect(english.body).toContain('Too many requests');
      expect(english.body).toContain('Try again in 60 seconds.');

      // A language the faces do not speak, or none at all: the pages' own, English.
      const neither: Record<string, string>[] = [
        { accept: BROWSER_ACCEPT, 'accept-language': 'de-DE,fr;q=0.8' },
        { accept: BROWSER_ACCEPT },
      ];
      for (const headers of neither) {
        expectPage(await publicRequest(t, { url: '/docs', headers }), 'en');
      }
      // A page's document asked for in the address bar, and a miss, are pages too.
      expectPage(
        await publicRequest(t, { url: '/docs/openapi/pos.json', headers: { accept: BROWSER_ACCEPT } }),
        'en',
      );
      expectPage(await publicRequest(t, { url: '/docs/nothing', headers: { accept: BROWSER_ACCEPT } }), 'en');
    });

    it('every other caller keeps the problem: no Accept, any type, JSON first, or HTML no better than JSON', async () => {
      await spendTheMinute(t);
      const bodies = new Set<string>();
      for (const accept of [
        undefined,
        '*/*',
        'application/json',
        'application/problem+json, text/html;q=0.5',
        'text/html, application/json',
        'text/html;q=0',
        'text/css,*/*;q=0.1',
      ]) {
        const refused = await publicRequest(t, {
          url: '/docs/help-desk',
          headers: {
            'accept-language': 'pt-BR',
            ...(accept === undefined ? {} : { accept }),
          },
        });
        expectProblem(refused, 429, 'rate_limited');
        expect(refused.headers['retry-after'], String(accept)).toBe('60');
        expectNoRateHeaders(refused);
        bodies.add(refused.body);
      }
      // One answer whatever was asked: the one every caller got before the page.
      expect([...bodies]).toEqual([
        JSON.stringify({
          type: 'about:blank',
          title: 'Too Many Requests',
          status: 429,
          detail:
            'Too many requests for the documentation from this IP. Retry after the time in the Retry-After header.',
          code: 'rate_limited',
        }),
      ]);
    });

    it('the page counts nothing more: once the minute has passed the browser is served again', async () => {
      await spendTheMinute(t);
      for (let i = 0; i < 5; i += 1) {
        const page = await publicRequest(t, { url: '/docs', headers: { accept: BROWSER_ACCEPT } });
        expect(page.statusCode).toBe(429);
      }
      t.clock.advance(60_000);
      const served = await publicRequest(t, { url: '/docs', headers: { accept: BROWSER_ACCEPT } });
      expect(served.statusCode).toBe(200);
      expect(served.body).toContain('API documentation');
    });
  });
});
