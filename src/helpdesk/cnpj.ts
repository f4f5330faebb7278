import { trimSpaces } from '../lib/unicode-text.js';

// The ticket's customer tax id (docs/ticket-api.md, Ticket request: cnpj).

/**
 * Normalises a customer tax id (`cnpj`): a leading label `CNPJ` (any case, optionally followed by `:`),
 * punctuation and spaces are removed and letters upper-cased; the result must be 12 letters or digits
 * followed by 2 digits. Returns null when it is not a CNPJ (the ticket then carries `cnpj_ignored`).
 */
export function normaliseCnpj(text: string): string | null {
  // White_Space, not \s: \s also matches U+FEFF, an invisible character that is neither a space nor
  // punctuation, so "CNPJ\uFEFF: …" must stay ignored like any other stray character.
  const unlabelled = trimSpaces(text).replace(/^cnpj\p{White_Space}*:?/iu, '');
  // Only ASCII letters are upper-cased: 'ı'.toUpperCase() is 'I', which would turn a non-CNPJ into one.
  const compact = unlabelled
    .replace(/[\p{P}\p{White_Space}]/gu, '')
    .replace(/[a-z]/g, (c) => c.toUpperCase());
  return /^[A-Z0-9]{12}[0-9]{2}$/.test(compact) ? compact : null;
}
