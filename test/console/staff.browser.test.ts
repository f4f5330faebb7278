import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM, launchBrowser, pageProblems } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The console's staff pages in a real browser (issue 14): the operator adds a support user and copies
// the set-password link shown once; the new person, in a browser of their own, sets a password through
// it, signs in and sees only support's navigation; the operator issues a fresh link, is refused
// disabling themself, disables the new user, whose next page is the sign-in page; the action log lists
// each change with the operator's name. Every page is looked at (pictures at both widths, axe-core).

/** The navigation's labels of the page shown. */
const navLabels = (page: Page) => page.locator('header nav a').allInnerTexts();

describe.skipIf(!HAS_CHROMIUM)(
  `console staff pages in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('an operator adds, helps and disables a support user', (dialect) => {
      let harness: ConsoleHarness | undefined;
      let other: Awaited<ReturnType<typeof launchBrowser>> | undefined;

      beforeAll(async () => {
        harness = await startConsoleHarness(dialect);
        // The new staff user is another person: a browser of their own, without the operator's cookies.
        other = await launchBrowser();
      }, 180_000);

      afterAll(async () => {
        await other?.close();
        await harness?.close();
      });

      it('add → link copied once → password → support’s console → fresh link → disable → the log', async () => {
        const h = harness!;
        const base = `${h.adminBase}/console`;
        await h.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.adminBase });
        // Signed in on a page of its own (it lands on the dashboard); this flow's pages on another.
        const start = await h.newPage();
        await h.signIn(start.page, h.operator);
        await start.page.close();
        const { page, problems } = await h.newPage();

        await page.goto(`${base}/staff`);
        await h.look(page, 'staff-list');
        expect(await page.locator('#staff-users tbody tr').count()).toBe(2);

        await page.getByRole('link', { name: 'Adicionar um usuário da equipe' }).click();
        await page.waitForURL(`${base}/staff/new`);
        await expect(page.locator('main').innerText()).resolves.toContain(
          'pode tudo o que o papel suporte pode e também',
        );
        await h.look(page, 'staff-new');

        // A name over the limit is refused, named, and kept as typed (no maxlength cuts it).
        await page.getByLabel('Endereço de e-mail').fill('bia@operator.example');
        await page.getByLabel('Nome', { exact: true }).fill('B'.repeat(201));
        await page.getByRole('button', { name: 'Adicionar e mostrar o link' }).click();
        await expect(page.locator('#error-summary').innerText()).resolves.toContain('Nome');
        expect(await page.getByLabel('Nome', { exact: true }).inputValue()).toHaveLength(201);
        await h.look(page, 'staff-new-errors');

        await page.getByLabel('Nome', { exact: true }).fill('Bia Souza');
        await page.getByLabel('Suporte', { exact: true }).check();
        await page.getByRole('button', { name: 'Adicionar e mostrar o link' }).click();
        await expect(page.locator('h1').innerText()).resolves.toContain('Bia Souza');
        const link = await page.locator('#new-key').inputValue();
        expect(link).toMatch(new RegExp(`^${base}/set-password\\?token=[A-Za-z0-9_-]{43}$`));
        await page.getByRole('button', { name: 'Copiar link' }).click();
        // The status is written once the clipboard's promise settles: waited for, not read at once.
        await page.locator('#copy-status', { hasText: 'Link copiado' }).waitFor();
        await expect(page.locator('#copy-status').innerText()).resolves.toBe('Link copiado');
        const copied: unknown = await page.evaluate('navigator.clipboard.readText()');
        expect(copied).toBe(link);
        await h.look(page, 'staff-created');

        // Shown once: the list does not show it again.
        await page.goto(`${base}/staff`);
        expect(await page.content()).not.toContain(new URL(link).searchParams.get('token'));

        // The new person, in their own browser: the link, a password, the sign-in.
        const theirs = await other!.context.newPage();
        const theirProblems = pageProblems(theirs);
        await theirs.goto(link);
        await h.look(theirs, 'staff-set-password');
        await theirs.getByLabel('Nova senha', { exact: true }).fill('a support passphrase');
        await theirs.getByLabel('Repita a nova senha', { exact: true }).fill('a support passphrase');
        await theirs.getByRole('button', { name: 'Salvar senha' }).click();
        await theirs.waitForURL(`${base}/sign-in`);
        await theirs.getByLabel('E-mail').fill('bia@operator.example');
        await theirs.getByLabel('Senha', { exact: true }).fill('a support passphrase');
        await theirs.getByRole('button', { name: 'Entrar' }).click();
        await theirs.waitForURL(`${base}/find`);
        const theirNav = await navLabels(theirs);
        expect(theirNav).toContain('Buscar');
        for (const operatorOnly of [
          'Painel de controle',
          'Catálogo',
          'Manutenção',
          'Equipe',
          'Registro de ações',
        ]) {
          expect(theirNav).not.toContain(operatorOnly);
        }
        await h.look(theirs, 'staff-support-start');
        await theirs.goto(`${base}/staff`);
        await expect(theirs.locator('h1').innerText()).resolves.toBe('Não disponível para o seu papel');

        // A forgotten password: a fresh link, shown once; the first one was used already.
        await page.goto(`${base}/staff`);
        await expect(page.locator('tr[data-user="bia@operator.example"]').innerText()).resolves.toContain(
          'Ativo',
        );
        await page.getByRole('link', { name: 'Novo link de senha para Bia Souza' }).click();
        await h.look(page, 'staff-link');
        await page.getByRole('button', { name: 'Gerar um novo link' }).click();
        const fresh = await page.locator('#new-key').inputValue();
        expect(fresh).not.toBe(link);
        await h.look(page, 'staff-link-issued');

        // Not oneself.
        const olga = (await h.t.services.staffUsers.list()).find((u) => u.email === h.operator.email)!;
        const self = await page.goto(`${base}/staff/${olga.id}/disable`);
        expect(self?.status()).toBe(422);
        await h.look(page, 'staff-not-yourself');

        // Disable the support user: their next page is the sign-in page.
        await page.goto(`${base}/staff`);
        await page.getByRole('link', { name: 'Desativar Bia Souza' }).click();
        await h.look(page, 'staff-disable');
        await page.getByRole('button', { name: 'Desativar Bia Souza' }).click();
        await page.waitForURL(`${base}/staff`);
        await expect(page.locator('.flash').innerText()).resolves.toContain('Bia Souza foi desativado(a)');
        await expect(page.locator('tr[data-user="bia@operator.example"]').innerText()).resolves.toContain(
          'Desativado',
        );
        await h.look(page, 'staff-list-after');
        await theirs.goto(`${base}/find`);
        expect(new URL(theirs.url()).pathname).toBe('/console/sign-in');

        // The action log: each change, by the operator's name, through the console.
        await page.getByRole('link', { name: 'Registro de ações' }).click();
        await page.waitForURL(`${base}/activity`);
        const rows = await page.locator('#actions tbody tr').allInnerTexts();
        // The staff changes, by the operator through the console (her sign-in is there too, and the
        // service's creation of her, which names her in its details).
        const STAFF_CHANGE = /createStaffUser|issueStaffUserPasswordLink|disableStaffUser/;
        const changes = rows.filter(
          (row) => STAFF_CHANGE.test(row) && row.includes(h.operator.name) && row.includes('Console'),
        );
        expect(changes.map((row) => STAFF_CHANGE.exec(row)?.[0])).toEqual([
          'disableStaffUser',
          'issueStaffUserPasswordLink',
          'createStaffUser',
        ]);
        await h.look(page, 'staff-activity');
        await page.getByLabel('Usuário da equipe').selectOption({ label: h.operator.name });
        await page.getByRole('button', { name: 'Mostrar' }).click();
        await page.waitForURL(`${base}/activity?action=&user=${olga.id}`);
        const hers = await page.locator('#actions tbody tr').allInnerTexts();
        expect(hers.filter((row) => STAFF_CHANGE.test(row))).toHaveLength(3);
        for (const row of hers) expect(row).toContain(h.operator.name);
        await h.look(page, 'staff-activity-filtered');

        expect(problems).toEqual([]);
        expect(theirProblems).toEqual([]);
      }, 240_000);
    });
  },
);
