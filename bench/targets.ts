import { printTable, type BenchRow } from './ticket-path.js';

// The figures `npm run bench` holds to a target (issues 10 and 23), gathered from each part of the run
// and printed together at its end, each beside its target, so that one table says what is met.

const rows: BenchRow[] = [];

/** Adds figures held to a target to the closing table. */
export function recordTargets(...figures: readonly BenchRow[]): void {
  rows.push(...figures);
}

/** A target's cell: the target, then whether the figure meets it. */
export function targetCell(target: string, met: boolean): string {
  return `${target} ${met ? 'met' : 'NOT met'}`;
}

/** Prints every figure recorded so far beside its target. */
export function printTargets(): void {
  printTable('every target of the run, beside its figure', rows);
}
