// What a presented merchant key is worth right now (docs/pos-api.md, "States and transitions", the 401
// rows of "Errors" and the IP block of "Limits"; docs/pos-api.md, Settled details). Pure: the caller looks
// the key up and passes the row, which of its hashes matched, the owner account's active flag and the time.

/** Why a key that worked before is refused: the `reason` of its 401. */
type KeyRefusalReason = 'revoked' | 'expired' | 'paused' | 'replaced';

/**
 * Which stored hash the presented key text matched: the current key, the previous key of a rotation, or
 * the previous key that a rotation invalidating the current key ended at once.
 */
export type KeyMatch = 'current' | 'previous' | 'replaced';

/** The parts of a stored key row the state depends on (instants in ms). */
export interface KeyStateRow {
  /** Last valid instant: the key is expired once the clock is past this second. */
  expires_at: number;
  paused: number;
  revoked_at: number | null;
  /** When the previous key's grace ends (it works while `now` is before this instant). */
  previous_valid_until: number | null;
}

export type KeyOutcome =
  | {
      ok: true;
      /** True when a previous key of a rotation was used: responses carry Deprecation and Sunset. */
      superseded: boolean;
      /** When the previous key stops (ms), the `Sunset`; null with the current key. */
      supersededUntil: number | null;
    }
  | {
      ok: false;
      /** The 401's `reason`; null when the key never worked or its owner account is deactivated. */
      reason: KeyRefusalReason | null;
      /** True when the refusal counts toward the IP block of wrong keys (an unknown key). */
      countsTowardIpBlock: boolean;
    };

export interface KeyStateInput {
  /** The row whose current, previous or replaced hash matched; undefined when none did. */
  key: KeyStateRow | undefined;
  matched: KeyMatch;
  accountActive: boolean;
  now: number;
}

const refused = (reason: KeyRefusalReason): KeyOutcome => ({ ok: false, reason, countsTowardIpBlock: false });

/** True once the clock is past the key's last valid second (23:59:59 of its date in UTC-03:00). */
export function isExpired(key: Pick<KeyStateRow, 'expires_at'>, now: number): boolean {
  return Math.floor(now / 1000) > Math.floor(key.expires_at / 1000);
}

/** True while the previous key of a rotation is within its grace period. */
export function previousInGrace(key: Pick<KeyStateRow, 'previous_valid_until'>, now: number): boolean {
  return key.previous_valid_until !== null && now < key.previous_valid_until;
}

/**
 * The outcome of presenting a key. Reasons in order: revoked, expired, paused, replaced; except that a
 * previous key is `replaced` rather than `paused` (its grace ended, or its key was paused during the
 * grace, which ends the grace for good). A key nobody has (including one from two rotations back) is a
 * wrong key: no reason, counted for the IP block. A deactivated owner account: no reason, not counted.
 */
export function keyState(input: KeyStateInput): KeyOutcome {
  const { key, matched, accountActive, now } = input;
  if (key === undefined) return { ok: false, reason: null, countsTowardIpBlock: true };
  if (!accountActive) return { ok: false, reason: null, countsTowardIpBlock: false };
  if (key.revoked_at !== null) return refused('revoked');
  if (isExpired(key, now)) return refused('expired');
  if (matched === 'replaced') return refused('replaced');
  if (matched === 'previous') {
    // The exception to the order: a previous key past its grace is `replaced` even if the key is paused,
    // and a previous key of a paused key is `replaced` from then on (the pause ends its grace).
    if (!previousInGrace(key, now) || key.paused === 1) return refused('replaced');
    return { ok: true, superseded: true, supersededUntil: key.previous_valid_until };
  }
  if (key.paused === 1) return refused('paused');
  return { ok: true, superseded: false, supersededUntil: null };
}
