import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { ACCOUNTS, API, createAccountKey, invalid, notFound, ok, seedDataAccounts } from './fixtures.js';

// The events route of the point-of-sale API through HTTP (docs/pos-api.md, "Events response", events'
// search, limit, cursor rules and place; States and transitions).
// Everything is seeded through the admin API and read through the public listener, each read one rate
// window after the previous one (fixtures.ts, the data suites).

interface EventsBody {
  place: string;
  search: string | null;
  data: { id: string; name: string; starts_at: string | null; ends_at: string | null; active: boolean }[];
  next_cursor: string | null;
}

describeEachDialect('POS API data: events', (dialect) => {
  const t = useTestApp(dialect);

  const events = async (key: string, query: string) =>
    (await ok(t, key, `${API}/events?${query}`)) as unknown as EventsBody;

  it('events: most recently registered first, deactivated events included, fields in UTC (Events response)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('PUT', `${ACCOUNTS}/acme/places/P1/events/E4`, {
      name: 'Festa',
      starts_at: '2026-12-01T20:00:00-03:00',
      ends_at: '2026-12-02T04:00:00-03:00',
      active: false,
      registered_at: '2026-08-01T12:00:00Z',
    });
    const body = await events(full.key, 'place=P1');
    expect(body).toEqual({
      place: 'P1',
      search: null,
      data: [
        {
          id: 'E4',
          name: 'Festa',
          starts_at: '2026-12-01T23:00:00Z',
          ends_at: '2026-12-02T07:00:00Z',
          active: false,
        },
        { id: 'E2', name: 'Réveillon', starts_at: null, ends_at: null, active: true },
        { id: 'E1', name: 'São João', starts_at: null, ends_at: null, active: true },
      ],
      next_cursor: null,
    });
  });

  it('events: search is case- and accent-insensitive on both sides, echoed as sent (events, search)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const search of ['SAO', 'são', 'S%C3%83O%20jo', 'jo%C3%A3o']) {
      const body = await events(full.key, `place=P1&search=${search}`);
      expect(
        body.data.map((e) => e.id),
        search,
      ).toEqual(['E1']);
      expect(body.search).toBe(decodeURIComponent(search));
    }
    expect((await events(full.key, 'place=P1&search=reveillon')).data.map((e) => e.id)).toEqual(['E2']);
    expect((await events(full.key, 'place=P1&search=xyz')).data).toEqual([]);
    // Names stored decomposed or in other scripts' capitals fold alike.
    await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/F1`, { name: 'FESTA DE VERÃO' });
    await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/F2`, { name: 'Cafe\u0301 İstanbul' });
    const ids = async (search: string) =>
      (await events(full.key, `place=P2&search=${encodeURIComponent(search)}`)).data.map((e) => e.id);
    expect(await ids('verao')).toEqual(['F1']);
    expect(await ids('Verão')).toEqual(['F1']);
    expect(await ids('café')).toEqual(['F2']);
    expect(await ids('ISTANBUL')).toEqual(['F2']);
    expect(await ids('e\u0301 i')).toEqual(['F2']);
  });

  it('events: % _ and backslash in search are plain text, not wildcards (events, search)', async () => {
    const { full } = await seedDataAccounts(t);
    const names: Record<string, string> = {
      W1: '50% off',
      W2: 'a_b',
      W3: 'back\\slash',
      W4: '500 off',
      W5: 'axb',
    };
    for (const [id, name] of Object.entries(names)) {
      await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/${id}`, { name });
    }
    const ids = async (search: string) =>
      (await events(full.key, `place=P2&search=${encodeURIComponent(search)}`)).data.map((e) => e.id);
    expect(await ids('%')).toEqual(['W1']);
    expect(await ids('0% o')).toEqual(['W1']);
    expect(await ids('_')).toEqual(['W2']);
    expect(await ids('a_b')).toEqual(['W2']);
    expect(await ids('\\')).toEqual(['W3']);
    expect(await ids('k\\s')).toEqual(['W3']);
  });

  it('events: limit defaults to 50 and accepts 1 to 100; outside gives 422 param limit (events, limit)', async () => {
    const { full } = await seedDataAccounts(t);
    for (let i = 0; i < 55; i += 1) {
      await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/N${i}`, {
        name: `N${i}`,
        registered_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      });
    }
    const first = await events(full.key, 'place=P2');
    expect(first.data).toHaveLength(50);
    expect(first.next_cursor).not.toBeNull();
    expect((await events(full.key, 'place=P2&limit=1')).data).toHaveLength(1);
    // A last page exactly as long as the limit has no next cursor.
    expect(await events(full.key, 'place=P1&limit=2')).toMatchObject({ next_cursor: null });
    const all = await events(full.key, 'place=P2&limit=100');
    expect(all.data).toHaveLength(56);
    expect(all.next_cursor).toBeNull();
    for (const bad of ['0', '101', '-1', '1.5', 'abc', '', '%2B5']) {
      expect((await invalid(t, full.key, `${API}/events?place=P2&limit=${bad}`)).param, bad).toBe('limit');
    }
  });

  it('events: paging with next_cursor and a limit that changes between pages has no repeats or gaps (events, cursor rules)', async () => {
    const { full } = await seedDataAccounts(t);
    // 17 events, some registered at the same instant (ties broken by id).
    for (let i = 0; i < 17; i += 1) {
      await t.admin('PUT', `${ACCOUNTS}/acme/places/P2/events/Q${String.fromCharCode(65 + i)}`, {
        name: `Q${i}`,
        registered_at: new Date(Date.UTC(2026, 3, 1) + Math.floor(i / 3) * 3_600_000).toISOString(),
      });
    }
    const expected = (await events(full.key, 'place=P2&limit=100')).data.map((e) => e.id);
    expect(expected).toHaveLength(18);
    // Most recently registered first: the groups of one registration instant, latest group first (E3,
    // registered in February, last); the order within a group is the implementation's (by id).
    const groupOf = (id: string) => (id === 'E3' ? -1 : Math.floor((id.charCodeAt(1) - 65) / 3));
    const groups = expected.map(groupOf);
    expect(groups).toEqual([...groups].sort((a, b) => b - a));
    for (const limits of [
      [5, 3, 7, 1, 100],
      [1, 2, 3, 4, 5, 6],
      [17, 1],
    ]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let index = 0;
      do {
        const limit = limits[Math.min(index, limits.length - 1)]!;
        const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const page: EventsBody = await events(full.key, `place=P2&limit=${limit}${after}`);
        expect(page.data.length).toBeLessThanOrEqual(limit);
        seen.push(...page.data.map((e) => e.id));
        cursor = page.next_cursor;
        index += 1;
      } while (cursor !== null);
      expect(seen, limits.join(',')).toEqual(expected);
    }
  });

  it('events: a cursor used with another place gives 422 param cursor, does not belong (events, cursor rules)', async () => {
    const { full } = await seedDataAccounts(t);
    const page = await events(full.key, 'place=P1&limit=1');
    expect(page.next_cursor).not.toBeNull();
    const refused = await invalid(
      t,
      full.key,
      `${API}/events?place=P2&cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expect(refused).toMatchObject({ param: 'cursor', detail: '"cursor" does not belong to this query.' });
  });

  it('events: a cursor not issued by the API gives 422 "cursor" is not valid. (events, cursor rules)', async () => {
    const { full } = await seedDataAccounts(t);
    const page = await events(full.key, 'place=P1&limit=1');
    const genuine = page.next_cursor!;
    const flipped = `${genuine.slice(0, -1)}${genuine.endsWith('A') ? 'B' : 'A'}`;
    const forgedPayload = Buffer.from(JSON.stringify([1, 'acme', 'P1', 0, 'E1'])).toString('base64url');
    for (const forged of ['abc', 'abc.def', flipped, `${forgedPayload}.${genuine.split('.')[1]}`]) {
      const refused = await invalid(
        t,
        full.key,
        `${API}/events?place=P1&cursor=${encodeURIComponent(forged)}`,
      );
      expect(refused, forged).toMatchObject({ param: 'cursor', detail: '"cursor" is not valid.' });
    }
    expect((await invalid(t, full.key, `${API}/events?place=P1&cursor=`)).param).toBe('cursor');
  });

  it('events: a cursor whose event was deleted gives 422 "cursor" is not valid. (events, cursor rules)', async () => {
    const { full } = await seedDataAccounts(t);
    const page = await events(full.key, 'place=P1&limit=1');
    expect(page.data.map((e) => e.id)).toEqual(['E2']);
    await t.admin('DELETE', `${ACCOUNTS}/acme/places/P1/events/E2`);
    const refused = await invalid(
      t,
      full.key,
      `${API}/events?place=P1&cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expect(refused).toMatchObject({ param: 'cursor', detail: '"cursor" is not valid.' });
  });

  it("events: a genuine cursor of another account's place of the same id does not belong to this query (events, cursor rules)", async () => {
    const { full } = await seedDataAccounts(t);
    const page = await events(full.key, 'place=P1&limit=1');
    await t.admin('PUT', `${ACCOUNTS}/other/places/P1/events/X1`, { name: 'Alheio' });
    const otherKey = await createAccountKey(t, 'other', { name: 'Outra', permissions: ['event.view'] });
    const refused = await invalid(
      t,
      otherKey.key,
      `${API}/events?place=P1&cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expect(refused).toMatchObject({ param: 'cursor', detail: '"cursor" does not belong to this query.' });
  });

  it('events: a cursor does not expire by time (events, cursor rules)', async () => {
    const { full } = await seedDataAccounts(t);
    const page = await events(full.key, 'place=P1&limit=1');
    t.clock.advance(200 * 86_400_000);
    const next = await events(full.key, `place=P1&limit=1&cursor=${encodeURIComponent(page.next_cursor!)}`);
    expect(next.data.map((e) => e.id)).toEqual(['E1']);
    expect(next.next_cursor).toBeNull();
  });

  it('events: search counts characters, not bytes: 100 accented characters or emoji are accepted, 101 refused (events, search; Limits)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const char of ['é', '😀']) {
      const hundred = encodeURIComponent(char.repeat(100));
      expect((await events(full.key, `place=P1&search=${hundred}`)).search).toBe(char.repeat(100));
      const refused = await invalid(
        t,
        full.key,
        `${API}/events?place=P1&search=${encodeURIComponent(char.repeat(101))}`,
      );
      expect(refused.param).toBe('search');
    }
  });

  it('events: a place of another account with the same id pattern, or a place removed from the key, gives 404 param place (events, place; States and transitions)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
    await t.admin('PUT', `${ACCOUNTS}/other/places/OnlyOther`, { timezone: 'America/Sao_Paulo' });
    expect((await notFound(t, full.key, `${API}/events?place=OnlyOther`)).param).toBe('place');
    await t.admin('PATCH', `${ACCOUNTS}/acme/keys/${p1Only.id}`, { places: ['P2'] });
    expect((await notFound(t, p1Only.key, `${API}/events?place=P1`)).param).toBe('place');
    expect((await ok(t, p1Only.key, `${API}/places`)).data).toEqual([
      { id: 'P2', name: 'Praia', timezone: 'America/Recife', active: null },
    ]);
  });

  it('events: a place outside the key or nonexistent gives 404 param place (events, place)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
    expect((await notFound(t, p1Only.key, `${API}/events?place=P2`)).param).toBe('place');
    expect((await notFound(t, full.key, `${API}/events?place=P9`)).param).toBe('place');
    expect((await ok(t, p1Only.key, `${API}/events?place=P1`)).place).toBe('P1');
  });

  it('events: place absent, empty or a list gives 422 param place (events, place)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const query of ['', 'place=', 'place=P1,P2', 'place[]=P1', 'search=x']) {
      expect((await invalid(t, full.key, `${API}/events?${query}`)).param, query).toBe('place');
    }
  });

  it('events: an empty search, a control or invisible character, or over 100 characters gives 422 param search (events, search)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const search of ['', '%00', 'a%0Ab', 'a%E2%80%8Bb', 'x'.repeat(101)]) {
      expect((await invalid(t, full.key, `${API}/events?place=P1&search=${search}`)).param, search).toBe(
        'search',
      );
    }
    expect((await events(full.key, `place=P1&search=${'x'.repeat(100)}`)).data).toEqual([]);
  });
});
