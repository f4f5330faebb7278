import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPosDemo } from '../../src/pos/demo.js';
import { ManualClock, describeEachDialect, testApp, type TestApp } from '../helper.js';
import { attributes, HAS_CHROMIUM, launchBrowser, seriousViolations } from '../support/browser.js';
import { freePort } from '../support/server-process.js';

// The summary by brand with the demo's data in a real browser (issue 22): the demo's terminals spell
// brands 88 ways over the TEF methods, so the page shows the 10 largest lines and one "other brands"
// line, a chart of the same dozen bars, the sum of the brand lines beside the period's total over every
// method, a link to every line, both CSVs with every line, and the language switch back to the same
// report with its filters. Every figure is compared with the POS API's answer. Screenshots of both
// reports at phone and desktop width, in both languages, into test-results/panel-reports/ (not committed).

const shots = join('test-results', 'panel-reports');
const PASSWORD = 'uma frase longa e segura';

interface BrandLine {
  brand: string | null;
  count: number;
  amount: string;
  share: string;
}
interface Answer {
  total: { count: number; amount: string };
  data: { payment_method: string; amount: string; brands: BrandLine[] }[];
}

/** Money text to cents, for sums the test makes on its own. */
const cents = (amount: string) => Math.round(Number(amount) * 100);

describe.skipIf(!HAS_CHROMIUM)(
  `panel reports in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('the brand report with the demo data', (dialect) => {
      let t: TestApp | undefined;
      let drop: (() => Promise<void>) | undefined;
      let context: BrowserContext | undefined;
      let closeBrowser: (() => Promise<void>) | undefined;
      let base = '';
      let key = '';

      beforeAll(async () => {
        const port = await freePort();
        base = `http://127.0.0.1:${port}`;
        const opened = await dialect.open();
        drop = () => opened.drop();
        t = testApp({
          db: opened.db,
          rateLimits: await dialect.openStore(),
          clock: new ManualClock(Date.now()),
          config: { PUBLIC_BASE_URL: base },
        });
        ({ key } = await seedPosDemo(t.services, { receipts: 8000 }));
        await t.services.merchantUsers.ensureWithPassword('demo', 'ana@example.com', 'Ana', PASSWORD);
        await t.app.public.listen({ port, host: '127.0.0.1' });
        await mkdir(shots, { recursive: true });
        ({ context, close: closeBrowser } = await launchBrowser());
      }, 120_000);

      afterAll(async () => {
        await closeBrowser?.();
        await t?.app.close();
        await drop?.();
      });

      /** Screenshots at desktop and phone width, and axe-core's serious findings. */
      async function look(page: Page, name: string): Promise<void> {
        for (const [width, label] of [
          [1280, 'desktop'],
          [390, 'phone'],
        ] as const) {
          await page.setViewportSize({ width, height: 900 });
          if ((await page.locator('canvas').count()) > 0) await page.waitForTimeout(300);
          await page.screenshot({
            path: join(shots, `${dialect.name}-${name}-${label}.png`),
            fullPage: true,
          });
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        expect(await seriousViolations(page), `${name}: axe-core`).toEqual([]);
      }

      it('top 10 + other, the totals said, every line on request, both CSVs, the language switch keeping the filters', async () => {
        const page = await context!.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${base}/panel/sign-in`);
        await page.getByLabel('E-mail').fill('ana@example.com');
        await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL(`${base}/panel/keys`);

        // 120 days up to today (UTC-03:00): the longest period, every spelling of the demo in it.
        const day = (back: number) =>
          new Date(Date.now() - 3 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);
        const [first, last, dayAfter] = [day(119), day(0), day(-1)];
        const query = `place=SP01&from=${first}&to=${last}`;
        const answer = (await (
          await fetch(
            `${base}/v1/api-public/sales/by-payment-method?place=SP01&from=${first}T00:00:00-03:00&to=${dayAfter}T00:00:00-03:00`,
            { headers: { authorization: `Bearer ${key}` } },
          )
        ).json()) as Answer;
        const lines = answer.data.flatMap((line) => line.brands);
        expect(lines.length).toBe(88);
        const ranked = [...lines].sort((a, b) => cents(b.amount) - cents(a.amount));
        const sumCents = (some: BrandLine[]) => some.reduce((sum, line) => sum + cents(line.amount), 0);
        const sumCount = (some: BrandLine[]) => some.reduce((sum, line) => sum + line.count, 0);

        await page.goto(`${base}/panel/reports/brands?${query}`);
        await page.locator('canvas').waitFor();
        await look(page, 'brands-pt-BR');
        // The 10 largest lines, each the API's figures, then the rest in one line.
        const amounts = await attributes(page, '#report-table tbody [data-amount]', 'data-amount');
        expect(amounts).toEqual(ranked.slice(0, 10).map((line) => line.amount));
        expect(await attributes(page, '#report-table tbody [data-share]', 'data-share')).toEqual(
          ranked.slice(0, 10).map((line) => line.share),
        );
        const rest = page.locator('tr.rest');
        await expect(rest.locator('th').innerText()).resolves.toBe('Outras bandeiras (78)');
        const restAmount = (await rest.locator('[data-rest-amount]').getAttribute('data-rest-amount'))!;
        expect(cents(restAmount)).toBe(sumCents(ranked.slice(10)));
        const restCount = Number(await rest.locator('[data-rest-count]').getAttribute('data-rest-count'));
        expect(restCount).toBe(sumCount(ranked.slice(10)));
        // Top 10 + other = the sum of every brand line; the period's total is the API's, over every method.
        const brandsAmount = (await page.locator('[data-brands-amount]').getAttribute('data-brands-amount'))!;
        expect(cents(brandsAmount)).toBe(sumCents(lines));
        expect(cents(brandsAmount)).toBe(sumCents(ranked.slice(0, 10)) + cents(restAmount));
        expect(Number(await page.locator('[data-brands-count]').getAttribute('data-brands-count'))).toBe(
          sumCount(lines),
        );
        expect(await page.locator('[data-total-amount]').getAttribute('data-total-amount')).toBe(
          answer.total.amount,
        );
        expect(cents(answer.total.amount)).toBeGreaterThan(cents(brandsAmount));
        await expect(page.locator('tr.total th').innerText()).resolves.toBe(
          'Total do período, todas as formas de pagamento',
        );
        await expect(page.locator('#total-note').innerText()).resolves.toContain('só os pagamentos TEF');
        // The chart: the same 11 bars, a sane height.
        const chart = JSON.parse((await page.locator('#chart-data').textContent())!) as { values: number[] };
        expect(chart.values).toHaveLength(11);
        const height = (await page.locator('.chart').boundingBox())!.height;
        expect(height).toBeLessThan(450);

        // Every line on request, keeping the filters; the chart stays the same dozen bars.
        await page.locator('#all-brands').click();
        await page.waitForURL(`${base}/panel/reports/brands?${query}&all=1`);
        expect(await attributes(page, '#report-table tbody [data-amount]', 'data-amount')).toEqual(
          ranked.map((line) => line.amount),
        );
        await expect(page.locator('tr.rest').count()).resolves.toBe(0);
        expect((await page.locator('.chart').boundingBox())!.height).toBeLessThan(450);

        // Both CSVs hold every line, with the API's figures.
        const request = page.context().request;
        const csv = async (path: string, delimiter: string): Promise<string[][]> => {
          const text = await (await request.get(`${base}/panel/reports/${path}?${query}`)).text();
          return parse(text, { bom: true, delimiter });
        };
        const plain = await csv('brands.csv', ',');
        expect(plain.slice(1).map((row) => row[4])).toEqual(lines.map((line) => line.amount));
        const br = await csv('brands-planilha.csv', ';');
        expect(br.slice(1).map((row) => row[4])).toEqual(lines.map((line) => line.amount.replace('.', ',')));

        // English from the switch: the same report, the same filters.
        await page.goto(`${base}/panel/reports/brands?${query}`);
        await page.getByRole('button', { name: /English/ }).click();
        await page.waitForURL(`${base}/panel/reports/brands?${query}`);
        await expect(page.locator('h1').innerText()).resolves.toBe('Summary by brand');
        await expect(page.locator('#from').inputValue()).resolves.toBe(first);
        await expect(page.locator('tr.total th').innerText()).resolves.toBe(
          'Period total, all payment methods',
        );
        await expect(page.locator('tr.rest th').innerText()).resolves.toBe('Other brands (78)');
        await page.locator('canvas').waitFor();
        await look(page, 'brands-en');
        await page.goto(`${base}/panel/reports/receipts?${query}`);
        await page.locator('canvas').waitFor();
        await look(page, 'receipts-en');
        // An empty period names the place and the period.
        await page.goto(`${base}/panel/reports/brands?place=SP01&from=2020-01-01&to=2020-01-02`);
        await expect(page.locator('#report-empty').innerText()).resolves.toBe(
          'No sales at Bar Paulista between 2020-01-01 and 2020-01-02 (included).',
        );
        await page.getByRole('button', { name: /Português/ }).click();
        await page.waitForURL(`${base}/panel/reports/brands?place=SP01&from=2020-01-01&to=2020-01-02`);
        await expect(page.locator('#report-empty').innerText()).resolves.toBe(
          'Nenhuma venda em Bar Paulista entre 01/01/2020 e 02/01/2020 (inclusive).',
        );
        await look(page, 'brands-empty-pt-BR');
        await page.goto(`${base}/panel/reports/receipts?${query}`);
        await page.locator('canvas').waitFor();
        await look(page, 'receipts-pt-BR');
        expect(problems).toEqual([]);
      }, 180_000);
    });
  },
);
