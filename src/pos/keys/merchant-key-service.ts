import type { Actor } from '../../audit/actor.js';
import type { KeyEventName } from '../../audit/key-audit-repository.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { generateApiKey, hashApiKey } from '../../lib/api-key.js';
import { randomAlphanumeric } from '../../lib/identifiers.js';
import { sharedReads } from '../../lib/shared-reads.js';
import { wireTime } from '../../lib/wire-time.js';
import { notFound } from '../../errors/refusals.js';
import {
  findKeyByText,
  insertKey,
  listKeys,
  POS_KEY_PREFIX,
  updateKey,
  type PosKeyRecord,
  type PosKeyUpdate,
} from './key-repository.js';
import { isExpired, previousInGrace } from './key-state.js';
import { recordMerchantKeyTimeEvents } from './key-time-events.js';
import { verifyMerchantKey } from './key-verification.js';
import { toPosKey, type PosKey } from './merchant-key.js';
import {
  auditKeyEvent,
  checkActiveLimit,
  checkNotRevoked,
  checkPlaces,
  editedFields,
  requireAccount,
  requireKey,
} from './merchant-key-checks.js';
import type {
  KeyCreateInput,
  KeyEditInput,
  KeyListInput,
  KeyRevokeInput,
  KeyRotateInput,
} from './merchant-key-input.js';
import { queueKeyNotice, wideningOf } from './merchant-key-mail.js';
import { refuse, refusing, type KeyAction, type KeyOutcome } from './merchant-key-refusal.js';
import { expiryOf } from './merchant-key-validity.js';

export { MAX_ACTIVE_KEYS } from './merchant-key-checks.js';

// Merchants' API keys (docs/admin-rules.md, Point of sale; docs/pos-api.md, States and transitions and
// Authentication): the service the admin API, a CLI or a panel call. Bad input is refused before anything
// is written, as a value (`KeyRefusal`) the caller puts in its own words; a key is shown once.

const CREDENTIAL_ID_LENGTH = 24;

/** What the keys service needs: the database, the clock and the grace of a rotated key. */
interface KeyServiceDeps {
  db: Db;
  clock: Clock;
  rotationGraceSeconds: number;
}

/** A credential identifier: random letters and digits (^[A-Za-z0-9]{1,64}$). */
function credentialId(): string {
  return randomAlphanumeric(CREDENTIAL_ID_LENGTH);
}

/** The account's key as the service shows it; a read of a missing one is a 404 thrown to the caller. */
async function shownKey(trx: Db, accountId: string, id: string, now: number): Promise<PosKey> {
  const outcome = await refusing(async () => ({
    ok: true as const,
    row: await requireKey(trx, accountId, id),
  }));
  if (!outcome.ok)
    throw notFound(
      outcome.reason === 'unknown_key' ? `key "${id}" in account "${accountId}"` : `account "${accountId}"`,
    );
  return toPosKey(outcome.row, now);
}

/** Creates a key; its text is returned once and only its hash is stored. */
async function createKey(
  { db, clock }: KeyServiceDeps,
  accountId: string,
  input: KeyCreateInput,
  actor: Actor,
): Promise<KeyOutcome<{ id: string; key: string; expiresAt: number }>> {
  const now = clock.now();
  const expiry = expiryOf(input.expires_on, now);
  if (!expiry.ok) return expiry;
  const { expiresAt } = expiry;
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      await requireAccount(trx, accountId);
      await checkPlaces(trx, accountId, input.places);
      await checkActiveLimit(trx, accountId, now);
      const id = credentialId();
      const key = generateApiKey(POS_KEY_PREFIX);
      await insertKey(trx, {
        id,
        account_id: accountId,
        name: input.name,
        permissions: input.permissions,
        places: input.places,
        expires_at: expiresAt,
        paused: 0,
        revoked_at: null,
        current_key_hash: hashApiKey(key),
        previous_key_hash: null,
        previous_valid_until: null,
        replaced_key_hash: null,
        created_at: now,
        updated_at: now,
      });
      const access = { permissions: input.permissions, places: input.places, expires_at: expiresAt };
      const notice = { kind: 'created', access } as const;
      await queueKeyNotice(trx, { accountId, key: { id, name: input.name }, notice, now });
      await auditKeyEvent(trx, { accountId, id, now, actor }, 'issued', {
        name: input.name,
        permissions: input.permissions,
        places: input.places,
        expires_at: wireTime(expiresAt),
      });
      return { ok: true as const, id, key, expiresAt };
    }),
  );
}

/**
 * Changes settings of a key: name, permissions, places, validity (`expires_on`, checked like at creation,
 * or the operator's exact `expires_at`, which may be past). A revoked key cannot be edited; an expired key
 * brought back to life must fit in the limit of active keys.
 */
async function editKey(
  { db, clock }: KeyServiceDeps,
  key: { accountId: string; id: string },
  input: KeyEditInput,
  actor: Actor,
): Promise<KeyOutcome<{ key: PosKey }>> {
  const { accountId, id } = key;
  const now = clock.now();
  let expiresAt: number | undefined;
  if (input.expires_at !== undefined) expiresAt = Math.floor(Date.parse(input.expires_at) / 1000) * 1000;
  else if (input.expires_on !== undefined) {
    const expiry = expiryOf(input.expires_on, now);
    if (!expiry.ok) return expiry;
    expiresAt = expiry.expiresAt;
  }
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      checkNotRevoked(row, 'edited');
      await recordMerchantKeyTimeEvents(trx, row, now);
      if (input.places !== undefined) await checkPlaces(trx, accountId, input.places);
      if (expiresAt !== undefined && isExpired(row, now) && !isExpired({ expires_at: expiresAt }, now)) {
        await checkActiveLimit(trx, accountId, now, id);
      }
      const values: PosKeyUpdate = {
        ...(input.name === undefined ? {} : { name: input.name }),
        ...(input.permissions === undefined ? {} : { permissions: input.permissions }),
        ...(input.places === undefined ? {} : { places: input.places }),
        ...(expiresAt === undefined ? {} : { expires_at: expiresAt }),
      };
      if (Object.keys(values).length > 0) {
        await updateKey(trx, accountId, id, { ...values, updated_at: now });
      }
      const edited = await requireKey(trx, accountId, id);
      // Only an edit that widens the key's access tells the merchant (docs/pos-api.md, States).
      const notice = { kind: 'widened', widenings: wideningOf(row, edited) } as const;
      await queueKeyNotice(trx, { accountId, key: { id, name: edited.name }, notice, now });
      const changes = editedFields(row, values);
      if (Object.keys(changes).length > 0)
        await auditKeyEvent(trx, { accountId, id, now, actor }, 'edited', { changes });
      return { ok: true as const, key: toPosKey(edited, now) };
    }),
  );
}

/**
 * Issues a new key text for the credential (same id and settings). The current key becomes the previous
 * one for the grace period; an older previous key is forgotten at once (only two are remembered). With
 * `invalidate_current`, or when the key is paused, the current key ends at once (`replaced`), and with
 * `invalidate_current` so does the previous one. `previousValidUntil` is null when no old key keeps
 * working.
 */
async function rotateKey(
  { db, clock, rotationGraceSeconds }: KeyServiceDeps,
  key: { accountId: string; id: string },
  input: KeyRotateInput,
  actor: Actor,
): Promise<KeyOutcome<{ key: string; previousValidUntil: number | null }>> {
  const { accountId, id } = key;
  const now = clock.now();
  const text = generateApiKey(POS_KEY_PREFIX);
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      checkNotRevoked(row, 'rotated');
      if (isExpired(row, now)) refuse({ ok: false, reason: 'expired', id });
      await recordMerchantKeyTimeEvents(trx, row, now);
      const endsAtOnce = input.invalidate_current || row.paused === 1;
      const until = endsAtOnce ? now : now + rotationGraceSeconds * 1000;
      const updated = await updateKey(
        trx,
        accountId,
        id,
        {
          current_key_hash: hashApiKey(text),
          previous_key_hash: row.current_key_hash,
          previous_valid_until: until,
          replaced_key_hash: input.invalidate_current ? row.previous_key_hash : null,
          current_key_last_used_at: null,
          previous_key_last_used_at: row.current_key_last_used_at,
          updated_at: now,
        },
        row.current_key_hash,
      );
      if (!updated) refuse({ ok: false, reason: 'rotated_meanwhile', id });
      const details = {
        invalidate_current: input.invalidate_current,
        previous_valid_until: endsAtOnce ? null : wireTime(until),
        // The previous key of an earlier rotation, still within its grace, ends at once.
        older_previous_ended: previousInGrace(row, now),
      };
      await auditKeyEvent(
        trx,
        { accountId, id, now, actor },
        'rotated',
        details,
        endsAtOnce ? now : undefined,
      );
      const notice = { kind: 'rotated', previousValidUntil: endsAtOnce ? null : until } as const;
      await queueKeyNotice(trx, { accountId, key: { id, name: row.name }, notice, now });
      return { ok: true as const, key: text, previousValidUntil: endsAtOnce ? null : until };
    }),
  );
}

/**
 * Runs a state change on a key that is not revoked, records its event when the state changed, and
 * returns the key afterwards.
 */
async function changeKey(
  { db, clock }: KeyServiceDeps,
  key: { accountId: string; id: string },
  values: (row: PosKeyRecord, now: number) => PosKeyUpdate,
  event: { name: KeyEventName & KeyAction; actor: Actor; changed: (row: PosKeyRecord) => boolean },
): Promise<KeyOutcome<{ key: PosKey }>> {
  const { accountId, id } = key;
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      checkNotRevoked(row, event.name);
      const now = clock.now();
      await recordMerchantKeyTimeEvents(trx, row, now);
      const update = values(row, now);
      await updateKey(trx, accountId, id, { ...update, updated_at: now });
      if (event.changed(row)) {
        const ended = update.previous_valid_until === now;
        await auditKeyEvent(
          trx,
          { accountId, id, now, actor: event.actor },
          event.name,
          ended ? { previous_key_ended: true } : {},
          ended ? now : undefined,
        );
      }
      return { ok: true as const, key: toPosKey(await requireKey(trx, accountId, id), now) };
    }),
  );
}

/**
 * Revokes the key for ever, its previous key too. Revoking a revoked key changes nothing. A reason (the
 * console asks support for one) is kept in the revocation's audit event.
 */
async function revokeKey(
  { db, clock }: KeyServiceDeps,
  key: { accountId: string; id: string },
  actor: Actor,
  input: KeyRevokeInput,
): Promise<KeyOutcome<{ key: PosKey }>> {
  const { accountId, id } = key;
  return refusing(() =>
    db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      const now = clock.now();
      if (row.revoked_at === null) {
        await recordMerchantKeyTimeEvents(trx, row, now);
        await updateKey(trx, accountId, id, { revoked_at: now, updated_at: now });
        await auditKeyEvent(trx, { accountId, id, now, actor }, 'revoked', {
          previous_key_ended: previousInGrace(row, now),
          ...(input.reason === undefined ? {} : { reason: input.reason }),
        });
      }
      return { ok: true as const, key: toPosKey(await requireKey(trx, accountId, id), now) };
    }),
  );
}

/**
 * The merchants' keys service. Changes take an actor and return an outcome: the result, or the refusal
 * (`KeyRefusal`); reads of a missing account or key throw its 404.
 */
export function createMerchantKeyService(deps: KeyServiceDeps) {
  const { db, clock } = deps;
  // Concurrent verifications of one key text share a look-up begun after each of them arrived (never a
  // copy: a key revoked, paused or replaced is refused at once), src/lib/shared-reads.ts.
  const keyByText = sharedReads((keyText: string) => findKeyByText(db, keyText));
  return {
    create: (accountId: string, input: KeyCreateInput, actor: Actor) =>
      createKey(deps, accountId, input, actor),

    /** Keys of one account (404 when the account does not exist). */
    async list(accountId: string): Promise<PosKey[]> {
      const now = clock.now();
      const outcome = await refusing(async () => {
        await requireAccount(db, accountId);
        return { ok: true as const };
      });
      if (!outcome.ok) throw notFound(`account "${accountId}"`);
      return (await listKeys(db, accountId)).map((row) => toPosKey(row, now));
    },

    /** Keys of every account, or of one when given (for support). */
    async listAll(query: KeyListInput): Promise<PosKey[]> {
      const now = clock.now();
      return (await listKeys(db, query.account)).map((row) => toPosKey(row, now));
    },

    /** One key of the account (404 when the account or the key does not exist). */
    get: (accountId: string, id: string): Promise<PosKey> => shownKey(db, accountId, id, clock.now()),

    edit: (accountId: string, id: string, input: KeyEditInput, actor: Actor) =>
      editKey(deps, { accountId, id }, input, actor),

    rotate: (accountId: string, id: string, input: KeyRotateInput, actor: Actor) =>
      rotateKey(deps, { accountId, id }, input, actor),

    /** Pauses the key; a previous key within its grace is ended for good (it stays `replaced`). */
    pause: (accountId: string, id: string, actor: Actor) =>
      changeKey(
        deps,
        { accountId, id },
        (row, now) => ({ paused: 1, ...(previousInGrace(row, now) ? { previous_valid_until: now } : {}) }),
        { name: 'paused', actor, changed: (row) => row.paused === 0 },
      ),

    /** The same key works again (an ended previous key does not come back). */
    reactivate: (accountId: string, id: string, actor: Actor) =>
      changeKey(deps, { accountId, id }, () => ({ paused: 0 }), {
        name: 'reactivated',
        actor,
        changed: (row) => row.paused === 1,
      }),

    revoke: (accountId: string, id: string, actor: Actor, input: KeyRevokeInput = {}) =>
      revokeKey(deps, { accountId, id }, actor, input),

    /**
     * What a presented key text (null when absent or not of a key's shape) is worth at `now` (default:
     * the clock's now): the POS API's one verification, on the primary database.
     */
    verify: (keyText: string | null, now: number = clock.now()) => verifyMerchantKey(keyByText, keyText, now),
  };
}

export type MerchantKeyService = ReturnType<typeof createMerchantKeyService>;
