// Why the merchants' keys service refuses a request, as a value (openapi/admin.json, the merchant key
// operations): the admin API's route table turns each reason into its problem, the panel into its own words.

/** The action a revoked key can no longer take, as the refusal names it. */
export type KeyAction = 'edited' | 'rotated' | 'paused' | 'reactivated';

/** A refusal of the keys service: the reason, and the field to fix (`param`) when the input is at fault. */
export type KeyRefusal =
  /** The account does not exist. */
  | { ok: false; reason: 'unknown_account'; accountId: string }
  /** The account has no key of that id. */
  | { ok: false; reason: 'unknown_key'; accountId: string; id: string }
  /** `places.<index>` names a place that is not one of the account's. */
  | { ok: false; reason: 'unknown_place'; param: string; accountId: string; place: string }
  /** `expires_on` is not a real calendar date. */
  | { ok: false; reason: 'expiry_not_a_day'; param: 'expires_on' }
  /** `expires_on` is before today (`today`, a day of UTC-03:00). */
  | { ok: false; reason: 'expiry_past'; param: 'expires_on'; today: string }
  /** `expires_on` is after `last`, `months` months from today. */
  | { ok: false; reason: 'expiry_too_far'; param: 'expires_on'; months: number; last: string }
  /** The account already has `max` active keys. */
  | { ok: false; reason: 'too_many_active_keys'; accountId: string; max: number }
  /** The key is revoked for ever and cannot take `action`. */
  | { ok: false; reason: 'revoked'; id: string; action: KeyAction }
  /** The key has expired: it must be extended before it is rotated. */
  | { ok: false; reason: 'expired'; id: string }
  /** Another rotation of the key won the race. */
  | { ok: false; reason: 'rotated_meanwhile'; id: string };

/** What a change of a key yields: its value, or the refusal. */
export type KeyOutcome<T> = ({ ok: true } & T) | KeyRefusal;

/**
 * Carries a refusal out of a transaction so that the transaction rolls back (nothing it wrote stays),
 * then becomes the returned value again in `refusing`. Never leaves the service.
 */
class Refused extends Error {
  constructor(readonly refusal: KeyRefusal) {
    super(refusal.reason);
  }
}

/** Aborts the running transaction with a refusal (caught by `refusing`). */
export function refuse(refusal: KeyRefusal): never {
  throw new Refused(refusal);
}

/** Runs `work`; a refusal raised in it with `refuse` is returned as the outcome. */
export async function refusing<T>(work: () => Promise<{ ok: true } & T>): Promise<KeyOutcome<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return error.refusal;
    throw error;
  }
}
