import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_TOKEN, describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The console's frame in a browser (issue 14): the first operator from ADMIN_TOKEN on a fresh install,
// the dashboard with the fleet's traffic and health, the language switch, the search, and support's
// narrower console (no operator link, 403 on an operator page typed in the address bar).

describeEachDialect(
  `back-office console in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  (dialect) => {
    let h: ConsoleHarness;

    beforeAll(async () => {
      if (!HAS_CHROMIUM) return;
      h = await startConsoleHarness(dialect, { firstStart: true });
    }, 90_000);
    afterAll(async () => {
      if (HAS_CHROMIUM) await h.close();
    });

    it.skipIf(!HAS_CHROMIUM)(
      'first start → dashboard → language → search; support sees support’s console only',
      async () => {
        const { page, problems } = await h.newPage();

        // A fresh install: nobody can sign in, so the console asks for ADMIN_TOKEN and makes the first operator.
        await page.goto(`${h.adminBase}/console/`);
        await page.waitForURL(`${h.adminBase}/console/sign-in`);
        await h.look(page, 'first-start');
        await page.getByLabel('Token de administração (ADMIN_TOKEN)').fill('not the token');
        await page.getByLabel('E-mail').fill(h.operator.email);
        await page.getByLabel('Seu nome').fill(h.operator.name);
        await page.getByLabel('Nova senha').fill(h.operator.password);
        await page.getByRole('button', { name: 'Criar o operador e entrar' }).click();
        await expect(page.locator('#error-token').innerText()).resolves.toContain('não é o token');
        expect(await h.t.services.staffUsers.count()).toBe(0);
        await page.getByLabel('Token de administração (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
        await page.getByLabel('Nova senha').fill(h.operator.password);
        await page.getByRole('button', { name: 'Criar o operador e entrar' }).click();
        await page.waitForURL(`${h.adminBase}/console/dashboard`);

        // Traffic of both APIs, written by the flush the process runs every 15 s (run here at once).
        for (let i = 0; i < 3; i += 1) {
          await fetch(`${h.publicBase}/v1/api-external-system/help-desk-ticket-options`, {
            headers: { authorization: `Bearer ${h.demoSystemKey}` },
          });
        }
        await fetch(`${h.publicBase}/v1/api-public/places`);
        await h.t.services.traffic.flush();
        await page.reload();
        await expect(
          page.locator('tr[data-api="helpdesk"] [data-requests]').getAttribute('data-requests'),
        ).resolves.toBe('3');
        await expect(
          page.locator('tr[data-api="helpdesk"] [data-refused]').getAttribute('data-refused'),
        ).resolves.toBe('0');
        await expect(
          page.locator('tr[data-api="pos"] [data-refused]').getAttribute('data-refused'),
        ).resolves.toBe('1');
        await expect(page.locator('[data-health="database"]').innerText()).resolves.toContain('Respondendo');
        await h.look(page, 'dashboard');

        // English, and back where it was.
        await page.getByRole('button', { name: /English/ }).click();
        await page.waitForURL(`${h.adminBase}/console/dashboard`);
        await expect(page.locator('h1').innerText()).resolves.toBe('Dashboard');
        await h.look(page, 'dashboard-en');

        await page.getByRole('link', { name: 'Find', exact: true }).click();
        await page.getByLabel('Identifier or name').fill('demo');
        await page.getByRole('button', { name: 'Find', exact: true }).click();
        await expect(page.locator('main').innerText()).resolves.toContain('demo');
        await h.look(page, 'find');

        // Support: made by the operator's service, signed in through the page; no operator pages.
        const { link } = await h.t.services.staffUsers.create(
          { email: 'support@operator.example', name: 'Sérgio Suporte', role: 'support' },
          { role: 'system', channel: 'service', ip: null },
        );
        await page.getByRole('button', { name: 'Sign out' }).click();
        // The sign-out's answer first: a navigation started while its form's is under way cuts it.
        await page.waitForURL(/\/console\/sign-in$/);
        await page.goto(link.url);
        await page.getByLabel('New password', { exact: true }).fill('support passphrase for the console');
        await page
          .getByLabel('Repeat the new password', { exact: true })
          .fill('support passphrase for the console');
        await page.getByRole('button', { name: 'Save password' }).click();
        await h.signIn(page, {
          email: 'support@operator.example',
          name: 'Sérgio Suporte',
          password: 'support passphrase for the console',
        });
        expect(new URL(page.url()).pathname).toBe('/console/find');
        const nav = await page.locator('header nav').innerText();
        expect(nav).not.toContain('Dashboard');
        expect(nav).not.toContain('Catalog');
        const forbidden = await page.goto(`${h.adminBase}/console/dashboard`);
        expect(forbidden?.status()).toBe(403);
        await h.look(page, 'forbidden');
        expect(problems).toEqual([]);
      },
      240_000,
    );
  },
);
