import type { Problem } from '../errors/problem.js';
import { invalidInput, notFound } from '../errors/refusals.js';

// Why the partner systems service refuses a change, as a value (openapi/admin.json: putHelpDeskSystem,
// rotateHelpDeskSystemKey, stopPreviousHelpDeskSystemKey): the admin API's route table answers each with
// its problem of the catalogue, the console in its own words.

/** A refusal of the systems service. */
export type SystemRefusal =
  /** There is no system of that identifier. */
  | { ok: false; reason: 'unknown_system'; identifier: string }
  /** The field `param` names a category the catalog does not have. */
  | {
      ok: false;
      reason: 'unknown_category';
      param: 'default_category_id' | 'released_category_ids';
      categoryId: number;
    };

/** What a change of a system yields: its value, or the refusal. */
export type SystemOutcome<T> = ({ ok: true } & T) | SystemRefusal;

/** The catalogue's problem for a refusal of the systems service, as the admin API answers it. */
export function systemProblem(refusal: SystemRefusal): Problem {
  switch (refusal.reason) {
    case 'unknown_system':
      return notFound(`system "${refusal.identifier}"`);
    case 'unknown_category':
      return invalidInput(refusal.param, `there is no category ${refusal.categoryId}`);
  }
}

/** The value of a change the caller does not expect refused (the demo, a page's race): a refusal is thrown. */
export function systemOutcomeValue<T>(outcome: SystemOutcome<T>): { ok: true } & T {
  if (!outcome.ok) throw systemProblem(outcome);
  return outcome;
}
