// Unicode text rules shared by both public APIs and the back office (docs/api-conventions.md;
// docs/ticket-api.md, Settled details). "Characters" are Unicode code points; "invisible or control
// characters" are categories Cc and Cf plus U+2028/U+2029, except ZWNJ (U+200C) and ZWJ (U+200D); "spaces"
// are Unicode White_Space.

/** Invisible or control characters: Cc, Cf, U+2028/U+2029, except ZWNJ and ZWJ. */
const invisible = /(?![\u200C\u200D])[\p{Cc}\p{Cf}\u2028\u2029]/gu;
const space = /^\p{White_Space}$/u;

/** True when the text holds a NUL character, which the ticket API refuses rather than cleans. */
export function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** Number of Unicode code points. */
export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** The first `max` code points of the text. */
export function truncateCodePoints(text: string, max: number): string {
  let out = '';
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    out += char;
    count += 1;
  }
  return out;
}

/** Trims Unicode White_Space at both ends. */
export function trimSpaces(text: string): string {
  // Scanned by hand: a regex anchored at the end (/\p{White_Space}+$/) backtracks over every inner run
  // of spaces, which is quadratic (a 64 KiB field of spaces held the event loop for seconds). Every
  // White_Space character is in the BMP, so one UTF-16 unit at a time is enough.
  let start = 0;
  let end = text.length;
  while (start < end && space.test(text.charAt(start))) start += 1;
  while (end > start && space.test(text.charAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/**
 * Cleans `external_id` and `requester.*`: removes invisible and control characters anywhere, then trims
 * spaces at both ends. Lone surrogates, which no database can store as text, become U+FFFD.
 */
export function cleanText(text: string): string {
  return trimSpaces(text.toWellFormed().replace(invisible, ''));
}

/** True when the text holds an invisible or control character (the POS API's `search` refuses them). */
export function hasInvisible(text: string): boolean {
  invisible.lastIndex = 0;
  return invisible.test(text);
}

/** Replaces each invisible or control character by what `replacer` makes of it (escapes, say). */
export function replaceInvisible(text: string, replacer: (char: string) => string): string {
  return text.replace(invisible, replacer);
}

/** Removes invisible and control characters (used on the field names that warnings list). */
export function removeInvisible(text: string): string {
  return text.toWellFormed().replace(invisible, '');
}
