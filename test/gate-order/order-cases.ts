import type { LightMyRequestResponse } from 'fastify';
import { it } from 'vitest';
import type { TestApp } from '../helper.js';
import { publicRequest, type PublicRequest } from '../request.js';
import { describeAnswer, expectGateAnswer, type GateAnswer } from './gate-pairs.js';

// The hand-written rows of the gate order: each row is one request (or a few of the same kind) that has
// two problems at once, on a route of one API, and the answer that must win. The pair table of
// gate-pairs.ts derives a pair from each two gates of an API's gate array; these rows keep what a derived
// pair cannot say: other routes and methods, several spellings of one problem, and the finer points of the
// winning answer (which headers it carries, which fields its body leaves out, whether the call is counted).

/** One row of the table. */
export interface OrderCase<S> {
  /** The API, as the suite names it. */
  api: 'ticket' | 'pos';
  /** The route (or routes) the requests go to. */
  route: string;
  /** The problem that answers. */
  wins: string;
  /** The problem sent with it, which must not answer; absent for a row that checks one problem alone. */
  loses?: string;
  answer: GateAnswer;
  /** The document's sections the rule comes from, as the test name cites them. */
  cite: string;
  /** Seeds the app and sets up what the requests need (the maintenance switch, a blocked IP, a spent rate). */
  given(t: TestApp): Promise<S>;
  /** The requests that carry both problems; each must get the answer. */
  send(seeded: S): PublicRequest[];
  /** Sends the requests all at once rather than one after the other. */
  together?: boolean;
  /** What is checked after the answers (the next call of the same key, say). */
  then?(t: TestApp, seeded: S, responses: LightMyRequestResponse[]): Promise<void>;
}

/** A row whose seed has a type of its own, ready to sit in one table with the others. */
export function row<S>(c: OrderCase<S>): OrderCase<unknown> {
  return c;
}

/** The test's name: the route, the two problems, the answer and the sections. */
function caseName(c: OrderCase<unknown>): string {
  const problems = c.loses === undefined ? c.wins : `${c.wins} + ${c.loses}`;
  return `${c.route}: ${problems}: ${describeAnswer(c.answer)} (${c.cite})`;
}

/** Declares one test per row, inside the suite of one dialect, against that suite's app. */
export function orderCaseTests(t: TestApp, cases: readonly OrderCase<unknown>[]): void {
  for (const c of cases) {
    it(caseName(c), async () => {
      const seeded = await c.given(t);
      const responses: LightMyRequestResponse[] = [];
      if (c.together === true)
        responses.push(...(await Promise.all(c.send(seeded).map((r) => publicRequest(t, r)))));
      else for (const request of c.send(seeded)) responses.push(await publicRequest(t, request));
      for (const response of responses) expectGateAnswer(response, c.answer);
      await c.then?.(t, seeded, responses);
    });
  }
}
