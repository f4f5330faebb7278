import { z } from 'zod';
import { parseDay } from '../../lib/calendar.js';
import { displayName, storedText } from '../../lib/input-text.js';
import { POS_IDENTIFIER } from '../pos-identifier.js';
import { POS_PERMISSIONS } from '../api/pos-permissions.js';

// What the operator sends to manage a merchant's API keys (docs/admin-rules.md, Point of sale: keys): the
// bodies, the key list's query and the identifiers of the paths. Bad input is refused before anything is
// written.

const unique = <T>(items: T[]): T[] => [...new Set(items)];

const name = displayName;
const permissions = z
  .array(z.enum(POS_PERMISSIONS, { error: `must be one of ${POS_PERMISSIONS.join(', ')}` }))
  .max(POS_PERMISSIONS.length * 4)
  .transform(unique);
const places = z.union(
  [
    z.literal('all'),
    z
      .array(z.string().regex(POS_IDENTIFIER, 'must be a place identifier (^[A-Za-z0-9]{1,64}$)'))
      .max(1000, 'must list at most 1000 places')
      .transform(unique),
  ],
  { error: 'must be "all" or a list of place identifiers' },
);
const expiresOn = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((text) => parseDay(text) !== null, 'must be a real calendar date');

export const keyCreateInput = z.strictObject({
  name,
  permissions: permissions.default([]),
  places: places.default('all'),
  expires_on: expiresOn.optional(),
});
export const keyEditInput = z
  .strictObject({
    name: name.optional(),
    permissions: permissions.optional(),
    places: places.optional(),
    expires_on: expiresOn.optional(),
    /** The operator's override: an exact instant, which may be in the past. */
    expires_at: z.iso
      .datetime({ offset: true, error: 'must be an ISO 8601 instant with Z or an offset' })
      .optional(),
  })
  .refine((input) => input.expires_on === undefined || input.expires_at === undefined, {
    message: 'send either expires_on or expires_at, not both',
    path: ['expires_at'],
  });
export const keyRotateInput = z.strictObject({ invalidate_current: z.boolean().default(false) });
/** The most characters (code points) of a revocation's reason. */
const KEY_REVOKE_REASON_MAX = 500;
/** Why a key is revoked (the console asks support for it): trimmed, not empty, kept in the audit trail. */
export const keyRevokeReason = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .trim()
  .min(1, 'must not be empty: say why the key is revoked')
  .pipe(storedText(KEY_REVOKE_REASON_MAX))
  .meta({ maxLength: KEY_REVOKE_REASON_MAX });
export const keyListInput = z.strictObject({
  account: z.string().regex(POS_IDENTIFIER, 'must be an account identifier').optional(),
});

export type KeyCreateInput = z.infer<typeof keyCreateInput>;
export type KeyEditInput = z.infer<typeof keyEditInput>;
export type KeyRotateInput = z.infer<typeof keyRotateInput>;
/** A revocation: the reason is optional to the service (the admin API and the panel give none). */
export interface KeyRevokeInput {
  reason?: z.infer<typeof keyRevokeReason> | undefined;
}
export type KeyListInput = z.infer<typeof keyListInput>;

/** The path of an account's keys. */
export const keyAccountPath = z.strictObject({
  account: z.string().regex(POS_IDENTIFIER, 'must be an account identifier (^[A-Za-z0-9]{1,64}$)'),
});
/** The path of one key. */
export const keyPath = keyAccountPath.extend({
  id: z.string().regex(POS_IDENTIFIER, 'must be a key identifier (^[A-Za-z0-9]{1,64}$)'),
});
