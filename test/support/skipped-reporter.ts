import { relative, sep } from 'node:path';
import type { Reporter, TestCase, TestModule, TestSuite } from 'vitest/node';

// `npm test` says which tests it skipped and why, after the summary, so that a run without PostgreSQL or
// Redis is never read as a full pass. The suites that need something absent say so in their name
// (`[postgres: skipped, TEST_DATABASE_URL is not set]`, see test/helper.ts); a test skipped at run time
// gives its reason as `context.skip(note)`. Those reasons are grouped here, with their counts and the
// command that runs what they skipped.

/**
 * The reason a suite name gives, as the suites of this repository write it: after "skipped" opening a
 * bracket or following a colon (`[postgres: skipped, …]`, `name: skipped, …`, `(skipped, …)`,
 * `[skipped: …]`). A test whose name merely uses the word ("blank lines are skipped, CRLF accepted") gives
 * none.
 */
const REASON_IN_NAME = /(?:[:([]\s*)skipped[,:]\s*([^\])]+)/;

/** The variables a reason names as missing (`TEST_DATABASE_URL is not set`), with a value to give them. */
const EXAMPLE_VALUES: Record<string, string> = {
  TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
  TEST_REDIS_URL: 'redis://127.0.0.1:6379',
};

/** The command that runs the tests of `files` (in `projects`) again, with what `reason` says is missing. */
function commandFor(reason: string, projects: ReadonlySet<string>, files: ReadonlySet<string>): string {
  const variables = [...new Set(reason.match(/\bTEST_[A-Z_]+\b/g) ?? [])].map(
    (name) => `${name}=${EXAMPLE_VALUES[name] ?? '…'}`,
  );
  const run =
    files.size <= 3
      ? `npx vitest run ${[...files].sort().join(' ')}`
      : projects.size === 1 && projects.has('slow')
        ? 'npm run test:slow'
        : projects.size === 1 && projects.has('fast')
          ? 'npm run test:fast'
          : 'npm test';
  return [...variables, run].join(' ');
}

/** Why a skipped test was skipped: its note, or the first name on its way up that says so. */
function reasonOf(test: TestCase): { reason: string; from: TestCase | TestSuite } | undefined {
  const result = test.result();
  const note = result.state === 'skipped' ? result.note : undefined;
  if (note !== undefined && note !== '') return { reason: note, from: test };
  let node: TestCase | TestSuite | TestModule = test;
  while (node.type !== 'module') {
    const found = REASON_IN_NAME.exec(node.name)?.[1]?.trim();
    if (found !== undefined) return { reason: found, from: node };
    node = node.parent;
  }
  return undefined;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** The lines the reporter prints for these modules (exported for its own test). */
export function skippedSummary(modules: readonly TestModule[], root: string = process.cwd()): string[] {
  const byReason = new Map<
    string,
    { tests: number; where: Set<string>; projects: Set<string>; files: Set<string> }
  >();
  let unexplained = 0;
  for (const module of modules) {
    for (const test of module.children.allTests('skipped')) {
      const found = reasonOf(test);
      if (found === undefined) {
        unexplained += 1;
        continue;
      }
      const entry = byReason.get(found.reason) ?? {
        tests: 0,
        where: new Set<string>(),
        projects: new Set<string>(),
        files: new Set<string>(),
      };
      entry.tests += 1;
      entry.where.add(`${module.moduleId}\u0000${found.from.fullName}`);
      entry.projects.add(module.project.name);
      entry.files.add(relative(root, module.moduleId).split(sep).join('/'));
      byReason.set(found.reason, entry);
    }
  }
  if (byReason.size === 0 && unexplained === 0) return [];
  const lines = ['Skipped, and why:'];
  const sorted = [...byReason].sort(([, a], [, b]) => b.tests - a.tests);
  for (const [reason, { tests, where, projects, files }] of sorted) {
    lines.push(`  ${plural(tests, 'test')} in ${plural(where.size, 'suite')}: ${reason}`);
    lines.push(`    run them: ${commandFor(reason, projects, files)}`);
  }
  if (unexplained > 0) {
    lines.push(`  ${plural(unexplained, 'test')} skipped by .skip, .todo or a filter (-t, .only)`);
  }
  return lines;
}

export default class SkippedReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const lines = skippedSummary(testModules);
    if (lines.length > 0) process.stdout.write(`\n${lines.join('\n')}\n\n`);
  }
}
