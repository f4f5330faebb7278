import type { Actor } from '../audit/actor.js';
import { recordKeyEvent, type KeyEventName } from '../audit/key-audit-repository.js';
import type { Clock } from '../clock.js';
import { sqliteDataVersionOf, type Db } from '../db/database.js';
import { readsWhileUnchanged } from '../db/unchanged-reads.js';
import { isPostgres } from '../db/dialect.js';
import { generateApiKey, hashApiKey } from '../lib/api-key.js';
import { sharedReads } from '../lib/shared-reads.js';
import { wireTime } from '../lib/wire-time.js';
import type { CatalogService } from './catalog-service.js';
import {
  findSystem,
  findSystemByKeyHash,
  listSystems,
  putSystem,
  rotateSystemKey,
  stopPreviousKey,
  withoutKeys,
  type PartnerSystem,
} from './system-repository.js';
import type { SystemInput } from './system-input.js';
import { recordSystemKeyTimeEvents } from './system-key-time-events.js';
import { verifySystemKey } from './system-key-verification.js';
import { KEY_PREFIX } from './system-scopes.js';
import { notFound } from '../errors/refusals.js';
import type { SystemOutcome, SystemRefusal } from './system-refusal.js';

// Partner systems and their keys (docs/admin-rules.md, Help desk: systems): their settings, the first key,
// its rotation with a grace period, and the end of a leaked previous key. A change the service refuses is
// returned as a `SystemRefusal`, before anything is written. Every change of a key or of a system's settings is recorded in
// the key audit trail in the transaction of the change (docs/back-office.md, Audit trail and last use).

/** The settings an operator's PUT may change, as the audit trail names them. */
const SETTINGS = [
  ['name', 'name'],
  ['active', 'active'],
  ['scopes', 'scopes'],
  ['rateLimitPerMinute', 'rate_limit_per_minute'],
  ['keyGraceSeconds', 'key_grace_seconds'],
  ['defaultCategoryId', 'default_category_id'],
  ['releasedCategoryIds', 'released_category_ids'],
] as const;

/** The settings a PUT changed, each with its value before and after. */
function changedSettings(
  before: PartnerSystem,
  after: PartnerSystem,
): Record<string, { before: unknown; after: unknown }> {
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  for (const [field, name] of SETTINGS) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      changes[name] = { before: before[field], after: after[field] };
  }
  return changes;
}

/** What the systems service needs: the database, the clock and the catalog that checks categories. */
interface SystemServiceDeps {
  db: Db;
  clock: Clock;
  catalog: Pick<CatalogService, 'exists'>;
}

/** A system without its keys; 404 when there is none (a read, or a system gone within its own change). */
async function getSystem(from: Db, identifier: string): Promise<PartnerSystem> {
  const found = await findSystem(from, identifier);
  if (found === undefined) throw notFound(`system "${identifier}"`);
  return withoutKeys(found);
}

/** Records an event of the system's key in the transaction of its change. */
async function audit(
  trx: Db,
  identifier: string,
  event: KeyEventName,
  at: { now: number; actor: Actor },
  details: Record<string, unknown> = {},
): Promise<void> {
  await recordKeyEvent(trx, {
    kind: 'system',
    ownerId: identifier,
    keyId: identifier,
    event,
    occurredAt: at.now,
    actor: at.actor,
    details,
  });
}

/** The system's row in a transaction, locked on PostgreSQL so that two changes of it take turns. */
async function lockSystem(trx: Db, identifier: string) {
  if (isPostgres(trx)) {
    await trx
      .selectFrom('hd_systems')
      .select('identifier')
      .where('identifier', '=', identifier)
      .forUpdate()
      .execute();
  }
  return findSystem(trx, identifier);
}

/** The first category the input names that the catalog does not have, as a refusal; null when none. */
async function unknownCategory(
  catalog: SystemServiceDeps['catalog'],
  input: SystemInput,
): Promise<SystemRefusal | null> {
  for (const [param, ids] of [
    ['default_category_id', input.default_category_id === null ? [] : [input.default_category_id]],
    ['released_category_ids', input.released_category_ids],
  ] as const) {
    for (const categoryId of ids) {
      if (!(await catalog.exists('hd_categories', categoryId)))
        return { ok: false, reason: 'unknown_category', param, categoryId };
    }
  }
  return null;
}

/**
 * Creates or replaces a system's settings (its keys stay); returns it and whether it was created. A
 * replacement that changed something (deactivation included) is recorded as `edited`.
 */
async function putSystemSettings(
  { db, clock, catalog }: SystemServiceDeps,
  identifier: string,
  input: SystemInput,
  actor: Actor,
): Promise<SystemOutcome<{ created: boolean; system: PartnerSystem }>> {
  const refused = await unknownCategory(catalog, input);
  if (refused !== null) return refused;
  return db.transaction().execute(async (trx) => {
    const now = clock.now();
    const before = await lockSystem(trx, identifier);
    const created = await putSystem(
      trx,
      identifier,
      {
        name: input.name,
        active: input.active,
        scopes: input.scopes,
        rateLimitPerMinute: input.rate_limit_per_minute,
        keyGraceSeconds: input.key_grace_seconds,
        defaultCategoryId: input.default_category_id,
        releasedCategoryIds: input.released_category_ids,
      },
      now,
    );
    const system = await getSystem(trx, identifier);
    const changes = before === undefined ? {} : changedSettings(withoutKeys(before), system);
    if (Object.keys(changes).length > 0) await audit(trx, identifier, 'edited', { now, actor }, { changes });
    return { ok: true as const, created, system };
  });
}

/**
 * Issues the system's first key, or rotates: the current key stays valid for the system's grace period,
 * an older previous key ends at once. The key is returned once and never stored.
 */
async function rotateSystemKeyOf(
  { db, clock }: SystemServiceDeps,
  identifier: string,
  actor: Actor,
): Promise<SystemOutcome<{ key: string; previousValidUntil: number | null }>> {
  const key = generateApiKey(KEY_PREFIX);
  return db.transaction().execute(async (trx) => {
    const row = await lockSystem(trx, identifier);
    if (row === undefined) return { ok: false as const, reason: 'unknown_system' as const, identifier };
    const now = clock.now();
    // An end of grace not swept yet is recorded before the rotation overwrites its instant.
    await recordSystemKeyTimeEvents(
      trx,
      { identifier, previous_key_hash: row.previousKeyHash, previous_valid_until: row.previousValidUntil },
      now,
    );
    const previousValidUntil = now + row.keyGraceSeconds * 1000;
    await rotateSystemKey(trx, identifier, hashApiKey(key), previousValidUntil, now);
    if (!row.hasKey) {
      await audit(trx, identifier, 'issued', { now, actor });
      return { ok: true as const, key, previousValidUntil: null };
    }
    await audit(
      trx,
      identifier,
      'rotated',
      { now, actor },
      {
        previous_valid_until: wireTime(previousValidUntil),
        // The previous key of an earlier rotation, still within its grace, ends at once.
        older_previous_ended:
          row.previousKeyHash !== null && row.previousValidUntil !== null && now < row.previousValidUntil,
      },
    );
    return { ok: true as const, key, previousValidUntil };
  });
}

/** Ends the previous key at once (a leak). */
async function stopPreviousKeyOf(
  { db, clock }: SystemServiceDeps,
  identifier: string,
  actor: Actor,
): Promise<SystemOutcome<{ stopped: boolean; system: PartnerSystem }>> {
  return db.transaction().execute(async (trx) => {
    const row = await lockSystem(trx, identifier);
    if (row === undefined) return { ok: false as const, reason: 'unknown_system' as const, identifier };
    const now = clock.now();
    await recordSystemKeyTimeEvents(
      trx,
      { identifier, previous_key_hash: row.previousKeyHash, previous_valid_until: row.previousValidUntil },
      now,
    );
    const stopped = await stopPreviousKey(trx, identifier, now);
    if (stopped) {
      await audit(
        trx,
        identifier,
        'previous_stopped',
        { now, actor },
        {
          // Whether the previous key still worked (within its grace) when it was stopped.
          was_in_grace: row.previousValidUntil !== null && now < row.previousValidUntil,
        },
      );
    }
    return { ok: true as const, stopped, system: await getSystem(trx, identifier) };
  });
}

/**
 * The partner systems service; categories a system names are checked in the catalog. Changes return an
 * outcome (the result, or a `SystemRefusal`); a read of a missing system throws its 404.
 */
export function createSystemService(deps: SystemServiceDeps) {
  const { db } = deps;
  // Concurrent verifications of one key share a look-up begun after each of them arrived (never a copy:
  // a key stopped or rotated is refused at once), src/lib/shared-reads.ts. On a SQLite file, a look-up
  // also answers the calls that come before the file's next commit, as a new read would
  // (src/db/unchanged-reads.ts).
  const systemByKeyHash = readsWhileUnchanged(
    sqliteDataVersionOf(db),
    sharedReads((keyHash: string) => findSystemByKeyHash(db, keyHash)),
  );
  return {
    put: (identifier: string, input: SystemInput, actor: Actor) =>
      putSystemSettings(deps, identifier, input, actor),

    get: (identifier: string) => getSystem(db, identifier),

    /** What a presented key text (null when absent) is worth at `now`: the ticket API's verification. */
    verifyKey: (token: string | null, now: number) => verifySystemKey(systemByKeyHash, token, now),

    /** Every system, without keys. */
    async list(): Promise<PartnerSystem[]> {
      return (await listSystems(db)).map(withoutKeys);
    },

    rotateKey: (identifier: string, actor: Actor) => rotateSystemKeyOf(deps, identifier, actor),

    stopPreviousKey: (identifier: string, actor: Actor) => stopPreviousKeyOf(deps, identifier, actor),
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
