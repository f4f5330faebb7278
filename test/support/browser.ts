import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

// The web faces' browser tests drive Debian's Chromium through playwright-core (no browser download:
// the machine has no internet), with the flags a container needs, and check each page with axe-core.

const CHROMIUM_PATH = '/usr/bin/chromium';

/** Whether the browser tests can run here; they are skipped, saying why, where they cannot. */
export const HAS_CHROMIUM = existsSync(CHROMIUM_PATH);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A headless Chromium with a profile of its own, and how to close both. */
export async function launchBrowser(
  options: {
    /** Accept a certificate the browser cannot verify (a self-signed one made for the test). */
    ignoreHTTPSErrors?: boolean;
  } = {},
): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = await mkdtemp(join(tmpdir(), 'browser-test-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** The `name` attribute of every element matching `selector`, in document order. */
export async function attributes(page: Page, selector: string, name: string): Promise<(string | null)[]> {
  const values: unknown = await page
    .locator(selector)
    .evaluateAll(
      (cells, attribute) =>
        (cells as { getAttribute(n: string): string | null }[]).map((c) => c.getAttribute(attribute)),
      name,
    );
  return values as (string | null)[];
}

/** Serious or critical accessibility violations of the page (WCAG 2 A and AA rules). */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            o: unknown,
          ): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa'] } });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.targets.join(', ')}`);
}

/** Errors the page's scripts threw or logged (the browser's own failed loads aside), collected as they come. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
  });
  return problems;
}
