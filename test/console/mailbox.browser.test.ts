import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT } from '../../src/pos/demo.js';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The development mailbox in a real browser (docs/getting-started.md, Reading e-mail locally): no
// SMTP_URL, the operator invites a merchant user from the console, opens the Mailbox from the
// navigation, reads the invitation, follows its link to the merchant panel's set-password page on the
// public listener, sets the password and signs in to the panel. The HTML version opens on its own,
// sandboxed: no script, and not the console's origin (its cookies are out of reach). Every page is
// looked at (pictures at both widths, axe-core).

const PASSWORD = 'uma frase longa para o painel';

describe.skipIf(!HAS_CHROMIUM)(
  `console mailbox in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('an invitation finished from the development mailbox', (dialect) => {
      let harness: ConsoleHarness | undefined;

      beforeAll(async () => {
        harness = await startConsoleHarness(dialect);
      }, 180_000);

      afterAll(async () => {
        await harness?.close();
      });

      it('invite → Mailbox → the message → its link → the panel’s password → signed in to the panel', async () => {
        const h = harness!;
        const base = `${h.adminBase}/console`;
        const { page, problems } = await h.newPage();
        await h.signIn(page, h.operator);

        await page.goto(`${base}/mailbox`);
        await expect(page.locator('[role=status]').innerText()).resolves.toContain('Nenhum e-mail enviado');
        await h.look(page, 'mailbox-empty');

        await page.goto(`${base}/accounts/${DEMO_ACCOUNT}/users`);
        await page.getByLabel('E-mail').fill('ana@demo.example');
        await page.getByLabel('Nome', { exact: true }).fill('Ana Lojista');
        await page.getByRole('button', { name: 'Enviar o convite' }).click();
        await page.waitForURL(`${base}/accounts/${DEMO_ACCOUNT}/users`);
        // The sender's poll (the server runs it every two seconds; the harness's app does not start it).
        expect((await h.t.services.mailSender.sendDue()).sent).toBeGreaterThanOrEqual(1);

        await page.getByRole('navigation').getByRole('link', { name: 'Caixa de saída' }).click();
        await page.waitForURL(`${base}/mailbox`);
        const row = page.locator('#mailbox tbody tr', { hasText: 'ana@demo.example' });
        await expect(row.count()).resolves.toBe(1);
        await h.look(page, 'mailbox-list');

        await row.getByRole('link').click();
        await page.waitForURL(new RegExp(`${base}/mailbox/[0-9a-f-]{36}$`));
        const link = page.locator('#mail-links a');
        const href = await link.getAttribute('href');
        expect(href).toMatch(new RegExp(`^${h.publicBase}/panel/set-password\\?token=[A-Za-z0-9_-]{43}$`));
        // The text version names it too, as a link.
        await expect(page.locator('#mail-text a').first().getAttribute('href')).resolves.toBe(href);
        await h.look(page, 'mailbox-message');
        const messageUrl = page.url();

        // The HTML version, alone and sandboxed: no script runs, its origin is not the console's.
        await page.getByRole('link', { name: /Abrir a versão em HTML/ }).click();
        await page.waitForURL(`${messageUrl}/html`);
        await expect(page.locator('a').first().getAttribute('href')).resolves.toBe(href);
        const origin: unknown = await page.evaluate('window.origin');
        expect(origin).toBe('null');
        await page.screenshot({ path: `test-results/console/${dialect.name}-mailbox-html-desktop.png` });

        // The link, followed as the merchant would: the panel on the public listener.
        await page.goto(messageUrl);
        await link.click();
        await page.waitForURL(href!);
        await page.getByLabel('Nova senha', { exact: true }).fill(PASSWORD);
        await page.getByLabel('Repita a nova senha').fill(PASSWORD);
        await page.getByRole('button', { name: 'Salvar senha' }).click();
        await page.waitForURL(`${h.publicBase}/panel/sign-in`);
        await page.locator('#email').fill('ana@demo.example');
        await page.locator('#password').fill(PASSWORD);
        await page.locator('form[action="/panel/sign-in"] button[type=submit]').click();
        await page.waitForURL(
          (url) => url.pathname.startsWith('/panel/') && !url.pathname.endsWith('/sign-in'),
        );
        await expect(page.locator('header').innerText()).resolves.toContain('Ana Lojista');
        expect(problems).toEqual([]);
        await page.close();
      }, 240_000);
    });
  },
);
