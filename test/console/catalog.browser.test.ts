import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOG_COLLECTIONS } from '../../src/helpdesk/catalog-collections.js';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The console's help-desk catalog and maintenance switch in a real browser (issue 14, What must show):
// an operator creates a category type and a category through the forms and finds them listed; the
// category form refuses a 501-character description naming the field, storing nothing; the maintenance
// switch makes the real ticket API answer 503 with the Retry-After set, and serve again once off. Every
// page is looked at (screenshots at two widths, axe-core). The pages are in Portuguese, the default.

describe.skipIf(!HAS_CHROMIUM)(
  `console catalog in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('the operator’s catalog and maintenance switch', (dialect) => {
      let h: ConsoleHarness;

      beforeAll(async () => {
        h = await startConsoleHarness(dialect);
      }, 60_000);
      afterAll(async () => {
        await h.close();
      });

      /** The text of the page's main content. */
      const main = (page: Page) => page.locator('main').innerText();

      it('creates a category type and a category in the forms, refuses a 501-character description naming the field, deletes the category after its confirmation', async () => {
        const { page, problems } = await h.newPage();
        // A step that cannot happen fails in seconds, saying which, not at the test's timeout.
        page.setDefaultTimeout(10_000);
        await h.signIn(page, h.operator);
        await page.goto(`${h.adminBase}/console/catalog`);
        await h.look(page, 'catalog');

        const subnav = page.getByRole('navigation', { name: 'Coleções do catálogo' });
        await subnav.getByRole('link', { name: 'Tipos de categoria' }).click();
        await page.waitForURL('**/console/catalog/category-types');
        await page.getByRole('link', { name: 'Novo tipo de categoria' }).click();
        await page.getByLabel('Id', { exact: true }).fill('5');
        await page.getByLabel('Nome', { exact: true }).fill('Dúvida técnica');
        await page.getByLabel('Descrição', { exact: true }).fill('Perguntas sobre a integração.');
        await page.getByRole('button', { name: 'Salvar' }).click();
        await page.waitForURL('**/console/catalog/category-types');
        expect(await page.getByRole('status').innerText()).toBe('Tipo de categoria 5 salvo.');
        expect(await page.locator('tr[data-id="5"]').innerText()).toContain('Dúvida técnica');
        await h.look(page, 'catalog-category-types');

        await subnav.getByRole('link', { name: 'Categorias' }).click();
        await page.getByRole('link', { name: 'Nova categoria' }).click();
        await page.waitForURL('**/console/catalog/categories/new');
        await page.getByLabel('Id', { exact: true }).fill('50');
        await page.getByLabel('Nome', { exact: true }).fill('Erro na integração');
        await page.getByLabel('Tipo de categoria').selectOption({ label: 'Dúvida técnica (5)' });
        await page.getByLabel('Prioridade padrão').selectOption({ label: 'Alta (2)' });
        await page.getByRole('button', { name: 'Salvar' }).click();
        await page.waitForURL('**/console/catalog/categories');
        const row = await page.locator('tr[data-id="50"]').innerText();
        expect(row).toContain('Erro na integração');
        expect(row).toContain('Dúvida técnica (5)');
        expect(row).toContain('Alta (2)');
        await h.look(page, 'catalog-categories');
        expect(await h.t.services.catalog.listEntries('hd_categories')).toContainEqual({
          id: 50,
          name: 'Erro na integração',
          description: null,
          type_id: 5,
          default_priority_id: 2,
        });

        // 501 characters: refused, the field named in the summary and marked beside the field.
        await page.getByRole('link', { name: 'Nova categoria' }).click();
        await page.getByLabel('Id', { exact: true }).fill('51');
        await page.getByLabel('Nome', { exact: true }).fill('Longa demais');
        await page.getByLabel('Tipo de categoria').selectOption({ label: 'Incidente (1)' });
        await page.getByLabel('Descrição', { exact: true }).fill('x'.repeat(501));
        const [answer] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST'),
          page.getByRole('button', { name: 'Salvar' }).click(),
        ]);
        expect(answer.status()).toBe(422);
        const summary = page.locator('#error-summary');
        expect(await summary.getAttribute('role')).toBe('alert');
        expect(await summary.innerText()).toContain('Descrição: must be at most 500 characters');
        const description = page.locator('#field-description');
        expect(await description.getAttribute('aria-invalid')).toBe('true');
        expect(await description.getAttribute('aria-describedby')).toContain('error-description');
        expect(await page.locator('#error-description').innerText()).toBe('must be at most 500 characters');
        // What was typed is kept, to shorten rather than type again.
        expect(await description.inputValue()).toHaveLength(501);
        await h.look(page, 'catalog-category-invalid');
        // The summary's link leads to the field.
        await summary.getByRole('link').click();
        expect(new URL(page.url()).hash).toBe('#field-description');
        const ids = (await h.t.services.catalog.listEntries('hd_categories')).map((c) => c.id);
        expect(ids).not.toContain(51);

        // The category's own form, then its deletion through the confirmation page.
        await page.goto(`${h.adminBase}/console/catalog/categories/50/edit`);
        expect(await page.getByLabel('Tipo de categoria').inputValue()).toBe('5');
        await page.goto(`${h.adminBase}/console/catalog/categories`);
        await page.getByRole('link', { name: 'Excluir 50' }).click();
        expect(await main(page)).toContain('category_id deles passa a ser null');
        await h.look(page, 'catalog-category-delete');
        await page.getByRole('button', { name: 'Excluir a categoria 50' }).click();
        await page.waitForURL('**/console/catalog/categories');
        expect(await page.getByRole('status').innerText()).toContain(
          'Categoria 50 “Erro na integração” excluída.',
        );
        expect(await page.locator('tr[data-id="50"]').count()).toBe(0);

        // Every collection's list and forms (a company and a nature have the active checkbox).
        for (const collection of CATALOG_COLLECTIONS) {
          await page.goto(`${h.adminBase}/console/catalog/${collection.path}`);
          await h.look(page, `catalog-${collection.path}-list`);
          await page.goto(`${h.adminBase}/console/catalog/${collection.path}/new`);
          await h.look(page, `catalog-${collection.path}-new`);
          const [first] = await h.t.services.catalog.listEntries(collection.table);
          await page.goto(
            `${h.adminBase}/console/catalog/${collection.path}/${String(first?.[collection.key])}/edit`,
          );
          await h.look(page, `catalog-${collection.path}-edit`);
        }
        expect(problems).toEqual([]);
        await page.close();
      }, 360_000);

      it('switching maintenance on makes the ticket API answer 503 with that Retry-After; off, it serves again', async () => {
        const { page, problems } = await h.newPage();
        page.setDefaultTimeout(10_000);
        await h.context.clearCookies();
        await h.signIn(page, h.operator);
        const options = () =>
          fetch(`${h.publicBase}/v1/api-external-system/help-desk-ticket-options`, {
            headers: { authorization: `Bearer ${h.demoSystemKey}` },
          });
        expect((await options()).status).toBe(200);

        // From the dashboard's link (the operator's start page, where the sign-in lands).
        await page.goto(`${h.adminBase}/console/dashboard`);
        await page.getByRole('link', { name: 'Aberta' }).click();
        await page.waitForURL('**/console/maintenance');
        await h.look(page, 'maintenance-off');

        await page.getByLabel('Retry-After (segundos)').fill('0');
        await page.getByRole('button', { name: 'Continuar' }).click();
        expect(await page.locator('#error-retry_after_seconds').innerText()).toBe('must be at least 1');
        await h.look(page, 'maintenance-invalid');

        await page.getByLabel('Retry-After (segundos)').fill('120');
        await page.getByRole('button', { name: 'Continuar' }).click();
        expect(await main(page)).toContain('503 temporarily_unavailable com Retry-After: 120');
        await h.look(page, 'maintenance-confirm');
        // Nothing switched before the confirmation.
        expect((await options()).status).toBe(200);
        await page.getByRole('button', { name: 'Ligar a manutenção: os parceiros recebem 503' }).click();
        await page.waitForURL('**/console/maintenance');
        expect(await page.getByRole('status').innerText()).toContain('Retry-After de 120 s');
        await h.look(page, 'maintenance-on');

        const closed = await options();
        expect(closed.status).toBe(503);
        expect(closed.headers.get('retry-after')).toBe('120');
        expect(((await closed.json()) as { code: string }).code).toBe('temporarily_unavailable');

        await page
          .getByRole('button', { name: 'Desligar a manutenção: os parceiros voltam a ser atendidos' })
          .click();
        await page.waitForURL('**/console/maintenance');
        expect(await page.getByRole('status').innerText()).toContain('voltou a atender');
        expect((await options()).status).toBe(200);
        expect(problems).toEqual([]);
        await page.close();
      }, 120_000);
    });
  },
);
