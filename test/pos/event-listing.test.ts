import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifyCursor, type EventPosition } from '../../src/pos/places/cursor.js';
import { foldName, putEvent } from '../../src/pos/places/event-repository.js';
import {
  eventExists,
  eventPageQuery,
  listEvents,
  nextCursor,
  searchPattern,
  type EventItem,
  type EventListQuery,
} from '../../src/pos/places/event-listing.js';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { isPostgres } from '../../src/db/dialect.js';
import { createMigrator, migrateToLatest } from '../../src/db/migrate.js';
import { queryPlan } from '../support/query-plan.js';

// The events of a place as GET /v1/api-public/events lists them (docs/pos-api.md, "Events response", the
// events route's `search`, `limit` and cursor rules, Conventions: output dates; docs/pos-api.md, Settled
// details: cursor position (registration time, id), search folding; "Times on the wire"). Data is written
// through the admin API, or through the repository it uses (`putEvent`) where a property writes many events.

const SECRET = 'test-cursor-secret-0123456789';
const POS = '/admin/v1/pos';
const ACME = `${POS}/accounts/acme`;
const T0 = Date.UTC(2026, 10, 20, 12, 0, 0);
const MINUTE = 60_000;

/** Account `acme` with places `p1` and `p2`; account `other` with a place also called `p1`. */
async function seed(t: TestApp): Promise<void> {
  await t.admin('PUT', ACME, { name: 'Acme Bares' });
  await t.admin('PUT', `${ACME}/places/p1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ACME}/places/p2`, { timezone: 'America/Manaus' });
  await t.admin('PUT', `${POS}/accounts/other`, { name: 'Outra' });
  await t.admin('PUT', `${POS}/accounts/other/places/p1`, { timezone: 'UTC' });
}

/** Writes an event through the admin API; `registered` is minutes after T0. */
async function event(
  t: TestApp,
  id: string,
  name: string,
  registered: number,
  extra: Record<string, unknown> = {},
  place = `${ACME}/places/p1`,
): Promise<void> {
  await t.admin('PUT', `${place}/events/${id}`, {
    name,
    registered_at: new Date(T0 + registered * MINUTE).toISOString(),
    ...extra,
  });
}

function query(overrides: Partial<EventListQuery> = {}): EventListQuery {
  return { accountId: 'acme', placeId: 'p1', search: null, limit: 50, after: null, ...overrides };
}

/** A page that must exist (not a dangling cursor). */
async function page(t: TestApp, overrides: Partial<EventListQuery> = {}) {
  const listing = await listEvents(t.db, query(overrides));
  if (!listing.ok) throw new Error(`listing refused: ${listing.reason}`);
  return listing;
}

async function ids(t: TestApp, overrides: Partial<EventListQuery> = {}): Promise<string[]> {
  return (await page(t, overrides)).data.map((item) => item.id);
}

/** Every page, following `nextPosition`, with the page sizes given in turn (the last one repeats). */
async function allPages(t: TestApp, sizes: readonly number[], overrides: Partial<EventListQuery> = {}) {
  const pages: EventItem[][] = [];
  let after: EventPosition | null = null;
  for (;;) {
    const limit = sizes[Math.min(pages.length, sizes.length - 1)] ?? 50;
    const listing = await page(t, { ...overrides, limit, after });
    pages.push(listing.data);
    if (listing.nextPosition === null) return pages;
    if (pages.length > 1000) throw new Error('paging does not end');
    after = listing.nextPosition;
  }
}

/** Binary (UTF-16 code unit) order, descending. */
const binaryDescending = (a: string, b: string) => (a < b ? 1 : a > b ? -1 : 0);

describe('search pattern (docs/pos-api.md, events `search`: %, _ and backslash are plain text)', () => {
  it('folds like the stored names and escapes the three LIKE characters with a backslash', () => {
    expect(searchPattern('São')).toBe('%sao%');
    expect(searchPattern('ÉVÉNEMENT')).toBe('%evenement%');
    expect(searchPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
  });
});

describeEachDialect('events list of a place', (dialect) => {
  const t = useTestApp(dialect);

  describe('order and fields (docs/pos-api.md, Events response; Conventions: output dates)', () => {
    it('most recently registered first; only the place’s events; times UTC with Z in whole seconds', async () => {
      await seed(t);
      await event(t, 'old', 'Abertura', 0, {
        starts_at: '2026-11-20T21:30:00.750-03:00',
        ends_at: '2026-11-21T02:00:00.999-03:00',
      });
      await event(t, 'mid', 'Festa Junina', 10, { starts_at: '2026-06-24T18:00:00Z', active: false });
      await event(t, 'new', 'Réveillon', 20);
      // Not listed: another place of the account, and the same place id in another account.
      await event(t, 'x2', 'Outra casa', 30, {}, `${ACME}/places/p2`);
      await event(t, 'x3', 'Outra conta', 40, {}, `${POS}/accounts/other/places/p1`);

      const listing = await page(t);
      expect(listing).toEqual({
        ok: true,
        data: [
          { id: 'new', name: 'Réveillon', starts_at: null, ends_at: null, active: true },
          {
            id: 'mid',
            name: 'Festa Junina',
            starts_at: '2026-06-24T18:00:00Z',
            ends_at: null,
            active: false,
          },
          {
            id: 'old',
            name: 'Abertura',
            starts_at: '2026-11-21T00:30:00Z',
            ends_at: '2026-11-21T05:00:00Z',
            active: true,
          },
        ],
        nextPosition: null,
      });
      expect(await ids(t, { placeId: 'p2' })).toEqual(['x2']);
      expect(await ids(t, { accountId: 'other' })).toEqual(['x3']);
      expect(await ids(t, { placeId: 'nowhere' })).toEqual([]);
    });

    it('the registration instant orders, not the start or the writing order', async () => {
      await seed(t);
      await event(t, 'a', 'Late start, registered first', 1, { starts_at: '2030-01-01T00:00:00Z' });
      await event(t, 'b', 'Registered last', 3, { starts_at: '2020-01-01T00:00:00Z' });
      await event(t, 'c', 'Written last, registered in between', 2);
      expect(await ids(t)).toEqual(['b', 'c', 'a']);
    });

    it('ties on registered_at: id descending in binary order (digits, then capitals, then small letters)', async () => {
      await seed(t);
      const tied = ['b', 'B', 'a', 'A1', 'A', '10', '9', 'Z', 'z', 'aa'];
      for (const id of tied) await event(t, id, `Event ${id}`, 5);
      await event(t, 'later', 'Later', 6);
      await event(t, 'earlier', 'Earlier', 4);
      const expected = ['later', ...[...tied].sort(binaryDescending), 'earlier'];
      expect(expected.slice(1, -1)).toEqual(['z', 'b', 'aa', 'a', 'Z', 'B', 'A1', 'A', '9', '10']);
      expect(await ids(t)).toEqual(expected);
      // Paged one by one through the tie: the same list, no repeats, no gaps.
      expect((await allPages(t, [1])).flat().map((item) => item.id)).toEqual(expected);
      expect((await allPages(t, [3, 1, 2])).flat().map((item) => item.id)).toEqual(expected);
    });

    it.runIf(dialect.name === 'postgres')(
      'ties keep the binary order under a locale collation of the id column (PostgreSQL)',
      async (context) => {
        const icu = await sql<{ n: number }>`select count(*)::int as n from pg_collation
          where collname = 'und-x-icu'`.execute(t.db);
        if (icu.rows[0]?.n !== 1) context.skip('no ICU collation in this PostgreSQL');
        // A database created with a locale such as en_US sorts `a` before `B`; binary order does not.
        await sql`alter table pos_events alter column id type text collate "und-x-icu"`.execute(t.db);
        await seed(t);
        const tied = ['b', 'B', 'a', 'A', '9', '10'];
        for (const id of tied) await event(t, id, `Event ${id}`, 5);
        const expected = ['b', 'a', 'B', 'A', '9', '10'];
        expect(await ids(t)).toEqual(expected);
        expect((await allPages(t, [1])).flat().map((item) => item.id)).toEqual(expected);
      },
    );
  });

  describe('pages (docs/pos-api.md, Conventions: pagination; cursor rules: limit may change)', () => {
    it('limit cuts the page; nextPosition is the last event of the page; null on the last page', async () => {
      await seed(t);
      for (let n = 1; n <= 5; n += 1) await event(t, `e${n}`, `Event ${n}`, n);
      const first = await page(t, { limit: 2 });
      expect(first.data.map((item) => item.id)).toEqual(['e5', 'e4']);
      expect(first.nextPosition).toEqual({ registeredAt: T0 + 4 * MINUTE, id: 'e4' });
      const second = await page(t, { limit: 3, after: first.nextPosition });
      expect(second.data.map((item) => item.id)).toEqual(['e3', 'e2', 'e1']);
      // Exactly `limit` events left: no empty page after them.
      expect(second.nextPosition).toBeNull();
      expect((await page(t, { limit: 5 })).nextPosition).toBeNull();
      expect((await page(t, { limit: 4 })).nextPosition).toEqual({ registeredAt: T0 + 2 * MINUTE, id: 'e2' });
      expect(await page(t, { placeId: 'p2' })).toEqual({ ok: true, data: [], nextPosition: null });
    });

    it('next_cursor: signed for the place, read back to the next page; null on the last page', async () => {
      await seed(t);
      for (let n = 1; n <= 3; n += 1) await event(t, `e${n}`, `Event ${n}`, n);
      const scope = { accountId: 'acme', placeId: 'p1' };
      const first = await page(t, { limit: 2 });
      const cursor = nextCursor(SECRET, scope, first.nextPosition);
      expect(typeof cursor).toBe('string');
      const read = verifyCursor(SECRET, cursor ?? '', scope);
      if (!read.ok) throw new Error(read.reason);
      expect(await ids(t, { limit: 2, after: read.position })).toEqual(['e1']);
      expect(verifyCursor(SECRET, cursor ?? '', { accountId: 'acme', placeId: 'p2' })).toEqual({
        ok: false,
        reason: 'foreign',
      });
      expect(nextCursor(SECRET, scope, null)).toBeNull();
    });

    it('events registered after the first page was read do not shift the next pages', async () => {
      await seed(t);
      for (let n = 1; n <= 4; n += 1) await event(t, `e${n}`, `Event ${n}`, n);
      const first = await page(t, { limit: 2 });
      await event(t, 'fresh', 'Registered meanwhile', 100);
      expect(await ids(t, { limit: 10, after: first.nextPosition })).toEqual(['e2', 'e1']);
    });

    it('property: any events, any page sizes changing between pages: the pages join into the full list', async () => {
      await seed(t);
      const identifier = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(
            // Few distinct instants, so that ties on registered_at are common.
            fc.record({ id: identifier, registered: fc.integer({ min: 0, max: 5 }), ms: fc.nat(999) }),
            { selector: (e) => e.id, maxLength: 30 },
          ),
          fc.array(fc.integer({ min: 1, max: 100 }), { minLength: 1, maxLength: 10 }),
          fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 10 }),
          fc.boolean(),
          async (events, largeSizes, smallSizes, small) => {
            await t.db.deleteFrom('pos_events').execute();
            for (const e of events) {
              await putEvent(t.db, 'acme', 'p1', e.id, {
                name: `Event ${e.id}`,
                startsAt: null,
                endsAt: null,
                active: true,
                // The same second with another millisecond is a different instant, ordered as such.
                registeredAt: T0 + e.registered * 1000 + (e.ms % 2) * e.ms,
              });
            }
            const expected = [...events]
              .sort((a, b) => {
                const ra = T0 + a.registered * 1000 + (a.ms % 2) * a.ms;
                const rb = T0 + b.registered * 1000 + (b.ms % 2) * b.ms;
                return rb - ra || binaryDescending(a.id, b.id);
              })
              .map((e) => e.id);
            const sizes = small ? smallSizes : largeSizes;
            const pages = await allPages(t, sizes);
            expect(pages.flat().map((item) => item.id)).toEqual(expected);
            // Every page but the last is full, with the size asked for it.
            pages.slice(0, -1).forEach((items, n) => {
              expect(items.length).toBe(sizes[Math.min(n, sizes.length - 1)]);
            });
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe('search (docs/pos-api.md, events `search`; docs/pos-api.md, Settled details: NFD, marks removed, lower-cased, both sides)', () => {
    it('case- and accent-insensitive: "sao" finds "São", "ÉVÉNEMENT" finds "evenement"', async () => {
      await seed(t);
      await event(t, 'e1', 'Festival São João', 1);
      await event(t, 'e2', 'evenement', 2);
      await event(t, 'e3', 'ÉVÉNEMENT spécial', 3);
      await event(t, 'e4', 'SAO PAULO', 4);
      await event(t, 'e5', 'Saõ', 5);
      await event(t, 'e6', 'Outro', 6);
      // Decomposed input (NFD) is the same text as composed.
      await event(t, 'e7', 'Sa\u0303o Jose\u0301', 7);
      expect(await ids(t, { search: 'sao' })).toEqual(['e7', 'e5', 'e4', 'e1']);
      expect(await ids(t, { search: 'SÃO' })).toEqual(['e7', 'e5', 'e4', 'e1']);
      expect(await ids(t, { search: 'ÉVÉNEMENT' })).toEqual(['e3', 'e2']);
      expect(await ids(t, { search: 'evenement' })).toEqual(['e3', 'e2']);
      expect(await ids(t, { search: 'VéNem' })).toEqual(['e3', 'e2']);
      expect(await ids(t, { search: 'josé' })).toEqual(['e7']);
      expect(await ids(t, { search: 'joão' })).toEqual(['e1']);
      expect(await ids(t, { search: 'são joão' })).toEqual(['e1']);
      expect(await ids(t, { search: 'nada' })).toEqual([]);
      // Only the place's events are searched.
      await event(t, 'x1', 'São Pedro', 8, {}, `${ACME}/places/p2`);
      expect(await ids(t, { search: 'pedro' })).toEqual([]);
    });

    it('%, _ and backslash are plain text, not wildcards', async () => {
      await seed(t);
      await event(t, 'pct', 'Promo 50% off', 1);
      await event(t, 'nopct', 'Promo 50 off', 2);
      await event(t, 'under', 'a_b', 3);
      await event(t, 'nounder', 'axb', 4);
      await event(t, 'slash', 'c\\d', 5);
      await event(t, 'noslash', 'cd', 6);
      await event(t, 'slashpct', 'x\\%y', 7);
      expect(await ids(t, { search: '%' })).toEqual(['slashpct', 'pct']);
      expect(await ids(t, { search: '50%' })).toEqual(['pct']);
      expect(await ids(t, { search: '50%off' })).toEqual([]);
      expect(await ids(t, { search: '_' })).toEqual(['under']);
      expect(await ids(t, { search: 'a_b' })).toEqual(['under']);
      expect(await ids(t, { search: '\\' })).toEqual(['slashpct', 'slash']);
      expect(await ids(t, { search: 'c\\d' })).toEqual(['slash']);
      expect(await ids(t, { search: '\\%' })).toEqual(['slashpct']);
      expect(await ids(t, { search: '\\d' })).toEqual(['slash']);
      expect(await ids(t, { search: "'" })).toEqual([]);
    });

    it('search and paging together: pages of the matching events only', async () => {
      await seed(t);
      for (let n = 1; n <= 7; n += 1) await event(t, `e${n}`, n % 2 === 0 ? `Café ${n}` : `Bar ${n}`, n);
      const pages = await allPages(t, [2, 1], { search: 'CAFE' });
      expect(pages.map((items) => items.map((item) => item.id))).toEqual([['e6', 'e4'], ['e2']]);
    });

    it('property: the matching events are those whose folded name contains the folded search', async () => {
      await seed(t);
      const alphabet = ['a', 'á', 'A', 'Ã', '%', '_', '\\', ' ', 'b', "'"];
      const text = (max: number) =>
        fc
          .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: max })
          .map((chars) => chars.join(''));
      const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      await fc.assert(
        fc.asyncProperty(
          fc.array(text(6), { maxLength: 12 }),
          text(3),
          fc.integer({ min: 1, max: 5 }),
          async (names, search, limit) => {
            await t.db.deleteFrom('pos_events').execute();
            for (const [n, name] of names.entries()) {
              await putEvent(t.db, 'acme', 'p1', `e${n}`, {
                name,
                startsAt: null,
                endsAt: null,
                active: true,
                registeredAt: T0 + n,
              });
            }
            const expected = names
              .map((name, n) => ({ name, id: `e${n}` }))
              .filter((e) => fold(e.name).includes(fold(search)))
              .reverse()
              .map((e) => e.id);
            const pages = await allPages(t, [limit], { search });
            expect(pages.flat().map((item) => item.id)).toEqual(expected);
          },
        ),
        { numRuns: 40 },
      );
    });
  });

  describe('stored folded name (docs/pos-api.md, Settled details: the search compares the folded name stored with each event)', () => {
    it('property: the stored name_folded of any name is what the search folds it to (foldName) and its definition', async () => {
      await seed(t);
      // Any text: accents composed or not, other scripts, letters that change length when lowered or
      // decomposed (İ, ß, ﬁ, Hangul), astral characters.
      const pieces = ['São', 'Sa\u0303o', 'İ', 'ß', 'ﬁ', '한글', 'Ω', 'ǅ', '𝔄', 'Å', 'e\u0301\u0327', '%_\\'];
      const name = fc
        .array(
          fc.oneof(fc.string({ unit: 'binary', minLength: 1, maxLength: 4 }), fc.constantFrom(...pieces)),
          {
            minLength: 1,
            maxLength: 6,
          },
        )
        .map((parts) => parts.join('').slice(0, 200))
        // Every way in refuses NUL (PostgreSQL cannot store it in text), so a stored name never holds one.
        .filter(
          (text) =>
            text.trim() === text && text.length > 0 && !text.includes('\u0000') && text.isWellFormed(),
        );
      const definition = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      await fc.assert(
        fc.asyncProperty(fc.array(name, { minLength: 1, maxLength: 5 }), async (names) => {
          await t.db.deleteFrom('pos_events').execute();
          for (const [n, text] of names.entries()) {
            await putEvent(t.db, 'acme', 'p1', `e${n}`, {
              name: text,
              startsAt: null,
              endsAt: null,
              active: true,
              registeredAt: T0 + n,
            });
          }
          const stored = await t.db
            .selectFrom('pos_events')
            .select(['id', 'name', 'name_folded'])
            .orderBy('registered_at')
            .execute();
          expect(stored.map((row) => row.name)).toEqual(names);
          for (const row of stored) {
            expect(row.name_folded).toBe(foldName(row.name));
            expect(row.name_folded).toBe(definition(row.name));
          }
          // And the search built from any of those names (folded by the listing) finds that event.
          for (const [n, text] of names.entries()) {
            const found = (await allPages(t, [100], { search: text.slice(0, 100) })).flat();
            expect(found.map((item) => item.id)).toContain(`e${n}`);
          }
        }),
        { numRuns: 30 },
      );
    });
  });

  describe('query plans (the cost of a page does not grow with its depth or the place)', () => {
    it('a page after a cursor is one range of the keyset index, started at the cursor', async () => {
      await seed(t);
      const text = await queryPlan(
        t.db,
        eventPageQuery(t.db, query({ after: { registeredAt: T0, id: 'e1' } })).compile(),
      );
      expect(text).toContain('pos_events_keyset');
      if (isPostgres(t.db)) expect(text).toMatch(/Index Cond: .*ROW\(registered_at, \(id\)::text\) < ROW/);
      else expect(text).toContain('(registered_at,id)<(?,?)');
      expect(text).not.toMatch(/TEMP B-TREE|Sort/);
    });

    it('a search walks the keyset index in the listing order (no sort), any page deep', async () => {
      await seed(t);
      const after = { registeredAt: T0, id: 'e1' };
      const text = await queryPlan(t.db, eventPageQuery(t.db, query({ search: 'sao', after })).compile());
      expect(text).toContain('pos_events_keyset');
      expect(text).not.toMatch(/TEMP B-TREE|Sort/);
    });

    it('migration 0004 replaces the page index on stored events; down and up again, the same pages', async () => {
      await seed(t);
      for (let n = 1; n <= 9; n += 1) await event(t, `e${n}`, n % 3 === 0 ? `São ${n}` : `Bar ${n}`, n % 4);
      const before = [await allPages(t, [2]), await allPages(t, [2], { search: 'SAO' })];
      const migrator = await createMigrator(t.db);
      expect((await migrator.migrateTo('0003-sales-buckets')).error).toBeUndefined();
      expect(await allPages(t, [2])).toEqual(before[0]);
      expect((await migrateToLatest(t.db)).includes('0004-events-keyset')).toBe(true);
      expect([await allPages(t, [2]), await allPages(t, [2], { search: 'SAO' })]).toEqual(before);
      const text = await queryPlan(
        t.db,
        eventPageQuery(t.db, query({ after: { registeredAt: T0, id: 'e1' } })).compile(),
      );
      expect(text).toContain('pos_events_keyset');
    });

    it('a look-up of one event by its key uses the primary key, whatever the statistics know', async () => {
      await seed(t);
      // The look-up of findEvent and eventExists (the admin PUT's answer, every cursor's check).
      const lookup = t.db
        .selectFrom('pos_events')
        .selectAll()
        .where('account_id', '=', 'acme')
        .where('place_id', '=', 'p1')
        .where('id', '=', 'e1')
        .compile();
      const text = await queryPlan(t.db, lookup);
      expect(text).not.toContain('pos_events_keyset');
      expect(text).toMatch(isPostgres(t.db) ? /pos_events_pk/ : /sqlite_autoindex_pos_events_1/);
    });
  });

  describe('dangling cursor (cursor rules: "valid while the last event of the previous page exists")', () => {
    it('the event a cursor points after was deleted: the listing reports it; other deletions do not', async () => {
      await seed(t);
      for (let n = 1; n <= 5; n += 1) await event(t, `e${n}`, `Event ${n}`, n);
      const first = await page(t, { limit: 2 });
      const position = first.nextPosition!;
      expect(position.id).toBe('e4');
      expect(await eventExists(t.db, 'acme', 'p1', position)).toBe(true);

      // Deleting another event does not invalidate the cursor, and leaves no gap.
      await t.admin('DELETE', `${ACME}/places/p1/events/e5`);
      expect(await ids(t, { limit: 10, after: position })).toEqual(['e3', 'e2', 'e1']);

      await t.admin('DELETE', `${ACME}/places/p1/events/e4`);
      expect(await eventExists(t.db, 'acme', 'p1', position)).toBe(false);
      expect(await listEvents(t.db, query({ limit: 2, after: position }))).toEqual({
        ok: false,
        reason: 'dangling',
      });
      // The first page is always available.
      expect(await ids(t)).toEqual(['e3', 'e2', 'e1']);
    });

    it('an event of the same id in another place or account does not keep a dangling cursor alive', async () => {
      await seed(t);
      await event(t, 'e1', 'Elsewhere', 1, {}, `${ACME}/places/p2`);
      await event(t, 'e1', 'Other account', 1, {}, `${POS}/accounts/other/places/p1`);
      const position = { registeredAt: T0 + MINUTE, id: 'e1' };
      expect(await eventExists(t.db, 'acme', 'p1', position)).toBe(false);
      expect(await listEvents(t.db, query({ after: position }))).toEqual({ ok: false, reason: 'dangling' });
    });

    it('an event replaced with another registration instant keeps its cursor: paging goes on from the position', async () => {
      await seed(t);
      for (let n = 1; n <= 4; n += 1) await event(t, `e${n}`, `Event ${n}`, n);
      const first = await page(t, { limit: 2 });
      await event(t, 'e3', 'Event 3, moved', 50);
      expect(await ids(t, { after: first.nextPosition })).toEqual(['e2', 'e1']);
    });
  });
});
