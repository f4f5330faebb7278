import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDialect } from '../helper.js';
import { HAS_CHROMIUM } from '../support/browser.js';
import { startConsoleHarness, type ConsoleHarness } from './console-harness.js';

// The console's lists hold their layout with the longest values the admin API takes (docs/admin-rules.md):
// a system identifier of 40 characters, account, place, event and key ids of 64 letters or digits without
// a break, e-mail addresses of 254 characters and names of 200. At a desktop (1280 px) and a phone (390
// px) width no page is wider than the window, no table wider than its container, and the action log stays
// a page a person can scroll. Pictures in test-results/console/.

const SYSTEM = `s${'y'.repeat(39)}`;
const ACCOUNT = `A${'c'.repeat(62)}9`;
const PLACE = `P${'l'.repeat(63)}`;
const EVENT = `E${'v'.repeat(63)}`;
/** 254 characters: the most an address may have. */
const longEmail = (local: string) =>
  `${local}${'m'.repeat(254 - local.length - '@x.example'.length)}@x.example`;
const NAME = `Nome ${'muito '.repeat(32)}longo`.slice(0, 200);

/** What the layout check reads of an element. */
interface Box {
  scrollWidth: number;
  clientWidth: number;
  scrollHeight: number;
  querySelector(selector: string): { id: string } | null;
}

/** The widths and heights of what could overflow, read in the page. */
async function layoutOf(page: Page) {
  const measure = (element: unknown) => {
    const box = element as Box;
    return {
      id: box.querySelector('table')?.id ?? '',
      scroll: box.scrollWidth,
      client: box.clientWidth,
      height: box.scrollHeight,
    };
  };
  return {
    root: await page.locator('html').evaluate(measure),
    body: await page.locator('body').evaluate(measure),
    wraps: await page.locator('.table-wrap').evaluateAll((wraps) =>
      wraps.map((wrap) => {
        const box = wrap as unknown as Box;
        return { id: box.querySelector('table')?.id ?? '', scroll: box.scrollWidth, client: box.clientWidth };
      }),
    ),
  };
}

describe.skipIf(!HAS_CHROMIUM)(
  `console lists with the longest ids in a browser${HAS_CHROMIUM ? '' : ': skipped, /usr/bin/chromium is absent'}`,
  () => {
    describeEachDialect('the lists hold their layout', (dialect) => {
      let harness: ConsoleHarness | undefined;

      beforeAll(async () => {
        harness = await startConsoleHarness(dialect);
        const { t } = harness;
        await t.admin('PUT', `/admin/v1/pos/accounts/${ACCOUNT}`, { name: NAME, email: longEmail('conta') });
        await t.admin('PUT', `/admin/v1/pos/accounts/${ACCOUNT}/places/${PLACE}`, {
          name: NAME,
          timezone: 'America/Sao_Paulo',
        });
        await t.admin('PUT', `/admin/v1/pos/accounts/${ACCOUNT}/places/${PLACE}/events/${EVENT}`, {
          name: NAME,
        });
        await t.admin('POST', `/admin/v1/pos/accounts/${ACCOUNT}/keys`, {
          name: NAME,
          permissions: ['event.view'],
          places: [PLACE],
        });
        await t.admin('POST', `/admin/v1/pos/accounts/${ACCOUNT}/users`, {
          email: longEmail('lojista'),
          name: NAME,
        });
        await t.admin('POST', '/admin/v1/staff/users', {
          email: longEmail('equipe'),
          name: NAME,
          role: 'support',
        });
      }, 180_000);

      afterAll(async () => {
        await harness?.close();
      });

      it('a system created in the console is one row of the log; no list is wider than the window', async () => {
        const h = harness!;
        const base = `${h.adminBase}/console`;
        const { page, problems } = await h.newPage();
        await h.signIn(page, h.operator);

        await page.goto(`${base}/systems/new`);
        await page.getByLabel('Identificador').fill(SYSTEM);
        await page.getByLabel('Nome').fill(NAME);
        await page.getByRole('button', { name: 'Criar o sistema e emitir a chave' }).click();
        await expect(page.locator('h1').innerText()).resolves.toContain(SYSTEM);

        // One action a row: the creation with its first key, not a creation and a rotation.
        await page.goto(`${base}/activity?action=rotateHelpDeskSystemKey`);
        await expect(page.locator('main').innerText()).resolves.toContain('Nenhuma ação');
        await page.goto(`${base}/activity`);
        const rows = page.locator('#actions tbody tr');
        const created = rows.filter({ hasText: 'putHelpDeskSystem' });
        await expect(created.count()).resolves.toBe(1);
        await expect(created.innerText()).resolves.toContain('first_key: true');

        const pages = [
          ['activity', `${base}/activity`],
          ['systems', `${base}/systems`],
          ['system', `${base}/systems/${SYSTEM}`],
          ['accounts', `${base}/accounts`],
          ['account', `${base}/accounts/${ACCOUNT}`],
          ['account-users', `${base}/accounts/${ACCOUNT}/users`],
          ['place', `${base}/accounts/${ACCOUNT}/places/${PLACE}`],
          ['staff', `${base}/staff`],
        ] as const;
        for (const [name, url] of pages) {
          await page.goto(url);
          await h.look(page, `long-ids-${name}`);
          for (const [width, height] of [
            [1280, 900],
            [390, 844],
          ] as const) {
            await page.setViewportSize({ width, height });
            const layout = await layoutOf(page);
            const where = `${name} at ${width} px`;
            expect
              .soft(layout.root.scroll, `${where}: the page is no wider than the window`)
              .toBeLessThanOrEqual(layout.root.client);
            expect
              .soft(layout.body.scroll, `${where}: the body holds its content`)
              .toBeLessThanOrEqual(layout.body.client);
            for (const wrap of layout.wraps) {
              expect
                .soft(wrap.scroll, `${where}: table ${wrap.id} fits its container`)
                .toBeLessThanOrEqual(wrap.client);
            }
            if (name === 'activity') {
              // Some 15 rows (the harness's, the fixtures', the system's): a page, not a scroll of 12,000 px.
              expect
                .soft(layout.root.height, `${where}: the log's height`)
                .toBeLessThan(width === 1280 ? 3000 : 9000);
            }
          }
        }
        expect(problems).toEqual([]);
      }, 180_000);
    });
  },
);
