import { createHmac, timingSafeEqual } from 'node:crypto';
import { Problem } from '../../errors/problem.js';

// The cursor of the events list (docs/pos-api.md, GET /v1/api-public/events, "Cursor rules"; docs/pos-api.md,
// Settled details: "The events cursor is signed by the server (HMAC with a server secret from config), bound
// to the place, and positions after the last event of the page by (registration time, id)").
//
// Text form: `<payload>.<mac>`, both base64url without padding. The payload is the JSON array
// `[1, account, place, registered_at, id]`; the mac is HMAC-SHA256, keyed by `config.cursorSecret`, of a
// domain label followed by the payload text exactly as it travels. Verification recomputes the whole
// cursor text from the payload text and compares it in constant time, so a change to any character is
// refused, including the spare low bits of a last base64url character, which a decoder would ignore.
// The cursor carries no time: it does not expire ("valid while the last event of the previous page
// exists"; that check is the listing's). It is not bound to `search` or `limit`: with another `search`
// the result is undefined, and `limit` may change between pages.

/** Format version, first in the payload and in the signed label: a new format gets a new number. */
const VERSION = 1;
/** Separates what this secret signs for cursors from anything else it might ever sign. */
const LABEL = `pos-events-cursor/v${VERSION}\n`;
/**
 * Longest text worth checking. A real cursor is far shorter (three identifiers of at most 64 characters
 * and an instant: under 400 characters); anything longer is refused before any hashing.
 */
const MAX_CURSOR_LENGTH = 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Where the next page starts: strictly after this event in the listing order. */
export interface EventPosition {
  /** Registration instant of the last event of the previous page (ms). */
  registeredAt: number;
  /** Its id. */
  id: string;
}

/** What a cursor is bound to: the place queried, within the calling key's account. */
export interface CursorScope {
  accountId: string;
  placeId: string;
}

/**
 * The outcome of reading a cursor. `foreign`: a genuine cursor of another place (or of another account's
 * place of the same id), 422 `"cursor" does not belong to this query.`; `invalid`: not issued by this API
 * (garbage, altered, signed with another secret), 422 `"cursor" is not valid.`.
 */
export type CursorCheck =
  { ok: true; position: EventPosition } | { ok: false; reason: 'foreign' | 'invalid' };

/** The 422 details of the two refusals, word for word from the cursor rules. */
export const CURSOR_DETAILS = {
  foreign: '"cursor" does not belong to this query.',
  invalid: '"cursor" is not valid.',
} as const;

/**
 * The 422 of a refused cursor, `param` `cursor` (docs/pos-api.md, Errors: "bad `cursor`: `cursor`"). A
 * dangling cursor (its event deleted meanwhile, reported by the listing) reads as not valid, like one the
 * API did not issue: the client restarts from the first page.
 */
export function cursorProblem(reason: 'foreign' | 'invalid' | 'dangling'): Problem {
  return Problem.of('invalid_parameter', {
    param: 'cursor',
    detail: reason === 'foreign' ? CURSOR_DETAILS.foreign : CURSOR_DETAILS.invalid,
  });
}

function mac(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(LABEL).update(payload).digest('base64url');
}

/** The `next_cursor` text pointing after `position` in the events of `scope`. */
export function signCursor(secret: string, scope: CursorScope, position: EventPosition): string {
  const payload = Buffer.from(
    JSON.stringify([VERSION, scope.accountId, scope.placeId, position.registeredAt, position.id]),
  ).toString('base64url');
  return `${payload}.${mac(secret, payload)}`;
}

/** The members of a decoded payload, or null when it is not a payload of this version. */
function readPayload(
  payload: string,
): { accountId: string; placeId: string; position: EventPosition } | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(value) || value.length !== 5) return null;
  const [version, accountId, placeId, registeredAt, id] = value as unknown[];
  if (version !== VERSION) return null;
  if (typeof accountId !== 'string' || typeof placeId !== 'string' || typeof id !== 'string') return null;
  if (typeof registeredAt !== 'number' || !Number.isSafeInteger(registeredAt)) return null;
  return { accountId, placeId, position: { registeredAt, id } };
}

/**
 * Reads a cursor sent back by a client for the events of `scope`. The signature is checked first, so a
 * text the API did not issue is `invalid` whatever it claims; only a genuine cursor can be `foreign`.
 */
export function verifyCursor(secret: string, text: string, scope: CursorScope): CursorCheck {
  const invalid = { ok: false, reason: 'invalid' } as const;
  if (text.length > MAX_CURSOR_LENGTH) return invalid;
  const dot = text.indexOf('.');
  if (dot < 0) return invalid;
  const payload = text.slice(0, dot);
  if (!BASE64URL.test(payload)) return invalid;
  const expected = Buffer.from(`${payload}.${mac(secret, payload)}`);
  const given = Buffer.from(text);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
  const read = readPayload(payload);
  // Signed by this secret yet unreadable: not a cursor of this format (defence in depth).
  if (read === null) return invalid;
  if (read.accountId !== scope.accountId || read.placeId !== scope.placeId) {
    return { ok: false, reason: 'foreign' };
  }
  return { ok: true, position: read.position };
}
