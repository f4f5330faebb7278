import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { DEMO_ACCOUNT, seedPosDemo } from '../../src/pos/demo.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { ManualClock, dialects, testApp, type TestApp } from '../helper.js';
import { HAS_CHROMIUM, launchBrowser, pageProblems, seriousViolations } from '../support/browser.js';
import { freePort } from '../support/server-process.js';

// The merchant panel's recent refusals in a real browser (docs/back-office.md, The merchant panel): from a
// key's page to its refusals, a code followed to its anchor on the documentation page, the account's list,
// at phone and desktop widths (screenshots into test-results/panel/, not committed) with axe-core.

const shots = join('test-results', 'panel');
const PASSWORD = 'uma frase longa e segura';

describe.skipIf(!HAS_CHROMIUM)(
  `panel refusals in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    let t: TestApp | undefined;
    let context: BrowserContext | undefined;
    let closeBrowser: (() => Promise<void>) | undefined;
    let base = '';

    beforeAll(async () => {
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      const opened = await dialects[0]!.open();
      t = testApp({
        db: opened.db,
        rateLimits: await dialects[0]!.openStore(),
        clock: new ManualClock(Date.now()),
        config: { PUBLIC_BASE_URL: base },
      });
      await seedPosDemo(t.services, { receipts: 0 });
      await t.services.merchantUsers.ensureWithPassword(
        DEMO_ACCOUNT,
        'ana@example.com',
        'Ana Lima',
        PASSWORD,
      );
      await t.app.public.listen({ port, host: '127.0.0.1' });
      await mkdir(shots, { recursive: true });
      ({ context, close: closeBrowser } = await launchBrowser());
    }, 60_000);

    afterAll(async () => {
      await closeBrowser?.();
      await t?.app.close();
    });

    async function look(page: Page, name: string): Promise<void> {
      for (const [width, height, label] of [
        [1280, 900, 'desktop'],
        [390, 844, 'phone'],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.screenshot({ path: join(shots, `refusals-${name}-${label}.png`), fullPage: true });
        // Nothing wider than the screen: the table stacks into cards on a phone.
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - window.innerWidth',
        );
        expect(overflow, `${name} at ${width} px`).toBeLessThanOrEqual(0);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await seriousViolations(page), `${name}: axe-core`).toEqual([]);
    }

    it('a key’s page → its refusals → the code’s anchor; the account’s list names each key', async () => {
      const services = t!.services;
      const created = async (name: string, permissions: ('event.view' | 'sale-by-payment-method.view')[]) =>
        keyOutcomeValue(
          await services.merchantKeys.create(
            DEMO_ACCOUNT,
            { name, permissions, places: 'all' },
            SERVICE_ACTOR,
          ),
        );
      const erp = await created('ERP da matriz', ['event.view']);
      const bi = await created('Painel de BI', []);
      const api = (key: string, path: string) =>
        fetch(`${base}/v1/api-public${path}`, { headers: { authorization: `Bearer ${key}` } });
      expect((await api(erp.key, '/events?place=SP01&limit=500')).status).toBe(422);
      expect((await api(erp.key, '/events?place=SP01&colour=blue&size=9')).status).toBe(422);
      expect((await api(bi.key, '/events?place=SP01')).status).toBe(403);
      await vi.waitFor(async () => {
        expect(await services.refusals.list({ kind: 'account', id: DEMO_ACCOUNT })).toHaveLength(3);
      });

      const page = await context!.newPage();
      const problems = pageProblems(page);
      await page.goto(`${base}/panel/sign-in`);
      await page.getByLabel('E-mail').fill('ana@example.com');
      await page.getByLabel('Senha', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${base}/panel/keys`);

      await page.getByRole('link', { name: 'ERP da matriz' }).click();
      await page.getByRole('link', { name: 'Recusas recentes' }).click();
      await page.waitForURL(`${base}/panel/keys/${erp.id}/refusals`);
      const rows = page.locator('#refusals tbody tr');
      await expect(rows.count()).resolves.toBe(2);
      await expect(rows.first().innerText()).resolves.toContain('colour');
      await expect(rows.nth(1).innerText()).resolves.toContain('limit');
      await look(page, 'key');

      // The code leads to its explanation on the documentation page, at its anchor.
      await rows.nth(1).getByRole('link', { name: 'invalid_parameter' }).click();
      await page.waitForURL(`${base}/docs/problems#problem-invalid_parameter`);
      const target = page.locator('#problem-invalid_parameter');
      await expect(target.innerText()).resolves.toContain('What to do.');
      await expect(
        page.evaluate<string | null>("document.querySelector(':target')?.id ?? null"),
      ).resolves.toBe('problem-invalid_parameter');
      await page.screenshot({ path: join(shots, 'refusals-docs-anchor-desktop.png') });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${base}/docs/problems#problem-forbidden_permission`);
      await page.screenshot({ path: join(shots, 'refusals-docs-anchor-phone.png') });
      await page.setViewportSize({ width: 1280, height: 900 });

      await page.goto(`${base}/panel/keys`);
      await page.getByRole('link', { name: 'Recusas recentes de todas as chaves' }).click();
      await expect(page.locator('#refusals tbody tr').count()).resolves.toBe(3);
      await expect(page.locator('#refusals tbody tr').first().innerText()).resolves.toContain('Painel de BI');
      await look(page, 'account');

      await page.goto(`${base}/panel/keys/${(await created('Sem chamadas', [])).id}/refusals`);
      await expect(page.locator('main').innerText()).resolves.toContain(
        'Nenhuma chamada desta chave foi recusada',
      );
      await look(page, 'empty');
      expect(problems).toEqual([]);
    });
  },
);
