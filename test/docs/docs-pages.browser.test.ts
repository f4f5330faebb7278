import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { helpDeskDocument } from '../../src/openapi/help-desk-document.js';
import { posDocument } from '../../src/openapi/pos-document.js';
import { seedPosDemo } from '../../src/pos/demo.js';
import { describeEachDialect, dialects, testApp, useTestApp, type TestApp } from '../helper.js';
import { publicRequest } from '../request.js';
import { HAS_CHROMIUM, launchBrowser } from '../support/browser.js';
import { freePort } from '../support/server-process.js';

// The documentation pages under /docs (docs/pos-api.md, Settled details: "Documentation pages (rendered
// OpenAPI) are served outside both prefixes, under /docs, with a per-IP limit of 30 a minute"): what the
// server answers, then the pages as a person uses them, in a real browser, and their commands as printed.

const run = promisify(execFile);

const PAGES = ['/docs', '/docs/help-desk', '/docs/pos'] as const;

/** The files a page loads: `<link rel="stylesheet" href>` and `<script src>`. */
function assetsOf(html: string): string[] {
  return [...html.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('documentation pages', () => {
  describeEachDialect('served by the public listener', (dialect) => {
    const t = useTestApp(dialect);

    it('the index links both pages and both documents', async () => {
      const response = await publicRequest(t, { url: '/docs' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const link of [
        '/docs/help-desk',
        '/docs/pos',
        '/docs/openapi/help-desk.json',
        '/docs/openapi/pos.json',
      ]) {
        expect(response.body).toContain(`href="${link}"`);
      }
    });

    it('a page allows scripts, styles and fetches from the service only, no inline script or style, no frames', async () => {
      for (const url of PAGES) {
        const response = await publicRequest(t, { url });
        expect(response.statusCode).toBe(200);
        const csp = String(response.headers['content-security-policy']);
        expect(csp).toContain("default-src 'none'");
        expect(csp).toContain("script-src 'self'");
        expect(csp).toContain("style-src 'self'");
        expect(csp).toContain("connect-src 'self'");
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).not.toContain('unsafe-inline');
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        expect(response.body).not.toMatch(/<script>|<style|style="|https?:\/\/(?!api\.example\.test)/);
      }
    });

    it('a reference page carries its document (one request fewer) and its getting started with the base URL', async () => {
      const help = await publicRequest(t, { url: '/docs/help-desk' });
      const embedded = /<script type="application\/json" id="openapi-document">(.*?)<\/script>/s.exec(
        help.body,
      );
      expect(JSON.parse(embedded![1]!)).toEqual(helpDeskDocument('https://api.example.test'));
      expect(help.body).toContain(
        'curl -s https://api.example.test/v1/api-external-system/help-desk-ticket-options',
      );
      expect(help.body).toContain('Getting started');
      const pos = await publicRequest(t, { url: '/docs/pos' });
      expect(pos.body).toContain('re-query the last 3 days');
    });

    it('assets are fingerprinted, kept a year by the browser, gzipped on request, and keep nosniff', async () => {
      const page = await publicRequest(t, { url: '/docs/help-desk' });
      const assets = assetsOf(page.body);
      // The renderer's script, the stylesheet and the tab's icon (docs-looks.browser.test.ts checks it).
      expect(assets).toHaveLength(3);
      expect(assets.filter((url) => /\/icon-[0-9a-f]{16}\.svg$/.test(url))).toHaveLength(1);
      for (const url of assets.filter((asset) => !asset.endsWith('.svg'))) {
        expect(url).toMatch(/^\/docs\/assets\/(reference|docs)-[0-9a-f]{16}\.(js|css)$/);
        const plain = await publicRequest(t, { url });
        expect(plain.statusCode).toBe(200);
        expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(plain.headers['x-content-type-options']).toBe('nosniff');
        expect(plain.headers['content-encoding']).toBeUndefined();
        const gzipped = await publicRequest(t, { url, headers: { 'accept-encoding': 'gzip, br' } });
        expect(gzipped.headers['content-encoding']).toBe('gzip');
        expect(gzipped.headers.vary).toBe('accept-encoding');
        expect(gunzipSync(gzipped.rawPayload).equals(plain.rawPayload)).toBe(true);
        expect(gzipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      }
    });

    it('an asset of another fingerprint is the HTML 404, counted toward the limit', async () => {
      const response = await publicRequest(t, { url: '/docs/assets/reference-0000000000000000.js' });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-store');
    });

    it('pages and assets count toward the 30 a minute of /docs (docs/pos-api.md, Settled details)', async () => {
      const page = await publicRequest(t, { url: '/docs/pos' });
      const [first] = assetsOf(page.body);
      for (let i = 1; i < 30; i += 1) {
        expect((await publicRequest(t, { url: i % 2 === 0 ? '/docs' : first! })).statusCode).toBe(200);
      }
      expect((await publicRequest(t, { url: '/docs/help-desk' })).statusCode).toBe(429);
      expect((await publicRequest(t, { url: first! })).statusCode).toBe(429);
    });
  });
});

/** A port free right now, so that PUBLIC_BASE_URL can name the server before it listens. */
describe('documentation pages on a real port', () => {
  let t: TestApp | undefined;
  let base: string;
  let drop: (() => Promise<void>) | undefined;
  let keys: { helpDesk: string; pos: string };
  /** Requests the public listener received, by path. */
  const received: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const opened = await dialects[0]!.open();
    drop = () => opened.drop();
    const app = testApp({ db: opened.db, config: { PUBLIC_BASE_URL: base } });
    t = app;
    app.app.public.addHook('onRequest', (request, _reply, done) => {
      received.push(request.url);
      done();
    });
    keys = {
      helpDesk: await seedHelpdeskDemo(app.services),
      pos: (await seedPosDemo(app.services, { receipts: 500 })).key,
    };
    await app.app.public.listen({ port, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await t?.app.close();
    await drop?.();
  });

  it('every command of the getting started works as printed against the demo, with the key in $KEY', async () => {
    for (const [url, key] of [
      ['/docs/help-desk', keys.helpDesk],
      ['/docs/pos', keys.pos],
    ] as const) {
      const html = await (await fetch(base + url)).text();
      const commands = [...html.matchAll(/<pre><code>(.*?)<\/code><\/pre>/gs)]
        .map((m) =>
          m[1]!
            .replace(/&#39;/g, "'")
            .replace(/&quot;/g, '"')
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&amp;/g, '&'),
        )
        .filter((command) => !command.startsWith('export KEY='));
      expect(commands.length).toBeGreaterThanOrEqual(3);
      for (const command of commands) {
        // -w appends the status of each call, so a refusal cannot pass for an answer.
        const { stdout: output } = await run(
          'bash',
          ['-c', command.replaceAll('curl -s ', "curl -s -w '\\nstatus=%{http_code}\\n' ")],
          { env: { PATH: process.env.PATH, KEY: key } },
        );
        const statuses = [...output.matchAll(/^status=(\d+)$/gm)].map((m) => Number(m[1]));
        expect(statuses, command).toHaveLength(command.split('curl ').length - 1);
        for (const status of statuses) expect([200, 201], `${command}\n${output}`).toContain(status);
      }
    }
  });

  describe.skipIf(!HAS_CHROMIUM)(
    `in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent (apt-get install chromium)'}`,
    () => {
      let context: BrowserContext | undefined;
      let closeBrowser: (() => Promise<void>) | undefined;
      const shots = join('test-results', 'screenshots');

      beforeAll(async () => {
        await mkdir(shots, { recursive: true });
        ({ context, close: closeBrowser } = await launchBrowser());
      }, 60_000);

      afterAll(async () => {
        await closeBrowser?.();
      });

      it('the pages list every operation, ask nothing outside the service, break no CSP rule, and cost 6 requests then 1 a page', async () => {
        const page = await context!.newPage();
        const outside: string[] = [];
        const problems: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(base) && !request.url().startsWith('data:'))
            outside.push(request.url());
        });
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(`${message.text()} ${message.location().url}`);
        });
        page.on('pageerror', (error) => problems.push(error.message));

        const summaries = (document: ReturnType<typeof posDocument>) =>
          Object.values(document.paths as Record<string, Record<string, { summary?: string }>>)
            .flatMap((operations) => Object.values(operations))
            .map((operation) => operation.summary)
            .filter((summary): summary is string => summary !== undefined);
        const expected: Record<string, string[]> = {
          '/docs': ['Partner Help Desk Ticket API', 'Point-of-Sale Data API'],
          '/docs/help-desk': summaries(helpDeskDocument(base)),
          '/docs/pos': summaries(posDocument(base)),
        };

        for (const [width, height, label] of [
          [1280, 800, 'desktop'],
          [390, 844, 'phone'],
        ] as const) {
          await page.setViewportSize({ width, height });
          received.length = 0;
          for (const url of PAGES) {
            await page.goto(base + url, { waitUntil: 'load' });
            if (url !== '/docs') await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
            const text = await page.locator('body').innerText();
            for (const summary of expected[url]!)
              expect(text, `${url} lists "${summary}"`).toContain(summary);
            const name = url === '/docs' ? 'index' : url.slice('/docs/'.length);
            await page.screenshot({ path: join(shots, `${name}-${label}.png`) });
            await page.screenshot({ path: join(shots, `${name}-${label}-full.png`), fullPage: true });
          }
          // The first round fetches the stylesheet, the script and the icon once; afterwards the browser
          // keeps them.
          expect(received.filter((path) => path.startsWith('/docs'))).toHaveLength(
            label === 'desktop' ? 6 : 3,
          );
        }
        expect(outside).toEqual([]);
        expect(problems).toEqual([]);
      }, 90_000);
    },
  );
});
