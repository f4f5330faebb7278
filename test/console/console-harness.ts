import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { seedHelpdeskDemo } from '../../src/helpdesk/demo.js';
import { seedPosDemo } from '../../src/pos/demo.js';
import { ManualClock, testApp, type Dialect, type TestApp } from '../helper.js';
import { launchBrowser, pageProblems, seriousViolations } from '../support/browser.js';
import { staffWithPassword } from './console-agent.js';
import { freePort } from '../support/server-process.js';

// The back-office console in a real browser (issue 14, What must show): both listeners of a real app on
// ports of their own over the dialect's database (and Redis on PostgreSQL), the demo's systems, catalog
// and accounts, an operator and a support user with passwords, and Chromium. `look` takes the page's
// pictures at desktop and phone widths into test-results/console/ (not committed) and holds it to
// axe-core; `signIn` goes through the sign-in page as a person does.

const shots = join('test-results', 'console');

/** A staff user the harness made, with the password to sign in with. */
interface HarnessUser {
  email: string;
  name: string;
  password: string;
}

export interface ConsoleHarness {
  t: TestApp;
  /** `http://127.0.0.1:<admin port>`: the console is at `${adminBase}/console/`. */
  adminBase: string;
  /** `http://127.0.0.1:<public port>`: the APIs. */
  publicBase: string;
  /** The demo system's first key (the partner's key, `Authorization: Bearer …` on the ticket API). */
  demoSystemKey: string;
  operator: HarnessUser;
  /** Support's user (with `firstStart`, nobody yet: the operator's details stand in). */
  support: HarnessUser;
  context: BrowserContext;
  /** A new page (its script errors collected into `problems`). */
  newPage(): Promise<{ page: Page; problems: string[] }>;
  /** Signs in through the sign-in page; ends on the user's start page. */
  signIn(page: Page, who: HarnessUser): Promise<void>;
  /** Pictures at desktop and phone widths, and no serious axe-core finding. */
  look(page: Page, name: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the app on real ports over the dialect, seeds it, and opens Chromium. */
export async function startConsoleHarness(
  dialect: Dialect,
  options: {
    config?: Record<string, string>;
    /** Leave the operator to the first-start page (`operator` then holds what to type there). */
    firstStart?: boolean;
  } = {},
): Promise<ConsoleHarness> {
  const [publicPort, adminPort] = [await freePort(), await freePort()];
  const publicBase = `http://127.0.0.1:${publicPort}`;
  const adminBase = `http://127.0.0.1:${adminPort}`;
  const opened = await dialect.open();
  const t = testApp({
    db: opened.db,
    rateLimits: await dialect.openStore(),
    // Session cookies expire by the real clock; the service's clock starts at the same instant.
    clock: new ManualClock(Date.now()),
    config: {
      PUBLIC_BASE_URL: publicBase,
      ADMIN_BASE_URL: adminBase,
      ...options.config,
    },
  });
  const demoSystemKey = await seedHelpdeskDemo(t.services);
  await seedPosDemo(t.services, { receipts: 500 });
  const operator =
    options.firstStart === true
      ? {
          email: 'operator@operator.example',
          name: 'Olga Operadora',
          password: 'operator passphrase for the console',
        }
      : await staffWithPassword(t, 'operator');
  const support = options.firstStart === true ? operator : await staffWithPassword(t, 'support');
  await t.app.public.listen({ port: publicPort, host: '127.0.0.1' });
  await t.app.admin.listen({ port: adminPort, host: '127.0.0.1' });
  await mkdir(shots, { recursive: true });
  const browser = await launchBrowser();

  return {
    t,
    adminBase,
    publicBase,
    demoSystemKey,
    operator,
    support,
    context: browser.context,
    async newPage() {
      const page = await browser.context.newPage();
      return { page, problems: pageProblems(page) };
    },
    async signIn(page, who) {
      await page.goto(`${adminBase}/console/sign-in`);
      await page.locator('#email').fill(who.email);
      await page.locator('#password').fill(who.password);
      await page.locator('form[action="/console/sign-in"] button[type=submit]').click();
      await page.waitForURL((url) => !url.pathname.endsWith('/sign-in'));
    },
    async look(page, name) {
      for (const [width, height, label] of [
        [1280, 900, 'desktop'],
        [390, 844, 'phone'],
      ] as const) {
        await page.setViewportSize({ width, height });
        // Chart.js follows its container's size on the next frames: let it before the picture.
        if ((await page.locator('canvas').count()) > 0) await page.waitForTimeout(300);
        await page.screenshot({ path: join(shots, `${dialect.name}-${name}-${label}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      expect(await seriousViolations(page), `${name}: axe-core`).toEqual([]);
    },
    async close() {
      await browser.close();
      await t.app.close();
      await opened.drop();
    },
  };
}
