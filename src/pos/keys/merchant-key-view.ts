import { z } from 'zod';
import { wireTime, wireTimeText } from '../../lib/wire-time.js';
import type { PosKey } from './merchant-key.js';
import { POS_PERMISSIONS } from '../api/pos-permissions.js';

// What the operator and support read of a merchant's keys (docs/admin-rules.md, Point of sale: keys):
// metadata and state, never the key; the key text only once, when it is created or rotated.

/** A key's metadata and state. */
export const posKeyBody = z
  .strictObject({
    id: z.string(),
    account: z.string(),
    name: z.string(),
    permissions: z.array(z.enum(POS_PERMISSIONS)),
    places: z.union([z.literal('all'), z.array(z.string())]),
    expires_at: wireTimeText,
    state: z.enum(['active', 'paused', 'revoked', 'expired']),
    paused: z.boolean(),
    revoked_at: wireTimeText.nullable(),
    /** When the previous key of a rotation stops, while it still works; null otherwise. */
    previous_key_valid_until: wireTimeText.nullable(),
    /** Last accepted call with the current key, to about a minute; null: never. */
    last_used_at: wireTimeText.nullable(),
    /** Last accepted call with the previous key of a rotation; null: never, or none. */
    previous_key_last_used_at: wireTimeText.nullable(),
    created_at: wireTimeText,
    updated_at: wireTimeText,
  })
  .meta({
    id: 'MerchantKey',
    examples: [
      {
        id: 'k7Qm2Xa9',
        account: 'acme',
        name: 'ERP',
        permissions: ['event.view', 'sale-by-payment-method.view'],
        places: ['SP01', 'REC01'],
        expires_at: '2027-06-01T02:59:59Z',
        state: 'active',
        paused: false,
        revoked_at: null,
        previous_key_valid_until: null,
        last_used_at: '2026-11-20T11:58:00Z',
        previous_key_last_used_at: null,
        created_at: '2026-11-01T12:00:00Z',
        updated_at: '2026-11-20T12:00:00Z',
      },
    ],
  });

/** 201 of POST keys: the credential's id, its key (shown this once) and its last valid instant. */
export const createdKeyBody = z
  .strictObject({ id: z.string(), key: z.string(), expires_at: wireTimeText })
  .meta({
    id: 'CreatedMerchantKey',
    examples: [{ id: 'k7Qm2Xa9', key: 'gtpk_' + 'B'.repeat(43), expires_at: '2027-11-21T02:59:59Z' }],
  });

/** 201 of POST keys/{id}/rotate: the new key (shown this once), and until when the previous one works. */
export const rotatedKeyBody = z
  .strictObject({
    key: z.string(),
    previous_valid_until: wireTimeText.nullable(),
  })
  .meta({
    id: 'RotatedMerchantKey',
    examples: [{ key: 'gtpk_' + 'C'.repeat(43), previous_valid_until: '2026-11-21T12:00:00Z' }],
  });

/** The back office's view of a key: metadata and state, never the key text or its hashes. */
export function posKeyView(key: PosKey): z.infer<typeof posKeyBody> {
  return {
    id: key.id,
    account: key.accountId,
    name: key.name,
    permissions: key.permissions,
    places: key.places,
    expires_at: wireTime(key.expiresAt),
    state: key.state,
    paused: key.paused,
    revoked_at: key.revokedAt === null ? null : wireTime(key.revokedAt),
    previous_key_valid_until: key.previousValidUntil === null ? null : wireTime(key.previousValidUntil),
    last_used_at: key.lastUsedAt === null ? null : wireTime(key.lastUsedAt),
    previous_key_last_used_at:
      key.previousKeyLastUsedAt === null ? null : wireTime(key.previousKeyLastUsedAt),
    created_at: wireTime(key.createdAt),
    updated_at: wireTime(key.updatedAt),
  };
}

/** The body of a created key. */
export function createdKeyView(created: {
  id: string;
  key: string;
  expiresAt: number;
}): z.infer<typeof createdKeyBody> {
  return { id: created.id, key: created.key, expires_at: wireTime(created.expiresAt) };
}

/** The body of a rotation: null `previous_valid_until` when no old key keeps working. */
export function rotatedKeyView(rotation: {
  key: string;
  previousValidUntil: number | null;
}): z.infer<typeof rotatedKeyBody> {
  return {
    key: rotation.key,
    previous_valid_until: rotation.previousValidUntil === null ? null : wireTime(rotation.previousValidUntil),
  };
}
