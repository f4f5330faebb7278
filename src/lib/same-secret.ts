import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether a presented secret is the expected one, in a time that says nothing of where they differ or of
 * their lengths (both are hashed first). No expected secret (a token not configured): never.
 */
export function sameSecret(presented: string, expected: string | null): boolean {
  if (expected === null) return false;
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
