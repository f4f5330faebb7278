import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Two tiers, told apart by where a file is and how it is named (docs/testing.md): the slow tier is what
// starts processes, drives a browser, rehearses production or runs a large fuzz; everything else, units and
// the app driven in-process with `inject`, is the fast tier. `npm test` runs both.
const SLOW = [
  'test/**/*.slow.test.ts',
  'test/**/*.browser.test.ts',
  'test/**/*.fuzz.test.ts',
  'test/fleet/**/*.test.ts',
  'test/ops/**/*.test.ts',
  'test/production/**/*.test.ts',
];

export default defineConfig({
  resolve: {
    // The client's README examples import the package by its name: the tests run its sources.
    alias: {
      '@partner-gateway/client': fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)),
    },
  },
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: one worker per core keeps PostgreSQL and the suites from starving each other.
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints its closing "N passed, N failed" line.
    // The skipped tests, grouped by why (a variable not set, a program absent), after the summary.
    reporters: ['default', './test/support/skipped-reporter.ts', ...(process.env.CI ? ['json'] : [])],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      // The fast tier's files share a worker's module cache (no isolation): most of a file's time was
      // importing the service again (160 s of 235 s on 2 cores); every suite builds its own app and
      // closes it, and none mocks a module.
      {
        extends: true,
        test: { name: 'fast', include: ['test/**/*.test.ts'], exclude: SLOW, isolate: false },
      },
      { extends: true, test: { name: 'slow', include: SLOW } },
    ],
  },
});
