import type { Problem } from '../../errors/problem.js';
import { notFound } from '../../errors/refusals.js';

// Why the point-of-sale data service refuses a change, as a value (openapi/admin.json: putPosPlace,
// putPosEvent, deletePosEvent): the admin API's route table answers each with its problem of the
// catalogue.

/** A refusal of the point-of-sale data service: what the change names does not exist. */
export type PosDataRefusal =
  | { ok: false; reason: 'unknown_account'; accountId: string }
  | { ok: false; reason: 'unknown_place'; accountId: string; placeId: string }
  | { ok: false; reason: 'unknown_event'; accountId: string; placeId: string; id: string };

/** What a change of the point-of-sale data yields: its value, or the refusal. */
export type PosDataOutcome<T> = ({ ok: true } & T) | PosDataRefusal;

/** The catalogue's problem for a refusal of the point-of-sale data service, as the admin API answers it. */
export function posDataProblem(refusal: PosDataRefusal): Problem {
  switch (refusal.reason) {
    case 'unknown_account':
      return notFound(`account "${refusal.accountId}"`);
    case 'unknown_place':
      return notFound(`place "${refusal.placeId}" in account "${refusal.accountId}"`);
    case 'unknown_event':
      return notFound(
        `event "${refusal.id}" in place "${refusal.placeId}" of account "${refusal.accountId}"`,
      );
  }
}

/** The value of a change the caller does not expect refused (the demo, a page's race): a refusal is thrown. */
export function posDataOutcomeValue<T>(outcome: PosDataOutcome<T>): { ok: true } & T {
  if (!outcome.ok) throw posDataProblem(outcome);
  return outcome;
}
