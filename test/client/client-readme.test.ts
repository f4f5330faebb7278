import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it, vi } from 'vitest';
import { describeEachDialect } from '../helper.js';
import { useLiveApp } from './live-app.js';

// The client's README shows each call with an example: every ```ts block runs as printed against the live
// app, with BASE_URL, HELP_DESK_KEY and POS_KEY in the environment (as the README says), importing the
// package by its name (vitest.config.ts points the name at the package's sources).

const README = resolve('packages/client/README.md');
const EXAMPLES = resolve('test-results/client-readme');

async function examples(): Promise<string[]> {
  const text = await readFile(README, 'utf8');
  return [...text.matchAll(/^```ts\n(.*?)^```$/gms)].map((m) => m[1]!);
}

describeEachDialect('client README', (dialect) => {
  const live = useLiveApp(dialect);

  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('every example of packages/client/README.md runs as printed against the app', async () => {
    const blocks = await examples();
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    vi.stubEnv('BASE_URL', live.baseUrl);
    vi.stubEnv('HELP_DESK_KEY', live.keys.helpDesk);
    vi.stubEnv('POS_KEY', live.keys.pos);
    const printed: unknown[][] = [];
    vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
      printed.push(args);
    });
    await mkdir(EXAMPLES, { recursive: true });
    for (const [index, block] of blocks.entries()) {
      const file = join(EXAMPLES, `${dialect.name}-${index}-${Date.now()}.ts`);
      await writeFile(file, block);
      await import(pathToFileURL(file).href);
    }
    const lines = printed.map((args) => args.map(String).join(' '));
    // The ticket was opened (true: created), the webhook answered 201, the sales were summed, no refusal.
    expect(lines.some((line) => line.startsWith('true I-'))).toBe(true);
    expect(lines.some((line) => line.startsWith('201 '))).toBe(true);
    expect(lines.some((line) => line.startsWith('total '))).toBe(true);
    expect(lines.filter((line) => /^(keep|4\d\d|5\d\d) /.test(line))).toEqual([]);
  });
});
