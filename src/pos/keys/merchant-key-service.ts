import type { Actor } from '../../audit/actor.js';
import { onceKeyOf, recordKeyEvent, type KeyEventName } from '../../audit/key-audit-repository.js';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { generateApiKey, hashApiKey } from '../../lib/api-key.js';
import { randomAlphanumeric } from '../../lib/identifiers.js';
import {
  countActiveKeys,
  findKey,
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
import type {
  KeyCreateInput,
  KeyEditInput,
  KeyListInput,
  KeyRevokeInput,
  KeyRotateInput,
} from './merchant-key-input.js';
import { queueKeyNotice, wideningOf } from './merchant-key-mail.js';
import { expiryOf } from './merchant-key-validity.js';
import { conflict, invalidInput, notFound } from '../../errors/refusals.js';
import { wireTime } from '../../lib/wire-time.js';

// Merchants' API keys (admin-api.md, Point of sale; pos-data-api.md, States and transitions and
// Authentication): the service the admin API, a CLI or a panel call. Bad input is refused before anything
// is written; a key is shown once.

/** An account has at most 20 active keys (not revoked, not expired). */
export const MAX_ACTIVE_KEYS = 20;
const CREDENTIAL_ID_LENGTH = 24;

/** A credential identifier: random letters and digits (^[A-Za-z0-9]{1,64}$). */
function credentialId(): string {
  return randomAlphanumeric(CREDENTIAL_ID_LENGTH);
}

/** The fields an edit changed, each with its value before and after (instants as wire text). */
function editedFields(
  row: PosKeyRecord,
  values: PosKeyUpdate,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const field of ['name', 'permissions', 'places', 'expires_at'] as const) {
    const after = values[field];
    if (after === undefined) continue;
    const before = row[field];
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    changes[field] =
      field === 'expires_at'
        ? { before: wireTime(before as number), after: wireTime(after as number) }
        : { before, after };
  }
  return changes;
}

/** The merchants' keys service. Methods throw a Problem for input they refuse; changes take an actor. */
export function createMerchantKeyService(deps: { db: Db; clock: Clock; rotationGraceSeconds: number }) {
  const { db, clock, rotationGraceSeconds } = deps;

  async function requireAccount(trx: Db, accountId: string): Promise<void> {
    let query = trx.selectFrom('pos_accounts').select('id').where('id', '=', accountId);
    // Creations and extensions of one account are serialized on its row, so that two of them cannot
    // both pass the limit of active keys (SQLite serializes writing transactions by itself).
    if (isPostgres(trx)) query = query.forUpdate();
    if ((await query.executeTakeFirst()) === undefined) throw notFound(`account "${accountId}"`);
  }

  async function requireKey(trx: Db, accountId: string, id: string): Promise<PosKeyRecord> {
    await requireAccount(trx, accountId);
    const row = await findKey(trx, accountId, id);
    if (row === undefined) throw notFound(`key "${id}" in account "${accountId}"`);
    return row;
  }

  /** Refuses places that are not places of the account. */
  async function checkPlaces(trx: Db, accountId: string, chosen: 'all' | string[]): Promise<void> {
    if (chosen === 'all' || chosen.length === 0) return;
    const found = new Set(
      (
        await trx
          .selectFrom('pos_places')
          .select('id')
          .where('account_id', '=', accountId)
          .where('id', 'in', chosen)
          .execute()
      ).map((row) => row.id),
    );
    const index = chosen.findIndex((place) => !found.has(place));
    const missing = chosen[index];
    if (missing !== undefined)
      throw invalidInput(`places.${index}`, `there is no place "${missing}" in account "${accountId}"`);
  }

  async function checkActiveLimit(trx: Db, accountId: string, now: number, exceptId?: string): Promise<void> {
    if ((await countActiveKeys(trx, accountId, now, exceptId)) >= MAX_ACTIVE_KEYS) {
      throw conflict(
        `Account "${accountId}" already has ${MAX_ACTIVE_KEYS} active keys, the most it may have. ` +
          'Revoke a key (or let one expire) first.',
      );
    }
  }

  /**
   * Records a lifecycle event of the key in the transaction of its change (README, Audit trail). A grace
   * ended at once by the change (`graceEndedAt`) is marked on the event, so the sweeper does not record
   * it a second time as a `grace_ended` of its own.
   */
  async function audit(
    trx: Db,
    key: { accountId: string; id: string; now: number; actor: Actor },
    event: KeyEventName,
    details: Record<string, unknown> = {},
    graceEndedAt?: number,
  ): Promise<void> {
    const { accountId, id } = key;
    await recordKeyEvent(trx, {
      kind: 'merchant',
      ownerId: accountId,
      keyId: id,
      event,
      occurredAt: key.now,
      actor: key.actor,
      details,
      ...(graceEndedAt === undefined
        ? {}
        : { onceKey: onceKeyOf('grace_ended', 'merchant', accountId, id, graceEndedAt) }),
    });
  }

  /**
   * Runs a state change on a key that is not revoked, records its event when the state changed, and
   * returns the key afterwards.
   */
  async function change(
    accountId: string,
    id: string,
    values: (row: PosKeyRecord, now: number) => PosKeyUpdate,
    action: string,
    event: { name: KeyEventName; actor: Actor; changed: (row: PosKeyRecord) => boolean },
  ): Promise<PosKey> {
    return db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      if (row.revoked_at !== null) throw conflict(`Key "${id}" is revoked for ever; it cannot be ${action}.`);
      const now = clock.now();
      await recordMerchantKeyTimeEvents(trx, row, now);
      const update = values(row, now);
      await updateKey(trx, accountId, id, { ...update, updated_at: now });
      if (event.changed(row)) {
        const ended = update.previous_valid_until === now;
        await audit(
          trx,
          { accountId, id, now, actor: event.actor },
          event.name,
          ended ? { previous_key_ended: true } : {},
          ended ? now : undefined,
        );
      }
      return toPosKey(await requireKey(trx, accountId, id), now);
    });
  }

  return {
    /** Creates a key; its text is returned once and only its hash is stored. */
    async create(
      accountId: string,
      input: KeyCreateInput,
      actor: Actor,
    ): Promise<{ id: string; key: string; expiresAt: number }> {
      const now = clock.now();
      const expiresAt = expiryOf(input.expires_on, now);
      return db.transaction().execute(async (trx) => {
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
        await audit(trx, { accountId, id, now, actor }, 'issued', {
          name: input.name,
          permissions: input.permissions,
          places: input.places,
          expires_at: wireTime(expiresAt),
        });
        return { id, key, expiresAt };
      });
    },

    /** Keys of one account (404 when the account does not exist). */
    async list(accountId: string): Promise<PosKey[]> {
      await requireAccount(db, accountId);
      const now = clock.now();
      return (await listKeys(db, accountId)).map((row) => toPosKey(row, now));
    },

    /** Keys of every account, or of one when given (for support). */
    async listAll(query: KeyListInput): Promise<PosKey[]> {
      const now = clock.now();
      return (await listKeys(db, query.account)).map((row) => toPosKey(row, now));
    },

    async get(accountId: string, id: string): Promise<PosKey> {
      return toPosKey(await requireKey(db, accountId, id), clock.now());
    },

    /**
     * Changes settings of a key: name, permissions, places, validity (`expires_on`, checked like at
     * creation, or the operator's exact `expires_at`, which may be past). A revoked key cannot be
     * edited; an expired key brought back to life must fit in the limit of active keys.
     */
    async edit(accountId: string, id: string, input: KeyEditInput, actor: Actor): Promise<PosKey> {
      const now = clock.now();
      const expiresAt =
        input.expires_at !== undefined
          ? Math.floor(Date.parse(input.expires_at) / 1000) * 1000
          : input.expires_on !== undefined
            ? expiryOf(input.expires_on, now)
            : undefined;
      return db.transaction().execute(async (trx) => {
        const row = await requireKey(trx, accountId, id);
        if (row.revoked_at !== null) throw conflict(`Key "${id}" is revoked for ever; it cannot be edited.`);
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
        // Only an edit that widens the key's access tells the merchant (pos-data-api.md, States).
        const notice = { kind: 'widened', widenings: wideningOf(row, edited) } as const;
        await queueKeyNotice(trx, { accountId, key: { id, name: edited.name }, notice, now });
        const changes = editedFields(row, values);
        if (Object.keys(changes).length > 0)
          await audit(trx, { accountId, id, now, actor }, 'edited', { changes });
        return toPosKey(edited, now);
      });
    },

    /**
     * Issues a new key text for the credential (same id and settings). The current key becomes the
     * previous one for the grace period; an older previous key is forgotten at once (only two are
     * remembered). With `invalidate_current`, or when the key is paused, the current key ends at once
     * (`replaced`), and with `invalidate_current` so does the previous one. `previousValidUntil` is null
     * when no old key keeps working.
     */
    async rotate(
      accountId: string,
      id: string,
      input: KeyRotateInput,
      actor: Actor,
    ): Promise<{ key: string; previousValidUntil: number | null }> {
      const now = clock.now();
      const key = generateApiKey(POS_KEY_PREFIX);
      const previousValidUntil = await db.transaction().execute(async (trx) => {
        const row = await requireKey(trx, accountId, id);
        if (row.revoked_at !== null) throw conflict(`Key "${id}" is revoked for ever; it cannot be rotated.`);
        if (isExpired(row, now))
          throw conflict(
            `Key "${id}" has expired; extend its validity (PATCH expires_on) before rotating it.`,
          );
        await recordMerchantKeyTimeEvents(trx, row, now);
        const endsAtOnce = input.invalidate_current || row.paused === 1;
        const until = endsAtOnce ? now : now + rotationGraceSeconds * 1000;
        const updated = await updateKey(
          trx,
          accountId,
          id,
          {
            current_key_hash: hashApiKey(key),
            previous_key_hash: row.current_key_hash,
            previous_valid_until: until,
            replaced_key_hash: input.invalidate_current ? row.previous_key_hash : null,
            current_key_last_used_at: null,
            previous_key_last_used_at: row.current_key_last_used_at,
            updated_at: now,
          },
          row.current_key_hash,
        );
        if (!updated) throw conflict(`Key "${id}" was rotated meanwhile; list the keys and try again.`);
        const details = {
          invalidate_current: input.invalidate_current,
          previous_valid_until: endsAtOnce ? null : wireTime(until),
          // The previous key of an earlier rotation, still within its grace, ends at once.
          older_previous_ended: previousInGrace(row, now),
        };
        await audit(trx, { accountId, id, now, actor }, 'rotated', details, endsAtOnce ? now : undefined);
        const notice = { kind: 'rotated', previousValidUntil: endsAtOnce ? null : until } as const;
        await queueKeyNotice(trx, { accountId, key: { id, name: row.name }, notice, now });
        return endsAtOnce ? null : until;
      });
      return { key, previousValidUntil };
    },

    /** Pauses the key; a previous key within its grace is ended for good (it stays `replaced`). */
    pause: (accountId: string, id: string, actor: Actor) =>
      change(
        accountId,
        id,
        (row, now) => ({
          paused: 1,
          ...(previousInGrace(row, now) ? { previous_valid_until: now } : {}),
        }),
        'paused',
        { name: 'paused', actor, changed: (row) => row.paused === 0 },
      ),

    /** The same key works again (an ended previous key does not come back). */
    reactivate: (accountId: string, id: string, actor: Actor) =>
      change(accountId, id, () => ({ paused: 0 }), 'reactivated', {
        name: 'reactivated',
        actor,
        changed: (row) => row.paused === 1,
      }),

    /**
     * Revokes the key for ever, its previous key too. Revoking a revoked key changes nothing. A reason
     * (the console asks support for one) is kept in the revocation's audit event.
     */
    async revoke(accountId: string, id: string, actor: Actor, input: KeyRevokeInput = {}): Promise<PosKey> {
      return db.transaction().execute(async (trx) => {
        const row = await requireKey(trx, accountId, id);
        const now = clock.now();
        if (row.revoked_at === null) {
          await recordMerchantKeyTimeEvents(trx, row, now);
          await updateKey(trx, accountId, id, { revoked_at: now, updated_at: now });
          await audit(trx, { accountId, id, now, actor }, 'revoked', {
            previous_key_ended: previousInGrace(row, now),
            ...(input.reason === undefined ? {} : { reason: input.reason }),
          });
        }
        return toPosKey(await requireKey(trx, accountId, id), now);
      });
    },

    /**
     * What a presented key text (null when absent or not of a key's shape) is worth at `now` (default:
     * the clock's now): the POS API's one verification, on the primary database.
     */
    verify: (keyText: string | null, now: number = clock.now()) => verifyMerchantKey(db, keyText, now),
  };
}

export type MerchantKeyService = ReturnType<typeof createMerchantKeyService>;
