import type { PosKeyRecord } from './key-repository.js';
import { isExpired, keyState } from './key-state.js';
import type { PosPermission } from '../api/pos-permissions.js';

// A merchant's key as the back office sees it (docs/admin-rules.md, Point of sale: keys; docs/pos-api.md,
// States and transitions): its settings and state, never its text or hashes.

/** The state of a key as the back office shows it. */
type PosKeyState = 'active' | 'paused' | 'revoked' | 'expired';

/** A merchant's key as the back office sees it (never the key text or its hashes). */
export interface PosKey {
  id: string;
  accountId: string;
  name: string;
  permissions: PosPermission[];
  places: 'all' | string[];
  /** Last valid instant (ms). */
  expiresAt: number;
  state: PosKeyState;
  paused: boolean;
  revokedAt: number | null;
  /** When the previous key of a rotation stops, while it still works; null otherwise. */
  previousValidUntil: number | null;
  /** Last accepted use of the current key text (ms), flushed about once a minute; null: never. */
  lastUsedAt: number | null;
  /** Last accepted use of the previous key text of a rotation (ms); null: never, or none. */
  previousKeyLastUsedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

/** The state shown in listings: revoked, expired, paused, active (the first that applies). */
function keyStateName(row: PosKeyRecord, now: number): PosKeyState {
  if (row.revoked_at !== null) return 'revoked';
  if (isExpired(row, now)) return 'expired';
  return row.paused === 1 ? 'paused' : 'active';
}

/** The key of a stored row, as it stands at `now`. */
export function toPosKey(row: PosKeyRecord, now: number): PosKey {
  const previous = keyState({ key: row, matched: 'previous', accountActive: true, now });
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    permissions: row.permissions,
    places: row.places,
    expiresAt: row.expires_at,
    state: keyStateName(row, now),
    paused: row.paused === 1,
    revokedAt: row.revoked_at,
    previousValidUntil: row.previous_key_hash !== null && previous.ok ? previous.supersededUntil : null,
    lastUsedAt: row.current_key_last_used_at,
    previousKeyLastUsedAt: row.previous_key_hash === null ? null : row.previous_key_last_used_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
