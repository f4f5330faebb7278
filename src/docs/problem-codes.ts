import type { ProblemCode } from '../errors/problem-catalogue.js';
import { DOCS_PAGES } from '../lib/api-registry.js';

// What each problem code of the catalogue means and what to do about it, as the documentation's page of
// problem codes says it (docs/api-conventions.md, Documentation pages). The compiler holds every code of
// the catalogue to an entry here; a test holds `answeredBy` to the codes each OpenAPI document lists.
// Trusted HTML written in this file, never from a request or the database.

/** Who answers a code: one of the public APIs, the back office's API, or any listener before an API. */
export type Answerer = 'helpdesk' | 'pos' | 'admin' | 'edge';

/** One code as the page explains it. */
export interface ProblemCodeText {
  /** Who answers it, in the order the page names them. */
  answeredBy: readonly Answerer[];
  /** When it is answered (HTML). */
  means: string;
  /** What the caller does about it (HTML). */
  todo: string;
}

const RETRY_AFTER =
  'Wait the seconds of <code>Retry-After</code>, then send the same call again, a bounded number of times; do not loop.';
const FIX_AND_RESEND =
  'Fix the request as <code>detail</code> says; sending it unchanged gets the same answer.';

export const PROBLEM_CODE_TEXTS: Record<ProblemCode, ProblemCodeText> = {
  conflicting_credentials: {
    answeredBy: ['helpdesk', 'pos'],
    means:
      'The call carried an authentication or identity header of another of the operator’s systems besides (or instead of) this API’s <code>Authorization</code>. Refused before the key is read; not counted in any limit.',
    todo: 'Send only <code>Authorization: Bearer &lt;key&gt;</code>; remove the other system’s headers from this client.',
  },
  not_found: {
    answeredBy: ['helpdesk', 'pos', 'admin'],
    means:
      'The address is no route (a typo, a trailing slash, another or no version), or, on the point-of-sale API, the <code>place</code> is not reached by the key or the <code>event</code> is not of that place (then <code>param</code> names it).',
    todo: 'Check the path and its version against the reference; with <code>param</code>, check that identifier and the key’s places.',
  },
  method_not_allowed: {
    answeredBy: ['helpdesk', 'pos'],
    means:
      'The route exists but does not take this method. The <code>Allow</code> header lists those it takes.',
    todo: 'Use a method from <code>Allow</code>.',
  },
  rate_limited: {
    answeredBy: ['helpdesk', 'pos'],
    means:
      'A limit was reached: the system’s or the key’s calls per minute, the account’s, queries running at once, or too many wrong keys from one address (an IP block). Also the documentation pages’ limit of 30 a minute per address.',
    todo: `${RETRY_AFTER} <code>X-RateLimit-Remaining</code> on each answer tells the balance left.`,
  },
  internal_error: {
    answeredBy: ['helpdesk', 'pos', 'admin'],
    means: 'An unexpected failure of the service. Nothing was applied.',
    todo: 'Retry later. If it persists, give support the <code>X-Request-Id</code> of the answer.',
  },
  not_implemented: {
    answeredBy: ['helpdesk', 'pos'],
    means: 'A route that is documented as planned and not available yet.',
    todo: 'Do not call it until the reference no longer marks it as planned.',
  },
  temporarily_unavailable: {
    answeredBy: ['helpdesk', 'pos', 'admin'],
    means:
      'The API is switched off for a while, a query did not finish in time, a shared store did not answer, or the server is shutting down. <code>Retry-After</code> says when to come back.',
    todo: `${RETRY_AFTER} Never drop what you were sending: a ticket resent with the same <code>external_id</code> is opened once. A sales query that keeps timing out: ask for a shorter period.`,
  },
  malformed_request: {
    answeredBy: ['edge'],
    means:
      'The request is not valid HTTP/1.1 (a broken request line or header, no <code>Host</code>); no API read it.',
    todo: 'Fix the HTTP client or what sits between it and the service; resending the same bytes fails again.',
  },
  request_timeout: {
    answeredBy: ['edge', 'admin'],
    means:
      'The request, or an upload’s body, did not arrive in time or paused too long, so it was dropped before anything was applied.',
    todo: 'Send it again, whole and without pauses; for a slow link, send a smaller body.',
  },
  expectation_failed: {
    answeredBy: ['edge'],
    means: 'The <code>Expect</code> header asks for something other than <code>100-continue</code>.',
    todo: 'Send the request without <code>Expect</code>, or with <code>Expect: 100-continue</code>.',
  },
  headers_too_large: {
    answeredBy: ['edge'],
    means: 'The request line and headers together are over 16 KiB.',
    todo: 'Send fewer or shorter headers (large cookies are the usual cause); the key fits well within the limit.',
  },
  unauthorized: {
    answeredBy: ['helpdesk', 'admin'],
    means:
      'The key is absent, malformed or unknown; a previous key past its 24 hours after a rotation; on the webhook, also an unknown system identifier or another system’s key. Repeated wrong keys from one address lead to an IP block.',
    todo: 'Send the current key of this system as <code>Authorization: Bearer &lt;key&gt;</code>. After a rotation, switch to the new key; ask support if you do not have it.',
  },
  system_inactive: {
    answeredBy: ['helpdesk'],
    means: 'The partner system was deactivated by the operator; its key is known but may not open tickets.',
    todo: 'Contact support. Keep what you were sending and send it again once the system is active.',
  },
  forbidden_scope: {
    answeredBy: ['helpdesk'],
    means: 'The key lacks the scope the route requires; <code>required_scope</code> names it.',
    todo: 'Ask support to grant that scope to the system’s key, or stop calling the route.',
  },
  payload_too_large: {
    answeredBy: ['helpdesk', 'admin'],
    means:
      'The body is larger than the route takes (65,536 bytes as sent on the ticket API; bytes, not characters).',
    todo: 'Send a smaller body: shorten the description, or send UTF-8 rather than <code>\\u</code> escapes.',
  },
  unsupported_media_type: {
    answeredBy: ['helpdesk', 'admin'],
    means: 'The body came without <code>Content-Type</code>, or with one the route does not read.',
    todo: 'Send JSON with <code>Content-Type: application/json</code> (lowercase).',
  },
  invalid_body: {
    answeredBy: ['helpdesk'],
    means: 'The body is not a JSON object: broken JSON, invalid UTF-8, a list or a lone value.',
    todo: 'Send one JSON object, in UTF-8.',
  },
  invalid_field: {
    answeredBy: ['helpdesk'],
    means:
      'A field has a JSON type it cannot have, or a text field holds the NUL character; <code>param</code> names the field.',
    todo: FIX_AND_RESEND,
  },
  missing_external_id: {
    answeredBy: ['helpdesk'],
    means: '<code>external_id</code> is absent, empty or <code>null</code>.',
    todo: 'Send your own id of the ticket in <code>external_id</code>; it is what makes resending safe.',
  },
  missing_description: {
    answeredBy: ['helpdesk'],
    means: '<code>description</code> is absent, empty or <code>null</code>.',
    todo: 'Send the ticket’s text in <code>description</code>.',
  },
  missing_company: {
    answeredBy: ['helpdesk'],
    means: '<code>company</code> is absent, empty or <code>null</code>.',
    todo: 'Send a company from the ticket options route.',
  },
  field_too_long: {
    answeredBy: ['helpdesk'],
    means:
      '<code>external_id</code> is over 120 characters or <code>description</code> over 20,000; <code>param</code> names it.',
    todo: 'Shorten that field.',
  },
  invalid_company: {
    answeredBy: ['helpdesk'],
    means:
      '<code>company</code> is not one of the companies of the ticket options route; <code>detail</code> lists them.',
    todo: 'Read the ticket options again and send one of their companies.',
  },
  invalid_nature: {
    answeredBy: ['helpdesk'],
    means: '<code>nature</code> is not one of the natures of the ticket options route.',
    todo: 'Read the ticket options again and send one of their natures, or leave <code>nature</code> out.',
  },
  misconfigured_system: {
    answeredBy: ['helpdesk'],
    means:
      'The system cannot open tickets because of its own configuration (no usable default category). Support has been told.',
    todo: `Keep the ticket. ${RETRY_AFTER} Resending with the same <code>external_id</code> opens it once.`,
  },
  invalid_token: {
    answeredBy: ['pos'],
    means:
      'The key is absent, wrong, revoked, paused, expired or replaced by a rotation. <code>reason</code> says which when the key used to work.',
    todo: 'Send a working key of the account. The merchant sees each key’s state in the panel (API keys) and can reactivate a paused key or create another.',
  },
  forbidden_permission: {
    answeredBy: ['pos'],
    means: 'The key lacks the permission the route requires; <code>required_permission</code> names it.',
    todo: 'The merchant ticks that permission on the key in the panel (API keys, Edit); the change holds from the next call.',
  },
  invalid_parameter: {
    answeredBy: ['pos'],
    means:
      'A query parameter is missing, unknown, repeated or invalid (a date without offset, a period over 120 days, an identifier of the wrong shape, a foreign cursor, <code>limit</code> outside 1 to 100); <code>param</code> names it.',
    todo: FIX_AND_RESEND,
  },
  forbidden: {
    answeredBy: ['admin'],
    means: 'The back office’s support token asked for something only the operator may do.',
    todo: 'Ask an operator, or use the operator’s token.',
  },
  malformed_json: {
    answeredBy: ['admin'],
    means: 'The back office’s API got a body that is not valid JSON.',
    todo: 'Send valid JSON.',
  },
  validation_failed: {
    answeredBy: ['admin'],
    means:
      'The back office’s API got a value it does not take; <code>param</code> names it (<code>body.name</code>, <code>query.limit</code>).',
    todo: FIX_AND_RESEND,
  },
  conflict: {
    answeredBy: ['admin'],
    means:
      'The request is valid but the stored data does not allow it now (the 21st active key of an account, say).',
    todo: 'Change the stored data first, as <code>detail</code> says, then send it again.',
  },
  no_receipts: {
    answeredBy: ['admin'],
    means:
      'A receipts upload held no receipts (an empty list, an empty body or only blank lines); nothing was stored.',
    todo: 'Check that the file sent exists and is not empty.',
  },
  upload_write_timeout: {
    answeredBy: ['admin'],
    means:
      'Writing an upload’s receipts took longer than its time limit; it was rolled back and nothing of it was stored.',
    todo: 'Send it again in smaller parts, or raise <code>UPLOAD_WRITE_TIMEOUT_MS</code>.',
  },
  upload_interrupted: {
    answeredBy: ['admin'],
    means: 'The database stopped answering while an upload was written; it was rolled back.',
    todo: 'Once <code>GET /readyz</code> answers 200, send it again: receipts are stored once each, by id.',
  },
};

/** The anchor of a code on the page of problem codes: stable, `problem-<code>`. */
export function problemAnchor(code: string): string {
  return `problem-${code}`;
}

/** The page of problem codes under the documentation's prefix. */
export const PROBLEM_CODES_PATH = '/problems';

/** Whether a text is a code of the catalogue (an older or foreign code gets no link). */
function isProblemCode(code: string): code is ProblemCode {
  return Object.hasOwn(PROBLEM_CODE_TEXTS, code);
}

/** The path of a code's explanation (`/docs/problems#problem-rate_limited`); null for no code or an unknown one. */
export function problemDocPath(code: string | null): string | null {
  return code === null || !isProblemCode(code)
    ? null
    : `${DOCS_PAGES.prefix}${PROBLEM_CODES_PATH}#${problemAnchor(code)}`;
}
