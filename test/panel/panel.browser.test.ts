import { SERVICE_ACTOR } from '../../src/audit/actor.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPosDemo } from '../../src/pos/demo.js';
import { keyOutcomeValue } from '../../src/pos/keys/merchant-key-problem.js';
import { ManualClock, describeEachDialect, testApp, type TestApp } from '../helper.js';
import { attributes, HAS_CHROMIUM, launchBrowser, seriousViolations } from '../support/browser.js';
import { freePort } from '../support/server-process.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';

// The merchant panel in a real browser (issue 13, What must show): invitation received by a real SMTP
// server started here (through the outbox and its sender) → password set → sign in
// → create a key → the key answers 200 on the POS API → pause (401 paused) → rotate (Deprecation on the
// old key) → revoke (401 revoked); a report whose every figure equals the API's answer; axe-core on every
// page; screenshots at phone and desktop widths into test-results/panel/ (not committed).

const shots = join('test-results', 'panel');

describe.skipIf(!HAS_CHROMIUM)(
  `merchant panel in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('the issue’s flow', (dialect) => {
      let t: TestApp | undefined;
      let sink: SmtpSink | undefined;
      let drop: (() => Promise<void>) | undefined;
      let context: BrowserContext | undefined;
      let closeBrowser: (() => Promise<void>) | undefined;
      let base = '';
      const seen: string[] = [];

      beforeAll(async () => {
        const port = await freePort();
        base = `http://127.0.0.1:${port}`;
        sink = await startSmtpSink();
        const opened = await dialect.open();
        drop = () => opened.drop();
        t = testApp({
          db: opened.db,
          rateLimits: await dialect.openStore(),
          // Session cookies expire by the real clock; the service's clock starts at the same instant.
          clock: new ManualClock(Date.now()),
          config: { PUBLIC_BASE_URL: base, SMTP_URL: sink.url },
        });
        await seedPosDemo(t.services, { receipts: 3000 });
        await t.app.public.listen({ port, host: '127.0.0.1' });
        await mkdir(shots, { recursive: true });
        ({ context, close: closeBrowser } = await launchBrowser());
      }, 60_000);

      afterAll(async () => {
        await closeBrowser?.();
        await t?.services.mailSender.stop();
        await t?.app.close();
        await drop?.();
        await sink?.stop();
      });

      /** Screenshots at desktop and phone width, and axe-core's serious findings, of the page shown. */
      async function look(page: Page, name: string): Promise<void> {
        for (const [width, height, label] of [
          [1280, 900, 'desktop'],
          [390, 844, 'phone'],
        ] as const) {
          await page.setViewportSize({ width, height });
          // Chart.js follows its container's size on the next frames: let it before the picture.
          if ((await page.locator('canvas').count()) > 0) await page.waitForTimeout(300);
          await page.screenshot({
            path: join(shots, `${dialect.name}-${name}-${label}.png`),
            fullPage: true,
          });
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        expect(await seriousViolations(page), `${name}: axe-core`).toEqual([]);
        seen.push(name);
      }

      const api = (key: string, path: string) =>
        fetch(`${base}/v1/api-public${path}`, { headers: { authorization: `Bearer ${key}` } });

      it('invitation → password → sign in → key lifecycle against the real POS API, and a report equal to the API', async () => {
        const page = await context!.newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (m) => {
          // The used link's 410 is intended, and the browser asks for /favicon.ico (404).
          if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
            problems.push(m.text());
        });

        // The operator invites a user; the e-mail carries the one-time link.
        await t!.admin('POST', '/admin/v1/pos/accounts/demo/users', {
          email: 'Ana@Example.com',
          name: 'Ana Lima',
        });
        // The outbox's sender delivers it over SMTP (one poll here, instead of the started sender's timer).
        await t!.services.mailSender.sendDue();
        const received = await sink!.waitFor(1);
        const invitation = received.find(
          (m) => m.recipients.includes('ana@example.com') && m.subject.startsWith('Convite'),
        );
        const link = /https?:\/\/\S+\/panel\/set-password\?token=\S+/.exec(invitation!.text)![0];
        expect(invitation!.html).toContain(`href="${link}"`);
        expect(link.startsWith(`${base}/panel/`)).toBe(true);

        await page.goto(link);
        await look(page, 'set-password');
        await page.getByLabel('Nova senha', { exact: true }).fill('uma frase longa e segura');
        await page.getByLabel('Repita a nova senha', { exact: true }).fill('uma frase longa e segura');
        await page.getByRole('button', { name: 'Salvar senha' }).click();
        await page.waitForURL(`${base}/panel/sign-in`);
        await look(page, 'sign-in');

        // A used link does not work twice.
        await page.goto(link);
        await expect(page.locator('main').innerText()).resolves.toContain('já foi usado');

        await page.goto(`${base}/panel/sign-in`);
        await page.getByLabel('E-mail').fill('ana@example.com');
        await page.getByLabel('Senha', { exact: true }).fill('uma frase longa e segura');
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL(`${base}/panel/keys`);
        await look(page, 'keys-empty');

        // Create a key with both permissions for all places.
        await page.getByRole('link', { name: 'Criar chave' }).click();
        await look(page, 'key-new');
        await page.getByLabel('Nome da chave').fill('ERP da matriz');
        await page.locator('input[value="sale-by-payment-method.view"]').check();
        await page.locator('input[value="event.view"]').check();
        await page.getByRole('button', { name: 'Criar chave' }).click();
        const key = await page.locator('#new-key').inputValue();
        expect(key).toMatch(/^gtpk_[A-Za-z0-9_-]{43}$/);
        await look(page, 'key-created');

        expect((await api(key, '/ping')).status).toBe(200);

        // Pause → 401 paused.
        await page.goto(`${base}/panel/keys`);
        await look(page, 'keys');
        await page.getByRole('link', { name: 'ERP da matriz' }).click();
        await look(page, 'key');
        await page.getByRole('button', { name: 'Pausar' }).click();
        await expect(page.locator('.flash').innerText()).resolves.toContain('pausada');
        const paused = await api(key, '/ping');
        expect(paused.status).toBe(401);
        expect(((await paused.json()) as { reason?: string }).reason).toBe('paused');
        await page.getByRole('button', { name: 'Reativar' }).click();
        // The page the form's answer leads to, before anything else: a reload while that navigation is
        // under way can find the page detached (seen once in CI: "Not attached to an active page").
        await page.locator('.flash', { hasText: 'reativada' }).waitFor();
        expect((await api(key, '/ping')).status).toBe(200);
        // The key's history from the audit trail, with the user who acted; its last use once flushed.
        await t!.services.keyUse.flush({ all: true });
        await page.reload();
        const history = page.locator('#history');
        await expect(history.locator('tr[data-event]').count()).resolves.toBe(3);
        await expect(history.innerText()).resolves.toContain('Ana Lima');
        await expect(page.locator('main').innerText()).resolves.not.toContain('Nunca usada');
        await look(page, 'key-history');

        // Rotate (keeping the old key for the grace period): the old key carries Deprecation.
        await page.getByRole('link', { name: 'Girar chave' }).click();
        await look(page, 'key-rotate');
        await page.getByRole('button', { name: 'Girar chave' }).click();
        const rotated = await page.locator('#new-key').inputValue();
        expect(rotated).not.toBe(key);
        const old = await api(key, '/ping');
        expect(old.status).toBe(200);
        expect(old.headers.get('deprecation')).toBe('true');
        expect((await api(rotated, '/ping')).headers.get('deprecation')).toBeNull();

        // Revoke with a confirmation that names the key → 401 revoked, old and new.
        await page.goto(`${base}/panel/keys`);
        await page.getByRole('link', { name: 'ERP da matriz' }).click();
        await page.getByRole('link', { name: 'Revogar' }).click();
        await look(page, 'key-revoke');
        await page.getByRole('button', { name: 'Revogar “ERP da matriz” para sempre' }).click();
        await page.locator('.flash', { hasText: 'revogada' }).waitFor();
        for (const text of [key, rotated]) {
          const revoked = await api(text, '/ping');
          expect(revoked.status).toBe(401);
          expect(((await revoked.json()) as { reason?: string }).reason).toBe('revoked');
        }

        // A report whose every figure is the API's answer for the same place and period.
        const reader = keyOutcomeValue(
          await t!.services.merchantKeys.create(
            'demo',
            {
              name: 'reader',
              permissions: ['sale-by-payment-method.view'],
              places: 'all',
            },
            SERVICE_ACTOR,
          ),
        ).key;
        const last = new Date(Date.now() - 3 * 3_600_000).toISOString().slice(0, 10);
        const first = new Date(Date.now() - 3 * 3_600_000 - 29 * 86_400_000).toISOString().slice(0, 10);
        const dayAfter = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        await page.goto(`${base}/panel/reports/receipts?place=SP01&from=${first}&to=${last}`);
        await page.locator('canvas').waitFor();
        await look(page, 'report-receipts');
        const answer = (await (
          await api(
            reader,
            `/sales/by-payment-method?place=SP01&from=${first}T00:00:00-03:00&to=${dayAfter}T00:00:00-03:00`,
          )
        ).json()) as {
          total: { count: number; amount: string };
          data: {
            label: string;
            amount: string;
            share: string;
            count: number;
            brands: { brand: string | null; amount: string; share: string }[];
          }[];
        };
        expect(answer.data.length).toBeGreaterThan(3);
        expect(await attributes(page, '[data-amount]', 'data-amount')).toEqual(
          answer.data.map((line) => line.amount),
        );
        expect(await attributes(page, '[data-share]', 'data-share')).toEqual(
          answer.data.map((line) => line.share),
        );
        expect(await page.locator('[data-total-amount]').getAttribute('data-total-amount')).toBe(
          answer.total.amount,
        );
        expect(await page.locator('[data-total-count]').getAttribute('data-total-count')).toBe(
          String(answer.total.count),
        );
        const csv = await (
          await page
            .context()
            .request.get(`${base}/panel/reports/receipts.csv?place=SP01&from=${first}&to=${last}`)
        ).text();
        for (const line of answer.data) expect(csv).toContain(`,${line.amount},${line.share},BRL`);

        // Every brand line (all=1), largest first; the report's own test covers the leading ten and the rest.
        await page.goto(`${base}/panel/reports/brands?place=SP01&from=${first}&to=${last}&all=1`);
        await page.locator('canvas').waitFor();
        await look(page, 'report-brands');
        const cents = (amount: string) => Math.round(Number(amount) * 100);
        expect(await attributes(page, '[data-amount]', 'data-amount')).toEqual(
          answer.data
            .flatMap((line) => line.brands.map((brand) => brand.amount))
            .sort((a, b) => cents(b) - cents(a)),
        );

        // English on request, kept by a cookie.
        await page.getByRole('button', { name: /English/ }).click();
        await page.waitForLoadState('load');
        await page.goto(`${base}/panel/reports/brands?place=SP01&from=${first}&to=${last}`);
        await expect(page.locator('h1').innerText()).resolves.toBe('Summary by brand');
        await page.goto(`${base}/panel/account/password`);
        await look(page, 'password');

        expect(problems).toEqual([]);
      }, 180_000);
    });
  },
);
