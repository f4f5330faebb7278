import type { TestModule } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { skippedSummary } from './skipped-reporter.js';

// The summary `npm test` prints of what it skipped (test/support/skipped-reporter.ts): each reason once,
// with its counts and the command that runs those tests; a test's own name is never taken for a reason.

interface FakeSuite {
  name: string;
  suites?: FakeSuite[];
  /** Test names; a `[name, note]` pair is a test skipped at run time with `context.skip(note)`. */
  tests?: (string | [string, string])[];
}

/** A module of vitest's reporter API holding these suites, every test skipped (only what the summary reads). */
function moduleOf(file: string, project: string, suites: FakeSuite[]): TestModule {
  const module = { type: 'module', moduleId: `/repo/${file}`, project: { name: project } } as Record<
    string,
    unknown
  >;
  const tests: unknown[] = [];
  const add = (suite: FakeSuite, parent: Record<string, unknown>, path: string[]) => {
    const node = { type: 'suite', name: suite.name, fullName: [...path, suite.name].join(' > '), parent };
    for (const test of suite.tests ?? []) {
      const [name, note] = typeof test === 'string' ? [test, undefined] : test;
      tests.push({
        type: 'test',
        name,
        fullName: [...path, suite.name, name].join(' > '),
        parent: node,
        result: () => ({ state: 'skipped', note }),
      });
    }
    for (const child of suite.suites ?? []) add(child, node, [...path, suite.name]);
  };
  for (const suite of suites) add(suite, module, []);
  module.children = { allTests: (state: string) => (state === 'skipped' ? tests : []) };
  return module as unknown as TestModule;
}

describe('the skipped tests summary', () => {
  it('groups by reason, names the command that runs them, and never reads a test name as a reason', () => {
    const modules = [
      moduleOf('test/admin/pos-data-admin.happy.test.ts', 'fast', [
        {
          name: 'POS admin [postgres: skipped, TEST_DATABASE_URL is not set]',
          suites: [{ name: 'receipts', tests: ['blank lines are skipped, CRLF accepted', 'a second'] }],
        },
      ]),
      moduleOf('test/pos/x.test.ts', 'fast', [
        { name: 'x [postgres: skipped, TEST_DATABASE_URL is not set]', tests: ['one'] },
      ]),
      moduleOf('test/fleet/multi-process.test.ts', 'slow', [
        { name: 'fleet: skipped, TEST_DATABASE_URL and TEST_REDIS_URL must be set', tests: ['a', 'b'] },
      ]),
      moduleOf('test/runtime-check.slow.test.ts', 'slow', [
        { name: 'entries', tests: [['real Node', '/usr/bin/node is v22.1.0']] },
      ]),
      // A test skipped by .skip under a suite whose own name uses the word: no reason, counted apart.
      moduleOf('test/b.test.ts', 'fast', [{ name: 'rows are skipped: when empty', tests: ['c'] }]),
    ];
    expect(skippedSummary(modules, '/repo')).toEqual([
      'Skipped, and why:',
      '  3 tests in 2 suites: TEST_DATABASE_URL is not set',
      '    run them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx vitest run test/admin/pos-data-admin.happy.test.ts test/pos/x.test.ts',
      '  2 tests in 1 suite: TEST_DATABASE_URL and TEST_REDIS_URL must be set',
      '    run them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test TEST_REDIS_URL=redis://127.0.0.1:6379 npx vitest run test/fleet/multi-process.test.ts',
      '  1 test in 1 suite: /usr/bin/node is v22.1.0',
      '    run them: npx vitest run test/runtime-check.slow.test.ts',
      '  1 test skipped by .skip, .todo or a filter (-t, .only)',
    ]);
  });

  it('many files: the tier that holds them (npm run test:slow, test:fast), or npm test for both', () => {
    const files = (project: string, count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) =>
        moduleOf(`test/${prefix}${index}.test.ts`, project, [
          { name: `s [postgres: skipped, TEST_DATABASE_URL is not set]`, tests: ['t'] },
        ]),
      );
    const command = (modules: TestModule[]) => skippedSummary(modules, '/repo')[2];
    expect(command(files('slow', 4, 'slow'))).toBe(
      '    run them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:slow',
    );
    expect(command(files('fast', 4, 'fast'))).toBe(
      '    run them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run test:fast',
    );
    expect(command([...files('fast', 2, 'f'), ...files('slow', 2, 's')])).toBe(
      '    run them: TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm test',
    );
    expect(skippedSummary([], '/repo')).toEqual([]);
  });
});
