import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { expectApiProblem } from '../expect-http.js';

// The pair table of a public API's order of gates (so that the order is pinned by one test per pair of
// gates that can both fire), shared by the ticket and POS suites. Each API writes one entry per gate, in
// its document's order, and lists the pairs that cannot both fire; the pairs to test are derived from the
// exported gate array, and the gate the document puts first must answer.

/** One gate's entry: how to make a valid request trip this gate alone, and what the gate answers. */
export interface GateEntry<S> {
  /** The route this gate needs to fire on; any route when absent. */
  route?: string;
  /** Changes a valid scenario so that this gate, and only it, refuses (or answers early). */
  trip(scenario: S): void;
  status: number;
  /** The problem's `code`; null for a problem without code; absent when the answer is not a problem. */
  code?: string | null;
  /** What tells this answer from another gate's of the same status and code (a header, the detail). */
  also?: (response: LightMyRequestResponse) => void;
}

/** A gate's answer: its status, its problem code, and what else tells it apart. */
export type GateAnswer = Pick<GateEntry<unknown>, 'status' | 'code' | 'also'>;

/** Two gates, the earlier first, that cannot both fire on one request, and why. */
export interface Exclusion {
  pair: readonly [string, string];
  reason: string;
}

/** A pair of gates that can both fire: `earlier` (in the document's order) must answer. */
interface GatePair<S> {
  earlier: string;
  later: string;
  /** The route both need, if either needs one. */
  route: string | undefined;
  /** What stops this pair from being tested, when the table is incomplete or contradictory. */
  unfit?: string;
  first: GateEntry<S>;
  second: GateEntry<S>;
}

/** The answer of a gate, as its entry describes it. */
export function describeAnswer(entry: GateAnswer): string {
  if (entry.code === undefined) return String(entry.status);
  return `${entry.status} ${entry.code ?? 'without code'}`;
}

/** Expects the response to be the gate's answer. */
export function expectGateAnswer(response: LightMyRequestResponse, entry: GateAnswer): void {
  if (entry.code === undefined) expect(response.statusCode, response.body).toBe(entry.status);
  else expectApiProblem(response, entry.status, entry.code);
  entry.also?.(response);
}

/**
 * Every pair of gates of the array (by name) that is not excluded, the earlier gate being the one the
 * table (the document's order) puts first. A pair whose gates lack an entry, or need different routes
 * without being excluded, comes back `unfit`, so that its test fails and says why.
 */
function gatePairs<S>(
  gateNames: readonly string[],
  table: Readonly<Record<string, GateEntry<S>>>,
  exclusions: readonly Exclusion[],
): GatePair<S>[] {
  const rank = new Map(Object.keys(table).map((name, index) => [name, index]));
  const excluded = new Set(exclusions.map(({ pair }) => pairKey(pair[0], pair[1])));
  const pairs: GatePair<S>[] = [];
  for (const [i, a] of gateNames.entries()) {
    for (const b of gateNames.slice(i + 1)) {
      if (excluded.has(pairKey(a, b))) continue;
      const [earlier, later] = (rank.get(b) ?? Infinity) < (rank.get(a) ?? Infinity) ? [b, a] : [a, b];
      const first = table[earlier];
      const second = table[later];
      if (first === undefined || second === undefined) {
        const missing = first === undefined ? earlier : later;
        pairs.push({ earlier, later, route: undefined, unfit: `no entry for gate ${missing}`, ...stub<S>() });
        continue;
      }
      const clash = first.route !== undefined && second.route !== undefined && first.route !== second.route;
      pairs.push({
        earlier,
        later,
        route: first.route ?? second.route,
        ...(clash
          ? { unfit: `${earlier} and ${later} need different routes: list them as an exclusion` }
          : {}),
        first,
        second,
      });
    }
  }
  return pairs;
}

/** What is wrong with an exclusion list: unknown gates, a pair out of the table's order, a repeat. */
function exclusionProblems(
  table: Readonly<Record<string, GateEntry<unknown>>>,
  exclusions: readonly Exclusion[],
): string[] {
  const names = Object.keys(table);
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const { pair } of exclusions) {
    const [a, b] = pair;
    if (!names.includes(a) || !names.includes(b)) problems.push(`${a} × ${b}: not both in the table`);
    else if (names.indexOf(a) >= names.indexOf(b)) problems.push(`${a} × ${b}: the earlier gate comes first`);
    if (seen.has(pairKey(a, b))) problems.push(`${a} × ${b}: listed twice`);
    seen.add(pairKey(a, b));
  }
  return problems;
}

const pairKey = (a: string, b: string) => [a, b].sort().join(' × ');

function stub<S>(): { first: GateEntry<S>; second: GateEntry<S> } {
  const none: GateEntry<S> = { trip: () => undefined, status: 0 };
  return { first: none, second: none };
}

/** What the shared tests of one API's pair table need. */
export interface GatePairSuite<S> {
  /** The exported gate array's name, for messages (`ticketApiGates`). */
  arrayName: string;
  /** The names of the exported gate array, in its order. */
  gateNames: readonly string[];
  /** One entry per gate, in the document's order. */
  gates: Readonly<Record<string, GateEntry<S> | undefined>>;
  exclusions: readonly Exclusion[];
  /** The document's sections the order comes from, as the test names cite them. */
  cite: string;
  /** A valid request of the route (any when undefined), on freshly seeded data. */
  baseline(route: string | undefined): Promise<S>;
  /** Sends the scenario and returns the answer. */
  run(scenario: S): Promise<LightMyRequestResponse>;
}

/**
 * Declares the tests of a pair table, inside the suite of one dialect: the table follows the array's
 * order, its exclusions are sound, each gate alone gives its answer, and for every pair that can both
 * fire the earlier gate answers.
 */
export function gatePairTests<S>(suite: GatePairSuite<S>): void {
  const { arrayName, gateNames, gates, exclusions, cite } = suite;
  const complete = gates as Readonly<Record<string, GateEntry<S>>>;

  it(`the table has one entry per gate of ${arrayName}, in the same order (${cite})`, () => {
    expect(gateNames).toEqual(Object.keys(gates));
  });

  it(`each exclusion names two gates of the table, the earlier first, once (${cite})`, () => {
    expect(exclusionProblems(complete, exclusions)).toEqual([]);
  });

  for (const name of gateNames) {
    const gate = gates[name];
    it(`${name} alone: ${gate === undefined ? 'no entry' : describeAnswer(gate)} (${cite})`, async () => {
      if (gate === undefined) throw new Error(`${arrayName} has ${name}: give it an entry in the table`);
      const scenario = await suite.baseline(gate.route);
      gate.trip(scenario);
      expectGateAnswer(await suite.run(scenario), gate);
    });
  }

  for (const pair of gatePairs<S>(gateNames, complete, exclusions)) {
    it(`${pair.earlier} before ${pair.later}: ${pair.unfit ?? describeAnswer(pair.first)} (${cite})`, async () => {
      if (pair.unfit !== undefined) throw new Error(pair.unfit);
      const scenario = await suite.baseline(pair.route);
      // The later gate's change first: the earlier one's (the 413's padding, say) then keeps what it set.
      pair.second.trip(scenario);
      pair.first.trip(scenario);
      expectGateAnswer(await suite.run(scenario), pair.first);
    });
  }
}
