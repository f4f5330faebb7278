import type { FoundPosKey, PosKeyRecord } from './key-repository.js';
import { keyState, type KeyOutcome } from './key-state.js';

// The one verification of a presented merchant key: looked up by its hash on the primary database (never
// a replica, so a revocation holds at once), then judged by the state table of key-state.ts.

/** What a presented key text is worth now. */
export interface KeyVerification {
  outcome: KeyOutcome;
  /** The key the text belongs to, when it passed. */
  key?: PosKeyRecord;
  /**
   * The balance the call spends: the credential and which of its key texts was used, so that the
   * current and the previous key of a rotation each have their own (docs/pos-api.md, Limits).
   */
  bucket?: string;
  /** The hash of the key text that passed (current or previous), to mark its last use. */
  keyHash?: string;
  /** The key the text belongs to, passed or not (a refused key's account sees its refusals). */
  known?: Pick<PosKeyRecord, 'id' | 'account_id'>;
}

/**
 * Verifies the key text of `Authorization: Bearer` (null when absent or not of that shape) at `now`;
 * `keyByText` reads the key the text belongs to (key-repository.ts, `findKeyByText`) after the call arrived.
 */
export async function verifyMerchantKey(
  keyByText: (keyText: string) => Promise<FoundPosKey | undefined>,
  keyText: string | null,
  now: number,
): Promise<KeyVerification> {
  const found = keyText === null ? undefined : await keyByText(keyText);
  const outcome = keyState({
    key: found?.key,
    matched: found?.matched ?? 'current',
    accountActive: found?.accountActive ?? false,
    now,
  });
  if (found === undefined) return { outcome };
  const known = { id: found.key.id, account_id: found.key.account_id };
  if (!outcome.ok) return { outcome, known };
  const hash = found.matched === 'previous' ? found.key.previous_key_hash : found.key.current_key_hash;
  return {
    outcome,
    key: found.key,
    bucket: `${found.key.id}:${(hash ?? '').slice(0, 16)}`,
    known,
    ...(hash === null ? {} : { keyHash: hash }),
  };
}
