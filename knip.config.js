// @ts-check

// Unused files, exports and dependencies, checked by `npm run lint` (knip). An export nobody imports is
// either dead or a promise nobody keeps: it goes, or it becomes local.

/** @type {import('knip').KnipConfig} */
export default {
  workspaces: {
    '.': {
      // The process, the command line, its build and check scripts, the benches and the tests.
      entry: ['src/cli/main.ts', 'bin/*.js', 'scripts/*.mjs', 'bench/*.ts', 'test/**/*.test.ts'],
      project: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.mjs', 'bin/**/*.js'],
    },
    'packages/client': {
      entry: ['src/index.ts', 'scripts/*.ts'],
      project: ['src/**/*.ts', 'scripts/**/*.ts'],
      // openapi-typescript's output, regenerated whole by `npm run client:generate`.
      ignore: ['src/generated/**'],
    },
  },
  ignoreIssues: {
    // The migrator reads each migration's `up` and `down` through its namespace object (src/db/migrate.ts).
    'src/db/migrations/*.ts': ['exports'],
  },
  // Read as files, not imported: the console's charts, the documentation's renderer, the browser tests'
  // accessibility checker.
  ignoreDependencies: ['chart.js', 'swagger-ui-dist', 'axe-core'],
  // Tools of the machine that a bench and a test run when present, not packages.
  ignoreBinaries: ['prlimit', 'pg_dump'],
};
