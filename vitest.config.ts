import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The client's README examples import the package by its name: the tests run its sources.
    alias: {
      '@partner-gateway/client': fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: one worker per core keeps PostgreSQL and the suites from starving each other.
    maxWorkers: 2,
    // CI also writes a JSON report, from which .ci/run prints its closing "N passed, N failed" line.
    // The skipped tests, grouped by why (a variable not set, a program absent), after the summary.
    reporters: ['default', './test/support/skipped-reporter.ts', ...(process.env.CI ? ['json'] : [])],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
