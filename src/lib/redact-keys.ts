import { KEY_BODY_PATTERN } from './api-key.js';

/** Anything shaped like an API key of this service: a short prefix, `_`, then 43 base64url characters. */
const API_KEY_SHAPE = new RegExp(`\\b[a-z]{2,8}_${KEY_BODY_PATTERN}(?![A-Za-z0-9_-])`, 'g');

/** A one-time link's token in a query (the merchant panel's `/panel/set-password?token=…`). */
const LINK_TOKEN = /([?&]token=)[^&#\s]*/g;

/**
 * The text with every API-key-shaped token replaced by `[redacted key]`, and every `token` query value
 * by `[redacted]`. Keys belong in the Authorization header; one sent in a query string (which the APIs
 * refuse) must not reach the logs with the URL that carried it; nor may the one-time link of a panel
 * invitation or password reset, which works for whoever reads it.
 */
export function redactKeys(text: string): string {
  return text.replace(API_KEY_SHAPE, '[redacted key]').replace(LINK_TOKEN, '$1[redacted]');
}
