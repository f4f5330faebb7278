import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { generateApiKey, hashApiKey } from '../lib/api-key.js';
import type { CatalogService } from './catalog-service.js';
import {
  findSystem,
  listSystems,
  putSystem,
  rotateSystemKey,
  stopPreviousKey,
  withoutKeys,
  type PartnerSystem,
} from './system-repository.js';
import type { SystemInput } from './system-input.js';
import { KEY_PREFIX } from './system-scopes.js';
import { invalidInput, notFound } from '../errors/refusals.js';

// Partner systems and their keys (admin-api.md, Help desk: systems): their settings, the first key, its
// rotation with a grace period, and the end of a leaked previous key. Methods throw a Problem for input
// they refuse, before anything is written.

/** The partner systems service; categories a system names are checked in the catalog. */
export function createSystemService(deps: { db: Db; clock: Clock; catalog: Pick<CatalogService, 'exists'> }) {
  const { db, clock, catalog } = deps;

  /** A system without its keys; 404 when there is none. */
  async function get(identifier: string): Promise<PartnerSystem> {
    const found = await findSystem(db, identifier);
    if (found === undefined) throw notFound(`system "${identifier}"`);
    return withoutKeys(found);
  }

  return {
    /** Creates or replaces a system's settings (its keys stay); returns it and whether it was created. */
    async put(identifier: string, input: SystemInput): Promise<{ created: boolean; system: PartnerSystem }> {
      for (const [param, ids] of [
        ['default_category_id', input.default_category_id === null ? [] : [input.default_category_id]],
        ['released_category_ids', input.released_category_ids],
      ] as const) {
        for (const categoryId of ids) {
          if (!(await catalog.exists('hd_categories', categoryId)))
            throw invalidInput(param, `there is no category ${categoryId}`);
        }
      }
      const created = await putSystem(
        db,
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
        clock.now(),
      );
      return { created, system: await get(identifier) };
    },

    get,

    /** Every system, without keys. */
    async list(): Promise<PartnerSystem[]> {
      return (await listSystems(db)).map(withoutKeys);
    },

    /**
     * Issues the system's first key, or rotates: the current key stays valid for the system's grace
     * period, an older previous key ends at once. The key is returned once and never stored.
     */
    async rotateKey(identifier: string): Promise<{ key: string; previousValidUntil: number | null }> {
      const before = await get(identifier);
      const key = generateApiKey(KEY_PREFIX);
      const now = clock.now();
      const previousValidUntil = now + before.keyGraceSeconds * 1000;
      await rotateSystemKey(db, identifier, hashApiKey(key), previousValidUntil, now);
      return { key, previousValidUntil: before.hasKey ? previousValidUntil : null };
    },

    /** Ends the previous key at once (a leak). */
    async stopPreviousKey(identifier: string): Promise<{ stopped: boolean; system: PartnerSystem }> {
      await get(identifier);
      const stopped = await stopPreviousKey(db, identifier, clock.now());
      return { stopped, system: await get(identifier) };
    },
  };
}

export type SystemService = ReturnType<typeof createSystemService>;
