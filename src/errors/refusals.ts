import { Problem } from './problem.js';

// The back office's refusals of what it is sent (docs/admin-rules.md, intro: bad input says what to fix and
// changes nothing), shared by every service it calls.

/** 404 `not_found`: `what` names the thing, as `account "acme"`. */
export function notFound(what: string): Problem {
  return Problem.of('not_found', { detail: `There is no ${what}.` });
}

/** 422 `validation_failed` naming the field to fix (`places.2`) and why. */
export function invalidInput(param: string, detail: string): Problem {
  return Problem.of('validation_failed', { detail: `${param}: ${detail}`, param });
}

/** 409 `conflict`: the request is valid but the stored data does not allow it now. */
export function conflict(detail: string): Problem {
  return Problem.of('conflict', { detail });
}
