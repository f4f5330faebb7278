import { z } from 'zod';
import { addMonths, dayAt, formatDay, lastSecondOfDay, parseDay, type CalendarDay } from '../lib/calendar.js';
import { randomAlphanumeric } from '../lib/identifiers.js';
import { displayName } from '../lib/input-text.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { isPostgres } from '../db/dialect.js';
import { generateApiKey, hashApiKey } from '../lib/api-key.js';
import { POS_IDENTIFIER } from './pos-identifier.js';
import { Problem } from '../errors/problem.js';
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
import { isExpired, keyState, previousInGrace } from './key-state.js';
import { verifyMerchantKey } from './key-verification.js';
import { POS_PERMISSIONS, type PosPermission } from './pos-permissions.js';

// Merchants' API keys (admin-api.md, Point of sale; pos-data-api.md, States and transitions and
// Authentication): the schemas of what the merchant or operator sends, and the service the admin API, a
// CLI or a panel call. Bad input is refused before anything is written; a key is shown once.

/** An account has at most 20 active keys (not revoked, not expired). */
export const MAX_ACTIVE_KEYS = 20;
/** Validity: 12 months by default, at most 24. */
export const DEFAULT_VALIDITY_MONTHS = 12;
export const MAX_VALIDITY_MONTHS = 24;
/** Key dates are days of UTC-03:00: validity ends at 23:59:59 of the date there. */
const KEY_DAY_OFFSET_MS = -3 * 3_600_000;
const CREDENTIAL_ID_LENGTH = 24;

/** The state of a key as the back office shows it. */
export type PosKeyState = 'active' | 'paused' | 'revoked' | 'expired';

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
export const keyListInput = z.strictObject({
  account: z.string().regex(POS_IDENTIFIER, 'must be an account identifier').optional(),
});

/** Today in UTC-03:00. */
export function today(now: number): CalendarDay {
  return dayAt(now, KEY_DAY_OFFSET_MS);
}

/** The last valid instant of a key valid until `day`: 23:59:59 there in UTC-03:00 (next day 02:59:59Z). */
export function expiryInstant(day: CalendarDay): number {
  return lastSecondOfDay(day, KEY_DAY_OFFSET_MS);
}

/** A credential identifier: random letters and digits (^[A-Za-z0-9]{1,64}$). */
function credentialId(): string {
  return randomAlphanumeric(CREDENTIAL_ID_LENGTH);
}

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
  createdAt: number;
  updatedAt: number;
}

/** The state shown in listings: revoked, expired, paused, active (the first that applies). */
export function keyStateName(row: PosKeyRecord, now: number): PosKeyState {
  if (row.revoked_at !== null) return 'revoked';
  if (isExpired(row, now)) return 'expired';
  return row.paused === 1 ? 'paused' : 'active';
}

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
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function notFound(what: string): Problem {
  return Problem.of('not_found', { detail: `There is no ${what}.` });
}

function invalid(param: string, detail: string): Problem {
  return Problem.of('validation_failed', { detail: `${param}: ${detail}`, param });
}

function conflict(detail: string): Problem {
  return Problem.of('conflict', { detail });
}

/** The merchants' keys service. Methods throw a Problem for input they refuse. */
export function createPosKeyService(deps: { db: Db; clock: Clock; rotationGraceSeconds: number }) {
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
      throw invalid(`places.${index}`, `there is no place "${missing}" in account "${accountId}"`);
  }

  /** The last valid instant of a key valid until `text`: not in the past, at most 24 months away. */
  function expiryOf(text: string | undefined, now: number): number {
    const first = today(now);
    if (text === undefined) return expiryInstant(addMonths(first, DEFAULT_VALIDITY_MONTHS));
    const day = parseDay(text);
    if (day === null) throw invalid('expires_on', 'must be a real calendar date');
    const chosen = formatDay(day);
    if (chosen < formatDay(first))
      throw invalid('expires_on', `must not be in the past (today is ${formatDay(first)} in UTC-03:00)`);
    const last = formatDay(addMonths(first, MAX_VALIDITY_MONTHS));
    if (chosen > last)
      throw invalid(
        'expires_on',
        `must be at most ${MAX_VALIDITY_MONTHS} months from today (${last} at the latest)`,
      );
    return expiryInstant(day);
  }

  async function checkActiveLimit(trx: Db, accountId: string, now: number, exceptId?: string): Promise<void> {
    if ((await countActiveKeys(trx, accountId, now, exceptId)) >= MAX_ACTIVE_KEYS) {
      throw conflict(
        `Account "${accountId}" already has ${MAX_ACTIVE_KEYS} active keys, the most it may have. ` +
          'Revoke a key (or let one expire) first.',
      );
    }
  }

  /** Runs a state change on a key that is not revoked, and returns the key afterwards. */
  async function change(
    accountId: string,
    id: string,
    values: (row: PosKeyRecord, now: number) => PosKeyUpdate,
    action: string,
  ): Promise<PosKey> {
    return db.transaction().execute(async (trx) => {
      const row = await requireKey(trx, accountId, id);
      if (row.revoked_at !== null) throw conflict(`Key "${id}" is revoked for ever; it cannot be ${action}.`);
      const now = clock.now();
      await updateKey(trx, accountId, id, { ...values(row, now), updated_at: now });
      return toPosKey(await requireKey(trx, accountId, id), now);
    });
  }

  return {
    /** Creates a key; its text is returned once and only its hash is stored. */
    async create(
      accountId: string,
      input: z.infer<typeof keyCreateInput>,
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
    async listAll(query: z.infer<typeof keyListInput>): Promise<PosKey[]> {
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
    async edit(accountId: string, id: string, input: z.infer<typeof keyEditInput>): Promise<PosKey> {
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
        return toPosKey(await requireKey(trx, accountId, id), now);
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
      input: z.infer<typeof keyRotateInput>,
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
            updated_at: now,
          },
          row.current_key_hash,
        );
        if (!updated) throw conflict(`Key "${id}" was rotated meanwhile; list the keys and try again.`);
        return endsAtOnce ? null : until;
      });
      return { key, previousValidUntil };
    },

    /** Pauses the key; a previous key within its grace is ended for good (it stays `replaced`). */
    pause: (accountId: string, id: string) =>
      change(
        accountId,
        id,
        (row, now) => ({
          paused: 1,
          ...(previousInGrace(row, now) ? { previous_valid_until: now } : {}),
        }),
        'paused',
      ),

    /** The same key works again (an ended previous key does not come back). */
    reactivate: (accountId: string, id: string) =>
      change(accountId, id, () => ({ paused: 0 }), 'reactivated'),

    /** Revokes the key for ever, its previous key too. Revoking a revoked key changes nothing. */
    async revoke(accountId: string, id: string): Promise<PosKey> {
      return db.transaction().execute(async (trx) => {
        const row = await requireKey(trx, accountId, id);
        const now = clock.now();
        if (row.revoked_at === null) {
          await updateKey(trx, accountId, id, { revoked_at: now, updated_at: now });
        }
        return toPosKey(await requireKey(trx, accountId, id), now);
      });
    },

    /** What a presented key text is worth now: the same verification as the POS API's. */
    verify: (keyText: string) => verifyMerchantKey(db, keyText, clock.now()),
  };
}

export type PosKeyService = ReturnType<typeof createPosKeyService>;
