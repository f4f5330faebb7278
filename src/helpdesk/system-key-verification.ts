import { hashApiKey, hashMatches, hasKeyShape } from '../lib/api-key.js';
import type { SystemWithKeys } from './system-repository.js';
import { KEY_PREFIX } from './system-scopes.js';

// The one verification of a presented partner-system key: looked up by its hash, then the previous key
// of a rotation judged against its grace period.

/** What a presented key text is worth at a moment. */
export type SystemKeyCheck =
  /** Absent, not of a key's shape, or no system's key: counts toward the IP block. */
  | { ok: false; reason: 'unknown_key' }
  /** The previous key of a rotation after its grace period: the system's refusal, not the IP's. */
  | { ok: false; reason: 'grace_ended'; system: SystemWithKeys; credential: 'previous' }
  /** A valid key: which of the system's two it is, and its hash (to mark its last use). */
  | { ok: true; system: SystemWithKeys; credential: 'current' | 'previous'; keyHash: string };

/**
 * Verifies the key text of `Authorization: Bearer` (null when absent) at `now`; `systemByKeyHash` reads
 * the system whose current or previous key has the hash, after the call arrived.
 */
export async function verifySystemKey(
  systemByKeyHash: (keyHash: string) => Promise<SystemWithKeys | undefined>,
  token: string | null,
  now: number,
): Promise<SystemKeyCheck> {
  if (token === null || !hasKeyShape(token, KEY_PREFIX)) return { ok: false, reason: 'unknown_key' };
  const keyHash = hashApiKey(token);
  const system = await systemByKeyHash(keyHash);
  if (system === undefined) return { ok: false, reason: 'unknown_key' };
  if (hashMatches(keyHash, system.currentKeyHash))
    return { ok: true, system, credential: 'current', keyHash };
  // The previous key of a rotation: valid during the grace period, then refused.
  const validUntil = system.previousValidUntil;
  if (!hashMatches(keyHash, system.previousKeyHash) || validUntil === null || now >= validUntil)
    return { ok: false, reason: 'grace_ended', system, credential: 'previous' };
  return { ok: true, system, credential: 'previous', keyHash };
}
