import type { Problem } from '../../errors/problem.js';
import { conflict, invalidInput, notFound } from '../../errors/refusals.js';
import type { KeyOutcome, KeyRefusal } from './merchant-key-refusal.js';

// The problem of the error catalogue each refusal of the keys service answers with (openapi/admin.json,
// the merchant key operations): a missing account or key is a 404, bad input a 422 naming its field, a
// state that does not allow the change a 409.

/** The catalogue's problem for a refusal of the keys service, as the admin API answers it. */
export function merchantKeyProblem(refusal: KeyRefusal): Problem {
  switch (refusal.reason) {
    case 'unknown_account':
      return notFound(`account "${refusal.accountId}"`);
    case 'unknown_key':
      return notFound(`key "${refusal.id}" in account "${refusal.accountId}"`);
    case 'unknown_place':
      return invalidInput(
        refusal.param,
        `there is no place "${refusal.place}" in account "${refusal.accountId}"`,
      );
    case 'expiry_not_a_day':
      return invalidInput(refusal.param, 'must be a real calendar date');
    case 'expiry_past':
      return invalidInput(refusal.param, `must not be in the past (today is ${refusal.today} in UTC-03:00)`);
    case 'expiry_too_far':
      return invalidInput(
        refusal.param,
        `must be at most ${refusal.months} months from today (${refusal.last} at the latest)`,
      );
    case 'too_many_active_keys':
      return conflict(
        `Account "${refusal.accountId}" already has ${refusal.max} active keys, the most it may have. ` +
          'Revoke a key (or let one expire) first.',
      );
    case 'revoked':
      return conflict(`Key "${refusal.id}" is revoked for ever; it cannot be ${refusal.action}.`);
    case 'expired':
      return conflict(
        `Key "${refusal.id}" has expired; extend its validity (PATCH expires_on) before rotating it.`,
      );
    case 'rotated_meanwhile':
      return conflict(`Key "${refusal.id}" was rotated meanwhile; list the keys and try again.`);
  }
}

/** The value of a change the caller does not expect refused (seeding, the demo): a refusal is thrown. */
export function keyOutcomeValue<T>(outcome: KeyOutcome<T>): { ok: true } & T {
  if (!outcome.ok) throw merchantKeyProblem(outcome);
  return outcome;
}
