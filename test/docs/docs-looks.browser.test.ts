import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helpDeskDocument } from '../../src/openapi/help-desk-document.js';
import { posDocument } from '../../src/openapi/pos-document.js';
import { PLANNED_TAG } from '../../src/openapi/route-operation.js';
import type { Json } from '../../src/openapi/schema-components.js';
import { startConsoleHarness, type ConsoleHarness } from '../console/console-harness.js';
import { describeEachDialect } from '../helper.js';
import { attributes, HAS_CHROMIUM } from '../support/browser.js';

// How the pages look once loaded (docs/getting-started.md, Documentation pages): each page's tab has the
// service's icon and no load fails (no 404 for /favicon.ico, no 401), on the documentation, the panel's
// sign-in and the console's sign-in; the references group their operations by tag with the planned ones
// last and marked, and offer nothing to authorize. Pictures at 1280 and 390 px in
// test-results/screenshots/ (looks-*.png).

const shots = join('test-results', 'screenshots');

/** Everything that went wrong while a page loaded: console errors, failed requests, answers >= 400. */
function loadProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()} ${message.location().url}`);
  });
  page.on('pageerror', (error) => problems.push(`script: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  return problems;
}

/** The tags of a document, in order, and the tag of each operation's summary. */
function tagsOf(document: Json): { order: string[]; planned: string[] } {
  const operations = Object.values(document.paths as Record<string, Record<string, Json>>).flatMap((item) =>
    Object.values(item),
  );
  return {
    order: (document.tags as { name: string }[]).map((tag) => tag.name),
    planned: operations
      .filter((operation) => operation['x-planned'] === true)
      .map((operation) => String(operation.operationId)),
  };
}

describe.skipIf(!HAS_CHROMIUM)(
  `the pages' looks in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('docs, panel and console', (dialect) => {
      let harness: ConsoleHarness | undefined;

      beforeAll(async () => {
        harness = await startConsoleHarness(dialect);
        await mkdir(shots, { recursive: true });
      }, 180_000);

      afterAll(async () => {
        await harness?.close();
      });

      it('every page has its icon and loads without one failed request or console error', async () => {
        const h = harness!;
        const pages = [
          `${h.publicBase}/docs`,
          `${h.publicBase}/docs/help-desk`,
          `${h.publicBase}/docs/pos`,
          `${h.publicBase}/panel/sign-in`,
          `${h.adminBase}/console/sign-in`,
        ];
        const icons = new Set<string>();
        for (const url of pages) {
          const page = await h.context.newPage();
          const problems = loadProblems(page);
          await page.goto(url, { waitUntil: 'networkidle' });
          const href = await page.locator('link[rel=icon]').getAttribute('href');
          expect(href, url).toMatch(/\/assets\/[a-z-]*icon-[0-9a-f]{16}\.svg$/);
          // The context's request client keeps its connection between pages; the server may close it idle
          // (HTTP_KEEP_ALIVE_TIMEOUT_MS) just as the next GET goes out, which any client meets as a reset
          // and may retry, the GET being idempotent.
          const icon = await page.request.get(new URL(href!, url).toString(), { maxRetries: 2 });
          expect(icon.status(), url).toBe(200);
          expect(icon.headers()['content-type']).toBe('image/svg+xml');
          expect(icon.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
          expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
          icons.add(new URL(href!, url).pathname);
          expect(problems, url).toEqual([]);
          await page.close();
        }
        // One icon for the documentation, one for each face.
        expect(icons.size).toBe(3);
      }, 120_000);

      it('the references: operations by tag, the planned ones last and marked, nothing to authorize', async () => {
        const h = harness!;
        const page = await h.context.newPage();
        const problems = loadProblems(page);
        for (const [name, document] of [
          ['help-desk', helpDeskDocument(h.publicBase)],
          ['pos', posDocument(h.publicBase)],
        ] as const) {
          const { order, planned } = tagsOf(document);
          expect(order.at(-1)).toBe(PLANNED_TAG.name);
          expect(planned.length).toBeGreaterThan(0);
          await page.setViewportSize({ width: 1280, height: 900 });
          await page.goto(`${h.publicBase}/docs/${name}`);
          await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
          // The groups in the document's order, none of them "default".
          expect(await attributes(page, '.opblock-tag', 'data-tag')).toEqual(order);
          const section = page.locator('.opblock-tag-section').filter({
            has: page.locator(`.opblock-tag[data-tag="${PLANNED_TAG.name}"]`),
          });
          for (const operationId of planned) {
            const operation = section.locator(`[id$="-${operationId}"]`);
            expect(await operation.count(), operationId).toBe(1);
            const badge = await operation.locator('.opblock-summary-path').evaluate(
              (path) =>
                (
                  globalThis as unknown as {
                    getComputedStyle(element: unknown, pseudo: string): { content: string };
                  }
                ).getComputedStyle(path, '::after').content,
            );
            expect(badge, operationId).toBe('"Planned"');
          }
          // Nothing here can be tried, so nothing offers to authorize: no button, no lock.
          expect(await page.locator('.btn.authorize, .authorization__btn').count()).toBe(0);
          expect(await page.locator('.try-out').count()).toBe(0);
          for (const [width, height, label] of [
            [1280, 900, 'desktop'],
            [390, 844, 'phone'],
          ] as const) {
            await page.setViewportSize({ width, height });
            await page.screenshot({ path: join(shots, `looks-${name}-${label}.png`), fullPage: true });
          }
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${h.publicBase}/docs`);
        await page.screenshot({ path: join(shots, 'looks-index-phone.png'), fullPage: true });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.screenshot({ path: join(shots, 'looks-index-desktop.png'), fullPage: true });
        expect(problems).toEqual([]);
      }, 120_000);
    });
  },
);
