import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { systemOutcomeValue } from '../../src/helpdesk/system-refusal.js';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The partner systems' pages in a real browser (issue 14, What must show): a support user stops a
// previous key and the partner's old key answers 401 on the very next call; an operator creates a system
// and opens a ticket on the real ticket API with the key shown once; every page is looked at (pictures at
// desktop and phone widths, axe-core).

const OPTIONS = '/v1/api-external-system/help-desk-ticket-options';
const TICKET = '/v1/api-external-system/help-desk-ticket';

describe.skipIf(!HAS_CHROMIUM)(
  `console: partner systems in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('the issue’s flows', (dialect) => {
      let h: ConsoleHarness;

      beforeAll(async () => {
        h = await startConsoleHarness(dialect);
      }, 60_000);
      afterAll(async () => {
        await h.close();
      });

      /** A partner's call to the ticket API, over the network, with its key. */
      const partner = (key: string, path: string, body?: unknown) =>
        fetch(`${h.publicBase}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });

      const main = (page: Page) => page.locator('main').innerText();

      it('support finds the demo system, stops its previous key, and the old key answers 401 on the next call', async () => {
        // The partner rotated (the operator, through the service): the old key still works in its grace.
        const oldKey = h.demoSystemKey;
        const rotated = systemOutcomeValue(await h.t.services.systems.rotateKey('demo', SERVICE_ACTOR));
        expect((await partner(oldKey, OPTIONS)).status).toBe(200);
        // The partner's next call with the new key is refused (no company): a refusal to read below.
        const refused = await partner(rotated.key, TICKET, {
          external_id: 'r-1',
          description: 'Sem empresa',
        });
        expect(refused.status).toBe(422);
        const requestId = refused.headers.get('x-request-id') ?? '';

        const { page, problems } = await h.newPage();
        await h.signIn(page, h.support);
        await page.getByRole('link', { name: 'Sistemas parceiros' }).click();
        await page.getByLabel('Filtrar por identificador ou nome').fill('Demo');
        await page.getByRole('button', { name: 'Filtrar' }).click();
        await expect(page.locator('tr[data-system]').count()).resolves.toBe(1);
        await expect(page.getByRole('link', { name: 'Criar um sistema' }).count()).resolves.toBe(0);
        await h.look(page, 'systems-support');

        await page.getByRole('link', { name: 'demo', exact: true }).click();
        await expect(main(page)).resolves.toContain('A chave anterior funciona até');
        for (const operatorOnly of ['Alterar configurações', 'Trocar a chave', 'Desativar'])
          await expect(page.getByRole('link', { name: operatorOnly }).count()).resolves.toBe(0);
        await h.look(page, 'system-support');

        await page.getByRole('link', { name: 'Encerrar a chave anterior' }).click();
        await h.look(page, 'system-stop-previous');
        await page.getByRole('button', { name: 'Encerrar a chave anterior agora' }).click();
        await expect(page.locator('.flash').innerText()).resolves.toContain('foi encerrada');
        // The very next call with the old key: 401, with nothing cached anywhere in between.
        const stopped = await partner(oldKey, OPTIONS);
        expect(stopped.status).toBe(401);
        expect((await partner(rotated.key, OPTIONS)).status).toBe(200);
        const history = page.locator('#history tr[data-event="previous_stopped"]');
        await expect(history.innerText()).resolves.toContain(h.support.name);
        await h.look(page, 'system-stopped');

        // Why did the partner's call fail: the refusal with its request id (written in the background).
        await page.getByRole('link', { name: 'Últimas recusas' }).click();
        const row = page.locator(`#refusals tr[data-request-id="${requestId}"]`);
        for (let tries = 0; (await row.count()) === 0 && tries < 20; tries += 1) {
          await page.waitForTimeout(100);
          await page.reload();
        }
        await expect(row.innerText()).resolves.toContain('422');
        await expect(row.innerText()).resolves.toContain('missing_company');
        await h.look(page, 'system-refusals');

        await partner(rotated.key, TICKET, {
          external_id: 'pos-4711',
          company: 'acme',
          description: `O terminal 3 não imprime o comprovante desde a troca da bobina. ${'Detalhes. '.repeat(30)}`,
          requester: { name: 'Ana Lima', contact: 'ana@example.com' },
        });
        await page.goto(`${h.adminBase}/console/systems/demo/tickets`);
        await expect(page.locator('#tickets tr[data-ticket]').count()).resolves.toBe(1);
        await expect(main(page)).resolves.toContain('Ana Lima');
        await h.look(page, 'system-tickets');

        // The operator's pages are not for support, even by address.
        const forbidden = await page.goto(`${h.adminBase}/console/systems/new`);
        expect(forbidden?.status()).toBe(403);
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);

      it('an operator creates a system in the form and opens a ticket with the key shown once', async () => {
        // The browser's one context is still signed in as support: a fresh start, as another person.
        await h.context.clearCookies();
        const { page, problems } = await h.newPage();
        await h.signIn(page, h.operator);
        await page.goto(`${h.adminBase}/console/systems`);
        await h.look(page, 'systems-operator');
        await page.getByRole('link', { name: 'Criar um sistema' }).click();
        await h.look(page, 'system-new');

        await page.getByLabel('Identificador').fill('parceiro-sul');
        await page.getByLabel('Nome').fill('Parceiro Sul');
        await page.getByLabel('Limite de chamadas por minuto').fill('0');
        await page.getByLabel('Categoria padrão').selectOption('30');
        await page.getByLabel('Falha de impressão (11)').check();
        await page.getByRole('button', { name: 'Criar o sistema e emitir a chave' }).click();
        // Refused, naming the field, with what was typed kept.
        const summary = page.locator('#error-summary');
        await expect(summary.innerText()).resolves.toContain('Limite de chamadas por minuto');
        await expect(page.getByLabel('Nome').inputValue()).resolves.toBe('Parceiro Sul');
        await h.look(page, 'system-new-errors');
        expect(await h.t.services.systems.list()).toHaveLength(1);

        await page.getByLabel('Limite de chamadas por minuto').fill('60');
        await page.getByRole('button', { name: 'Criar o sistema e emitir a chave' }).click();
        const key = await page.locator('#new-key').inputValue();
        expect(key).toMatch(/^gtes_[A-Za-z0-9_-]{43}$/);
        await expect(page.getByRole('button', { name: 'Copiar a chave' }).isVisible()).resolves.toBe(true);
        await h.look(page, 'system-created');

        const ticket = await partner(key, TICKET, {
          external_id: 'sul-1',
          company: 'acme',
          description: 'A impressora do caixa 2 não imprime.',
          category: 11,
        });
        expect(ticket.status).toBe(201);
        expect(((await ticket.json()) as { applied: { category_id: number } }).applied.category_id).toBe(11);

        // The system's page never shows the key again; the operator's actions are there.
        await page.getByRole('link', { name: 'Abrir a página de “Parceiro Sul”' }).click();
        await expect(page.content()).resolves.not.toContain(key);
        await expect(page.locator('#history').innerText()).resolves.toContain(h.operator.name);
        await h.look(page, 'system-operator');

        // No refusal yet: the page says what it would show.
        await page.getByRole('link', { name: 'Últimas recusas' }).click();
        await expect(main(page)).resolves.toContain('Nenhuma recusa registrada');
        await h.look(page, 'system-refusals-empty');
        await page.getByRole('link', { name: 'Parceiro Sul' }).click();

        await page.getByRole('link', { name: 'Alterar configurações' }).click();
        await h.look(page, 'system-edit');
        await page.getByLabel('Limite de chamadas por minuto').fill('90');
        await page.getByRole('button', { name: 'Salvar configurações' }).click();
        await expect(page.locator('.flash').innerText()).resolves.toContain('salvas');
        expect((await partner(key, OPTIONS)).headers.get('x-ratelimit-limit')).toBe('90');

        await page.getByRole('link', { name: 'Desativar' }).click();
        await h.look(page, 'system-deactivate');
        await page.getByRole('button', { name: 'Desativar' }).click();
        expect((await partner(key, OPTIONS)).status).toBe(403);
        await page.getByRole('link', { name: 'Reativar' }).click();
        await h.look(page, 'system-reactivate');
        await page.getByRole('button', { name: 'Reativar' }).click();
        expect((await partner(key, OPTIONS)).status).toBe(200);

        await page.getByRole('link', { name: 'Trocar a chave' }).click();
        await h.look(page, 'system-rotate');
        await page.getByRole('button', { name: 'Trocar a chave' }).click();
        const rotated = await page.locator('#new-key').inputValue();
        expect(rotated).not.toBe(key);
        await h.look(page, 'system-rotated');
        // Both work during the grace.
        expect((await partner(rotated, OPTIONS)).status).toBe(200);
        expect((await partner(key, OPTIONS)).status).toBe(200);
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);
    });
  },
);
