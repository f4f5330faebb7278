import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

// Keys are a prefix followed by 43 characters of base64url (32 random bytes); only a SHA-256 of the
// whole key is stored, and a key is shown once (docs/api-conventions.md).

/** A new key with the given prefix (`gtes_` for partner systems, `gtpk_` for merchants). */
export function generateApiKey(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/**
 * The stored form of a key: hex SHA-256 of the whole key text. One call of `crypto.hash`, which every
 * API call makes: a `Hash` object each time cost about 2.5 times as much.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** True when a presented key's hash (`hashApiKey`) is `storedHash`, compared in constant time. */
export function hashMatches(presentedHash: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const presented = Buffer.from(presentedHash, 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

/** The random part of every key: 43 base64url characters (32 bytes), as a regex source. */
export const KEY_BODY_PATTERN = '[A-Za-z0-9_-]{43}';

const KEY_BODY = new RegExp(`^${KEY_BODY_PATTERN}$`);

/** True when the text has the shape of a key with the prefix: prefix + 43 base64url characters. */
export function hasKeyShape(text: string, prefix: string): boolean {
  return (
    text.length === prefix.length + 43 && text.startsWith(prefix) && KEY_BODY.test(text.slice(prefix.length))
  );
}
