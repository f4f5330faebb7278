import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp, type TestApp } from '../helper.js';
import { CODES, referenceFigures } from './figures-reference.js';
import {
  bounds,
  countedReceipts,
  generatedReceipt,
  isoAt,
  offset,
  receiptBody,
  type Location,
} from './random-receipts.js';

// The data of the point-of-sale API through HTTP (pos-data-api.md, "Resources and their fields",
// "Endpoints", "Errors" and its `param` choice, "Receipts-by-payment-method response", "What counts
// toward the total", "Brand rules", the planned routes; DECISIONS, POS data API). Everything is seeded
// through the admin API and read through the public listener.
//
// Rate limits: the heavy class allows 10 calls a minute per key (30 per account on sales routes) and the
// window is sliding over the last 60 seconds. Every public call below first advances the manual clock by
// 61 s, so that each call meets an empty window and no test depends on how many calls came before it.
// 61 s per call moves the clock by at most a few hours over a test: far from key expiry (12 months) and
// from the end of a rotation's 24-hour grace.

const ADMIN = '/admin/v1/pos/accounts';
const API = '/v1/api-public';
const STEP_MS = 61_000;

interface Keys {
  /** All places, both permissions. */
  full: { id: string; key: string; expires_at: string };
  /** Only place P1, both permissions. */
  p1Only: { id: string; key: string; expires_at: string };
  /** All places, no permission. */
  bare: { id: string; key: string; expires_at: string };
}

async function createKey(
  t: TestApp,
  account: string,
  body: Record<string, unknown>,
): Promise<{ id: string; key: string; expires_at: string }> {
  const created = await t.admin('POST', `${ADMIN}/${account}/keys`, body);
  return JSON.parse(created.body) as { id: string; key: string; expires_at: string };
}

/** acme (USD): P1, P2 active, P3 deactivated; events E1, E2 in P1 and E3 in P2. other (BRL): its own P1. */
async function seed(t: TestApp): Promise<Keys> {
  await t.admin('PUT', `${ADMIN}/acme`, { name: 'Acme Bares', currency: 'USD' });
  await t.admin('PUT', `${ADMIN}/other`, { name: 'Outra' });
  await t.admin('PUT', `${ADMIN}/acme/places/P1`, { name: 'Centro', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ADMIN}/acme/places/P2`, { name: 'Praia', timezone: 'America/Recife' });
  await t.admin('PUT', `${ADMIN}/acme/places/P3`, {
    name: 'Fechado',
    timezone: 'America/Manaus',
    active: false,
  });
  await t.admin('PUT', `${ADMIN}/other/places/P1`, { name: 'Alheio', timezone: 'America/Sao_Paulo' });
  await t.admin('PUT', `${ADMIN}/acme/places/P1/events/E1`, {
    name: 'São João',
    registered_at: '2026-06-01T12:00:00Z',
  });
  await t.admin('PUT', `${ADMIN}/acme/places/P1/events/E2`, {
    name: 'Réveillon',
    registered_at: '2026-07-01T12:00:00Z',
  });
  await t.admin('PUT', `${ADMIN}/acme/places/P2/events/E3`, {
    name: 'Carnaval',
    registered_at: '2026-02-01T12:00:00Z',
  });
  const both = ['event.view', 'sale-by-payment-method.view'];
  return {
    full: await createKey(t, 'acme', { name: 'ERP', permissions: both }),
    p1Only: await createKey(t, 'acme', { name: 'Centro only', permissions: both, places: ['P1'] }),
    bare: await createKey(t, 'acme', { name: 'Nothing', permissions: [] }),
  };
}

/** A GET with the key, one window of the rate limits later (see the top of the file). */
async function get(t: TestApp, key: string, url: string): Promise<LightMyRequestResponse> {
  t.clock.advance(STEP_MS);
  return t.call({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
}

/** The body of a 200 (fails with the body otherwise). */
async function ok(t: TestApp, key: string, url: string): Promise<Record<string, unknown>> {
  const response = await get(t, key, url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return JSON.parse(response.body) as Record<string, unknown>;
}

/** The `param` and `detail` of an error of the given status and code. */
async function problem(
  t: TestApp,
  key: string,
  url: string,
  status: number,
  code: string,
): Promise<{ param?: string; detail: string }> {
  const response = await get(t, key, url);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(status);
  const body = JSON.parse(response.body) as { code: string; param?: string; detail: string };
  expect(body.code).toBe(code);
  return body;
}

const invalid = (t: TestApp, key: string, url: string) => problem(t, key, url, 422, 'invalid_parameter');
const notFound = (t: TestApp, key: string, url: string) => problem(t, key, url, 404, 'not_found');

const SALES = `${API}/sales/by-payment-method`;
const DAY_F = '2026-11-19T00:00:00-03:00';
const DAY_T = '2026-11-20T00:00:00-03:00';
const sales = (query: string) => `${SALES}?${query}`;
const day = (extra = '') => sales(`place=P1&from=${DAY_F}&to=${DAY_T}${extra}`);

const WHOLE_SECONDS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describeEachDialect('POS API data: ping and places', (dialect) => {
  const t = useTestApp(dialect);

  it('ping: credential, account, rate_limit, server_time and api_version v1 (Ping response)', async () => {
    const { full } = await seed(t);
    const body = await ok(t, full.key, `${API}/ping`);
    expect(body).toEqual({
      credential: {
        id: full.id,
        name: 'ERP',
        permissions: ['event.view', 'sale-by-payment-method.view'],
        expires_at: full.expires_at,
        superseded: false,
        superseded_until: null,
      },
      account: { id: 'acme', name: 'Acme Bares' },
      rate_limit: { default_per_minute: 60, heavy_per_minute: 10 },
      server_time: new Date(t.clock.now()).toISOString().replace('.000Z', 'Z'),
      api_version: 'v1',
    });
    expect(full.expires_at).toMatch(WHOLE_SECONDS_UTC);
  });

  it('ping: expires_at is UTC with Z in whole seconds, 23:59:59 of the chosen date in UTC-03:00 (Ping response; DECISIONS)', async () => {
    await seed(t);
    const chosen = await createKey(t, 'acme', { name: 'Dated', expires_on: '2027-01-15' });
    const body = (await ok(t, chosen.key, `${API}/ping`)) as { credential: { expires_at: string } };
    expect(body.credential.expires_at).toBe('2027-01-16T02:59:59Z');
  });

  it('ping: credential.id is stable across rotations and new for a newly created key; the previous key sees superseded (Ping response; DECISIONS)', async () => {
    const { full } = await seed(t);
    const rotated = await t.admin('POST', `${ADMIN}/acme/keys/${full.id}/rotate`, {});
    const { key: newKey, previous_valid_until } = JSON.parse(rotated.body) as {
      key: string;
      previous_valid_until: string;
    };
    const current = (await ok(t, newKey, `${API}/ping`)) as {
      credential: { id: string; superseded: boolean; superseded_until: string | null };
    };
    expect(current.credential).toMatchObject({ id: full.id, superseded: false, superseded_until: null });
    const previous = (await ok(t, full.key, `${API}/ping`)) as typeof current;
    expect(previous.credential).toMatchObject({
      id: full.id,
      superseded: true,
      superseded_until: previous_valid_until,
    });
    expect(previous.credential.superseded_until).toMatch(WHOLE_SECONDS_UTC);

    const again = await t.admin('POST', `${ADMIN}/acme/keys/${full.id}/rotate`, {});
    const third = (await ok(
      t,
      (JSON.parse(again.body) as { key: string }).key,
      `${API}/ping`,
    )) as typeof current;
    expect(third.credential.id).toBe(full.id);

    const fresh = await createKey(t, 'acme', { name: 'ERP' });
    const other = (await ok(t, fresh.key, `${API}/ping`)) as typeof current;
    expect(other.credential.id).toBe(fresh.id);
    expect(other.credential.id).not.toBe(full.id);
    expect(other.credential.id).toMatch(/^[A-Za-z0-9]{1,64}$/);
  });

  it('ping: a permission removed from the key is no longer listed (States and transitions)', async () => {
    const { full } = await seed(t);
    await t.admin('PATCH', `${ADMIN}/acme/keys/${full.id}`, { permissions: ['event.view'] });
    const body = (await ok(t, full.key, `${API}/ping`)) as { credential: { permissions: string[] } };
    expect(body.credential.permissions).toEqual(['event.view']);
  });

  it('places: all true for an all-places key, every place of the account with active, deactivated ones listed (Places response)', async () => {
    const { full } = await seed(t);
    const body = (await ok(t, full.key, `${API}/places`)) as { all: boolean; data: { id: string }[] };
    expect(body.all).toBe(true);
    expect([...body.data].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
      { id: 'P1', name: 'Centro', timezone: 'America/Sao_Paulo', active: null },
      { id: 'P2', name: 'Praia', timezone: 'America/Recife', active: null },
      { id: 'P3', name: 'Fechado', timezone: 'America/Manaus', active: false },
    ]);
  });

  it('places: a key with a place list sees only those places and all false (Places response)', async () => {
    const { p1Only } = await seed(t);
    const body = await ok(t, p1Only.key, `${API}/places`);
    expect(body).toEqual({
      all: false,
      data: [{ id: 'P1', name: 'Centro', timezone: 'America/Sao_Paulo', active: null }],
    });
  });

  it('places: a deactivated place remains queryable (Places response)', async () => {
    const { full } = await seed(t);
    await t.admin('PUT', `${ADMIN}/acme/places/P3/events/E9`, { name: 'Último' });
    const events = (await ok(t, full.key, `${API}/events?place=P3`)) as { data: { id: string }[] };
    expect(events.data.map((e) => e.id)).toEqual(['E9']);
    const figures = await ok(t, full.key, sales(`place=P3&from=${DAY_F}&to=${DAY_T}`));
    expect(figures).toMatchObject({ place: 'P3', total: { count: 0, amount: '0.00' }, data: [] });
  });

  it('ping and places take no parameters: an unknown one is refused (Endpoints)', async () => {
    const { full } = await seed(t);
    expect((await invalid(t, full.key, `${API}/ping?verbose=1`)).param).toBe('verbose');
    expect((await invalid(t, full.key, `${API}/places?place=P1`)).param).toBe('place');
  });
});

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
    const { full } = await seed(t);
    await t.admin('PUT', `${ADMIN}/acme/places/P1/events/E4`, {
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
    const { full } = await seed(t);
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
    await t.admin('PUT', `${ADMIN}/acme/places/P2/events/F1`, { name: 'FESTA DE VERÃO' });
    await t.admin('PUT', `${ADMIN}/acme/places/P2/events/F2`, { name: 'Cafe\u0301 İstanbul' });
    const ids = async (search: string) =>
      (await events(full.key, `place=P2&search=${encodeURIComponent(search)}`)).data.map((e) => e.id);
    expect(await ids('verao')).toEqual(['F1']);
    expect(await ids('Verão')).toEqual(['F1']);
    expect(await ids('café')).toEqual(['F2']);
    expect(await ids('ISTANBUL')).toEqual(['F2']);
    expect(await ids('e\u0301 i')).toEqual(['F2']);
  });

  it('events: % _ and backslash in search are plain text, not wildcards (events, search)', async () => {
    const { full } = await seed(t);
    const names: Record<string, string> = {
      W1: '50% off',
      W2: 'a_b',
      W3: 'back\\slash',
      W4: '500 off',
      W5: 'axb',
    };
    for (const [id, name] of Object.entries(names)) {
      await t.admin('PUT', `${ADMIN}/acme/places/P2/events/${id}`, { name });
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
    const { full } = await seed(t);
    for (let i = 0; i < 55; i += 1) {
      await t.admin('PUT', `${ADMIN}/acme/places/P2/events/N${i}`, {
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
    const { full } = await seed(t);
    // 17 events, some registered at the same instant (ties broken by id).
    for (let i = 0; i < 17; i += 1) {
      await t.admin('PUT', `${ADMIN}/acme/places/P2/events/Q${String.fromCharCode(65 + i)}`, {
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
    const { full } = await seed(t);
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
    const { full } = await seed(t);
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
    const { full } = await seed(t);
    const page = await events(full.key, 'place=P1&limit=1');
    expect(page.data.map((e) => e.id)).toEqual(['E2']);
    await t.admin('DELETE', `${ADMIN}/acme/places/P1/events/E2`);
    const refused = await invalid(
      t,
      full.key,
      `${API}/events?place=P1&cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expect(refused).toMatchObject({ param: 'cursor', detail: '"cursor" is not valid.' });
  });

  it("events: a genuine cursor of another account's place of the same id does not belong to this query (events, cursor rules)", async () => {
    const { full } = await seed(t);
    const page = await events(full.key, 'place=P1&limit=1');
    await t.admin('PUT', `${ADMIN}/other/places/P1/events/X1`, { name: 'Alheio' });
    const otherKey = await createKey(t, 'other', { name: 'Outra', permissions: ['event.view'] });
    const refused = await invalid(
      t,
      otherKey.key,
      `${API}/events?place=P1&cursor=${encodeURIComponent(page.next_cursor!)}`,
    );
    expect(refused).toMatchObject({ param: 'cursor', detail: '"cursor" does not belong to this query.' });
  });

  it('events: a cursor does not expire by time (events, cursor rules)', async () => {
    const { full } = await seed(t);
    const page = await events(full.key, 'place=P1&limit=1');
    t.clock.advance(200 * 86_400_000);
    const next = await events(full.key, `place=P1&limit=1&cursor=${encodeURIComponent(page.next_cursor!)}`);
    expect(next.data.map((e) => e.id)).toEqual(['E1']);
    expect(next.next_cursor).toBeNull();
  });

  it('events: search counts characters, not bytes: 100 accented characters or emoji are accepted, 101 refused (events, search; Limits)', async () => {
    const { full } = await seed(t);
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
    const { full, p1Only } = await seed(t);
    await t.admin('PUT', `${ADMIN}/other/places/OnlyOther`, { timezone: 'America/Sao_Paulo' });
    expect((await notFound(t, full.key, `${API}/events?place=OnlyOther`)).param).toBe('place');
    await t.admin('PATCH', `${ADMIN}/acme/keys/${p1Only.id}`, { places: ['P2'] });
    expect((await notFound(t, p1Only.key, `${API}/events?place=P1`)).param).toBe('place');
    expect((await ok(t, p1Only.key, `${API}/places`)).data).toEqual([
      { id: 'P2', name: 'Praia', timezone: 'America/Recife', active: null },
    ]);
  });

  it('events: a place outside the key or nonexistent gives 404 param place (events, place)', async () => {
    const { full, p1Only } = await seed(t);
    expect((await notFound(t, p1Only.key, `${API}/events?place=P2`)).param).toBe('place');
    expect((await notFound(t, full.key, `${API}/events?place=P9`)).param).toBe('place');
    expect((await ok(t, p1Only.key, `${API}/events?place=P1`)).place).toBe('P1');
  });

  it('events: place absent, empty or a list gives 422 param place (events, place)', async () => {
    const { full } = await seed(t);
    for (const query of ['', 'place=', 'place=P1,P2', 'place[]=P1', 'search=x']) {
      expect((await invalid(t, full.key, `${API}/events?${query}`)).param, query).toBe('place');
    }
  });

  it('events: an empty search, a control or invisible character, or over 100 characters gives 422 param search (events, search)', async () => {
    const { full } = await seed(t);
    for (const search of ['', '%00', 'a%0Ab', 'a%E2%80%8Bb', 'x'.repeat(101)]) {
      expect((await invalid(t, full.key, `${API}/events?place=P1&search=${search}`)).param, search).toBe(
        'search',
      );
    }
    expect((await events(full.key, `place=P1&search=${'x'.repeat(100)}`)).data).toEqual([]);
  });
});

describeEachDialect('POS API data: parameter rules through HTTP', (dialect) => {
  const t = useTestApp(dialect);

  it('an unknown parameter is refused: the first unknown in param, at most 5 names in the detail, each cut to 40 characters (Errors, param choice)', async () => {
    const { full } = await seed(t);
    const one = await invalid(t, full.key, `${API}/events?place=P1&zeta=1`);
    expect(one.param).toBe('zeta');
    expect(one.detail).toContain('"zeta"');
    const long = 'n'.repeat(45);
    const many = await invalid(t, full.key, `${API}/events?b1=1&place=P1&${long}=2&b3&b4=4&b5=5&b6=6&b7=7`);
    expect(many.param).toBe('b1');
    expect(many.detail).toContain(`"b1", "${'n'.repeat(40)}", "b3", "b4", "b5"`);
    expect(many.detail).not.toContain('n'.repeat(41));
    expect(many.detail).not.toContain('"b6"');
    expect(many.detail).not.toContain('"b7"');
    expect(many.detail).toContain('2 more');
    // Unknown comes before every other problem.
    expect((await invalid(t, full.key, sales('place=P1&place=P2&extra=1'))).param).toBe('extra');
  });

  it('a repeated parameter gives 422 with that param and the fixed detail (Errors, param choice)', async () => {
    const { full } = await seed(t);
    expect(await invalid(t, full.key, `${API}/events?place=P1&place=P1`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
    expect(await invalid(t, full.key, day(`&from=${DAY_F}`))).toMatchObject({
      param: 'from',
      detail: 'Parameter "from" was sent more than once.',
    });
  });

  it('place[]=A is an invalid value: "place" must be a place identifier. (Errors, param choice)', async () => {
    const { full } = await seed(t);
    expect(await invalid(t, full.key, `${API}/events?place[]=P1`)).toMatchObject({
      param: 'place',
      detail: '"place" must be a place identifier.',
    });
    expect(await invalid(t, full.key, sales(`place%5B%5D=P1&from=${DAY_F}&to=${DAY_T}`))).toMatchObject({
      param: 'place',
      detail: '"place" must be a place identifier.',
    });
  });

  it('place[]=A&place[]=B is a repeated place (Endpoints; Errors, param choice)', async () => {
    const { full } = await seed(t);
    expect(await invalid(t, full.key, `${API}/events?place[]=P1&place[]=P2`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
    expect(
      await invalid(t, full.key, sales(`place[]=P1&place[]=P2&from=${DAY_F}&to=${DAY_T}`)),
    ).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
  });

  it('place=A&place[]=B is a repeated place too (Endpoints)', async () => {
    const { full } = await seed(t);
    expect(await invalid(t, full.key, `${API}/events?place=P1&place[]=P2`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
  });

  it('a comma list of places or events gives 422 with that param (by-payment-method, place and event)', async () => {
    const { full } = await seed(t);
    expect((await invalid(t, full.key, sales(`place=P1,P2&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await invalid(t, full.key, sales(`place=P1%2CP2&from=${DAY_F}&to=${DAY_T}`))).param).toBe(
      'place',
    );
    expect((await invalid(t, full.key, day('&event=E1,E2'))).param).toBe('event');
  });

  it('an identifier of another shape gives 422 with that param (DECISIONS: ^[A-Za-z0-9]{1,64}$)', async () => {
    const { full } = await seed(t);
    for (const bad of ['P-1', 'P_1', 'P%201', 'P%C3%A1', 'x'.repeat(65)]) {
      expect((await invalid(t, full.key, `${API}/events?place=${bad}`)).param, bad).toBe('place');
      expect((await invalid(t, full.key, day(`&event=${bad}`))).param, bad).toBe('event');
    }
    // 64 characters is an identifier: unknown, so 404.
    expect((await notFound(t, full.key, `${API}/events?place=${'x'.repeat(64)}`)).param).toBe('place');
  });

  it('a date without offset, or not a date, gives 422 with that param (Conventions)', async () => {
    const { full } = await seed(t);
    for (const bad of [
      '2026-11-19T00:00:00',
      '2026-11-19',
      '2026-11-19T00:00',
      '2026-02-30T00:00:00Z',
      'x',
    ]) {
      expect((await invalid(t, full.key, sales(`place=P1&from=${bad}&to=${DAY_T}`))).param, bad).toBe('from');
      expect((await invalid(t, full.key, sales(`place=P1&from=${DAY_F}&to=${bad}`))).param, bad).toBe('to');
    }
  });

  it('a raw + in an offset is refused while %2B works (Conventions)', async () => {
    const { full } = await seed(t);
    expect(
      (await invalid(t, full.key, sales(`place=P1&from=2026-11-19T06:00:00+03:00&to=${DAY_T}`))).param,
    ).toBe('from');
    const body = await ok(
      t,
      full.key,
      sales(`place=P1&from=2026-11-19T06:00:00%2B03:00&to=2026-11-20T03:00:00%2B00:00`),
    );
    expect(body).toMatchObject({ from: '2026-11-19T03:00:00Z', to: '2026-11-20T03:00:00Z' });
  });

  it('fractions of a second are rounded up and from/to echoed in whole UTC seconds (Receipts-by-payment-method response)', async () => {
    const { full } = await seed(t);
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        // Before the rounded start: left out.
        {
          id: 'A',
          place: 'P1',
          occurred_at: '2026-11-19T10:00:00.500Z',
          payment_method: 'cash',
          amount: '1.00',
          kind: 'sale',
        },
        // Exactly at the rounded start: in.
        {
          id: 'B',
          place: 'P1',
          occurred_at: '2026-11-19T10:00:01Z',
          payment_method: 'cash',
          amount: '2.00',
          kind: 'sale',
        },
        // After the sent end but before the rounded end: in.
        {
          id: 'C',
          place: 'P1',
          occurred_at: '2026-11-19T10:59:59.900-01:00',
          payment_method: 'cash',
          amount: '4.00',
          kind: 'sale',
        },
        // At the rounded end: out.
        {
          id: 'D',
          place: 'P1',
          occurred_at: '2026-11-19T12:00:00Z',
          payment_method: 'cash',
          amount: '8.00',
          kind: 'sale',
        },
      ],
    });
    const body = await ok(
      t,
      full.key,
      sales('place=P1&from=2026-11-19T07:00:00.000001-03:00&to=2026-11-19T11:59:59.1Z'),
    );
    expect(body).toMatchObject({
      from: '2026-11-19T10:00:01Z',
      to: '2026-11-19T12:00:00Z',
      total: { count: 2, amount: '6.00' },
    });
    // Zeros in the fraction change nothing.
    expect(
      await ok(t, full.key, sales('place=P1&from=2026-11-19T10:00:00.000Z&to=2026-11-19T12:00:00.0Z')),
    ).toMatchObject({
      from: '2026-11-19T10:00:00Z',
      to: '2026-11-19T12:00:00Z',
      total: { count: 3, amount: '7.00' },
    });
  });

  it('from after to gives 422 param from; from equal to to is an empty period (by-payment-method, to)', async () => {
    const { full } = await seed(t);
    expect((await invalid(t, full.key, sales(`place=P1&from=${DAY_T}&to=${DAY_F}`))).param).toBe('from');
    expect((await invalid(t, full.key, day('&event=E1').replace(DAY_F, '2026-12-01T00:00:00Z'))).param).toBe(
      'from',
    );
    // After rounding: the same second, sent with a fraction, is not after.
    expect(
      await ok(t, full.key, sales('place=P1&from=2026-11-19T10:00:00.5Z&to=2026-11-19T10:00:01Z')),
    ).toMatchObject({ from: '2026-11-19T10:00:01Z', to: '2026-11-19T10:00:01Z', data: [] });
  });

  it('from without to, or the reverse, gives 422 naming the missing one; place missing is named (by-payment-method)', async () => {
    const { full } = await seed(t);
    expect((await invalid(t, full.key, sales(`place=P1&from=${DAY_F}`))).param).toBe('to');
    expect((await invalid(t, full.key, sales(`place=P1&to=${DAY_T}`))).param).toBe('from');
    expect((await invalid(t, full.key, sales(`from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await invalid(t, full.key, sales(`place=&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
  });

  it('a period above 120 days gives 422 param to, judged on the rounded period; with event there is no limit (Limits; by-payment-method)', async () => {
    const { full } = await seed(t);
    // Both bounds rounded up by a second: the rounded period is exactly 120 days.
    expect(
      await ok(t, full.key, sales('place=P1&from=2026-01-01T00:00:00.5Z&to=2026-05-01T00:00:00.5Z')),
    ).toMatchObject({ from: '2026-01-01T00:00:01Z', to: '2026-05-01T00:00:01Z' });
    const F = '2026-01-01T00:00:00Z';
    expect(await ok(t, full.key, sales(`place=P1&from=${F}&to=2026-05-01T00:00:00Z`))).toMatchObject({
      to: '2026-05-01T00:00:00Z',
    });
    expect((await invalid(t, full.key, sales(`place=P1&from=${F}&to=2026-05-01T00:00:01Z`))).param).toBe(
      'to',
    );
    expect((await invalid(t, full.key, sales(`place=P1&from=${F}&to=2026-05-01T00:00:00.001Z`))).param).toBe(
      'to',
    );
    expect((await invalid(t, full.key, sales(`place=P1&from=${F}&to=2026-12-01T00:00:00Z`))).param).toBe(
      'to',
    );
    expect(
      await ok(t, full.key, sales(`place=P1&from=2020-01-01T00:00:00Z&to=2026-12-01T00:00:00Z&event=E1`)),
    ).toMatchObject({ event: 'E1', from: '2020-01-01T00:00:00Z' });
  });

  it('an event of another place or nonexistent gives 404 param event; with both wrong, place is reported (by-payment-method, event)', async () => {
    const { full, p1Only } = await seed(t);
    expect((await notFound(t, full.key, day('&event=E3'))).param).toBe('event');
    expect((await notFound(t, full.key, day('&event=E99'))).param).toBe('event');
    expect((await notFound(t, full.key, sales(`place=P9&from=${DAY_F}&to=${DAY_T}&event=E99`))).param).toBe(
      'place',
    );
    expect((await notFound(t, p1Only.key, sales(`place=P2&from=${DAY_F}&to=${DAY_T}&event=E1`))).param).toBe(
      'place',
    );
    // A place of another account with the same id is not this key's event either.
    await t.admin('PUT', `${ADMIN}/other/places/P1/events/X1`, { name: 'Alheio' });
    expect((await notFound(t, full.key, day('&event=X1'))).param).toBe('event');
  });

  it('an empty event is refused with param event; a deleted event gives 404 param event (by-payment-method, event)', async () => {
    const { full } = await seed(t);
    expect((await invalid(t, full.key, day('&event='))).param).toBe('event');
    expect((await invalid(t, full.key, day('&event[]=E1'))).param).toBe('event');
    await t.admin('DELETE', `${ADMIN}/acme/places/P1/events/E1`);
    expect((await notFound(t, full.key, day('&event=E1'))).param).toBe('event');
  });

  it('a place outside the key or nonexistent gives 404 param place (by-payment-method, place)', async () => {
    const { full, p1Only } = await seed(t);
    // Identifiers are compared as text, case included.
    expect((await notFound(t, full.key, sales(`place=p1&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await notFound(t, full.key, day('&event=e1'))).param).toBe('event');
    expect((await notFound(t, p1Only.key, sales(`place=P2&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await notFound(t, full.key, sales(`place=P9&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
  });
});

describeEachDialect('POS API data: sales figures', (dialect) => {
  const t = useTestApp(dialect);

  const receipt = (id: string, fields: Record<string, unknown>) => ({
    id,
    place: 'P1',
    occurred_at: '2026-11-19T12:00:00-03:00',
    payment_method: 'cash',
    amount: '1.00',
    kind: 'sale',
    ...fields,
  });

  it('what counts: paid sale, tab, cashless top-up and activation; nothing else, and refunds are not subtracted (What counts toward the total)', async () => {
    const { full } = await seed(t);
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        receipt('C1', { kind: 'sale', amount: '10.00' }),
        receipt('C2', { kind: 'tab', amount: '20.00' }),
        receipt('C3', { kind: 'cashless_topup', amount: '40.00' }),
        receipt('C4', { kind: 'cashless_activation', amount: '80.00' }),
        receipt('X1', { kind: 'sale', status: 'unpaid', amount: '1000.00' }),
        receipt('X2', { kind: 'sale', status: 'cancelled', amount: '1000.00' }),
        receipt('X3', { kind: 'sale', demo: true, amount: '1000.00' }),
        receipt('X4', { kind: 'cashless_consumption', amount: '1000.00' }),
        receipt('X5', { kind: 'withdrawal', amount: '-1000.00' }),
        receipt('X6', { kind: 'supply', amount: '1000.00' }),
        receipt('X7', { kind: 'refund_item', amount: '-10.00' }),
        receipt('X8', { kind: 'refund_product', amount: '-10.00' }),
        receipt('X9', { kind: 'refund_cashless', amount: '-10.00' }),
        receipt('XA', { kind: 'cashless_return', amount: '-10.00' }),
        receipt('XB', { kind: null, amount: '1000.00', payment_method: 'pos' }),
        receipt('XC', { kind: 'tab', demo: true, payment_method: 'voucher', amount: '3.00' }),
        // Other place, other account, outside the period: never in.
        receipt('Y1', { place: 'P2', amount: '1000.00' }),
        receipt('Y2', { occurred_at: '2026-11-20T00:00:00-03:00', amount: '1000.00' }),
        receipt('Y3', { occurred_at: '2026-11-18T23:59:59-03:00', amount: '1000.00' }),
      ],
    });
    await t.admin('POST', `${ADMIN}/other/receipts`, { receipts: [receipt('Z1', { amount: '1000.00' })] });
    const body = await ok(t, full.key, day());
    expect(body).toEqual({
      from: '2026-11-19T03:00:00Z',
      to: '2026-11-20T03:00:00Z',
      place: 'P1',
      event: null,
      currency: 'USD',
      total: { count: 4, amount: '150.00' },
      data: [
        {
          payment_method: 'cash',
          label: 'Dinheiro',
          count: 4,
          amount: '150.00',
          share: '100.000',
          brands: [],
        },
      ],
    });
  });

  it('an empty period gives data [] and a zero total; currency comes from the account (Receipts-by-payment-method response)', async () => {
    const { full } = await seed(t);
    expect(await ok(t, full.key, day())).toEqual({
      from: '2026-11-19T03:00:00Z',
      to: '2026-11-20T03:00:00Z',
      place: 'P1',
      event: null,
      currency: 'USD',
      total: { count: 0, amount: '0.00' },
      data: [],
    });
    const other = await createKey(t, 'other', { name: 'BRL', permissions: ['sale-by-payment-method.view'] });
    expect(await ok(t, other.key, day())).toMatchObject({ currency: 'BRL', place: 'P1' });
  });

  it('methods in the order of the table, unknown codes as other; brands only on TEF methods; shares of the total (Receipts-by-payment-method response)', async () => {
    const { full } = await seed(t);
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        receipt('M1', { payment_method: 'other', amount: '1.00' }),
        receipt('M2', { payment_method: 'crypto', amount: '2.00' }),
        receipt('M3', { payment_method: 'not_identified', amount: '3.00' }),
        receipt('M4', { payment_method: 'voucher', amount: '4.00', brand: 'VR' }),
        receipt('M5', { payment_method: 'pos', amount: '5.00', brand: 'VISA' }),
        receipt('M6', { payment_method: 'tef_unspecified', amount: '6.00' }),
        receipt('M7', { payment_method: 'tef_pix', amount: '7.00' }),
        receipt('M8', { payment_method: 'tef_others', amount: '8.00', brand: 'X' }),
        receipt('M9', { payment_method: 'tef_voucher_2', amount: '9.00', brand: 'Y' }),
        receipt('MA', { payment_method: 'tef_voucher', amount: '10.00', brand: 'Z' }),
        receipt('MB', { payment_method: 'tef_debit', amount: '11.00', brand: 'ELO' }),
        receipt('MC', { payment_method: 'tef_credit', amount: '12.00', brand: 'VISA' }),
        receipt('MD', { payment_method: 'tef_virtual_wallet', amount: '13.00', brand: 'PicPay' }),
        receipt('ME', { payment_method: 'cash', amount: '14.00', brand: 'VISA' }),
      ],
    });
    const body = (await ok(t, full.key, day())) as {
      total: unknown;
      data: { payment_method: string; label: string; amount: string; share: string; brands: unknown[] }[];
    };
    expect(body.total).toEqual({ count: 14, amount: '105.00' });
    expect(body.data.map((d) => d.payment_method)).toEqual(CODES);
    expect(body.data.map((d) => d.label)).toEqual([
      'Dinheiro',
      'TEF - Carteira digital',
      'TEF - Crédito',
      'TEF - Débito',
      'TEF - Voucher',
      'TEF - Voucher 2',
      'TEF - Outros',
      'TEF - Pix',
      'TEF - Não informado',
      'POS',
      'Voucher',
      'Não identificado',
      'Outros',
    ]);
    const line = (code: string) => body.data.find((d) => d.payment_method === code)!;
    expect(line('other')).toMatchObject({ amount: '3.00', share: '2.857', brands: [] });
    expect(line('cash')).toMatchObject({ amount: '14.00', share: '13.333', brands: [] });
    expect(line('pos').brands).toEqual([]);
    expect(line('voucher').brands).toEqual([]);
    expect(line('tef_credit').brands).toEqual([
      { brand: 'VISA', count: 1, amount: '12.00', share: '11.429' },
    ]);
    expect(line('tef_pix').brands).toEqual([{ brand: null, count: 1, amount: '7.00', share: '6.667' }]);
  });

  it('brands: amount descending, ties by name, OTHER for text outside the format, null last; spaces merged; shares of the total (Brand rules)', async () => {
    const { full } = await seed(t);
    const tef = (id: string, brand: string | null, amount: string) =>
      receipt(id, { payment_method: 'tef_credit', brand, amount });
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        tef('B1', 'VISA', '10.00'),
        tef('B2', '  VISA ', '5.00'),
        tef('B3', 'Visa', '15.00'),
        tef('B4', 'MASTER  CARD', '3.00'),
        tef('B5', 'MASTER CARD', '2.00'),
        tef('B6', 'ELO', '5.00'),
        tef('B7', 'Cielo Visa Débito', '1.00'),
        tef('B8', 'A'.repeat(41), '1.00'),
        tef('B9', '#1', '1.00'),
        tef('BA', null, '50.00'),
        tef('BB', 'AMEX', '-2.00'),
        receipt('BC', { amount: '9.00' }),
      ],
    });
    const body = (await ok(t, full.key, day())) as {
      total: unknown;
      data: { payment_method: string; count: number; amount: string; share: string; brands: unknown[] }[];
    };
    expect(body.total).toEqual({ count: 12, amount: '100.00' });
    expect(body.data[1]).toEqual({
      payment_method: 'tef_credit',
      label: 'TEF - Crédito',
      count: 11,
      amount: '91.00',
      share: '91.000',
      brands: [
        { brand: 'VISA', count: 2, amount: '15.00', share: '15.000' },
        { brand: 'Visa', count: 1, amount: '15.00', share: '15.000' },
        { brand: 'ELO', count: 1, amount: '5.00', share: '5.000' },
        { brand: 'MASTER CARD', count: 2, amount: '5.00', share: '5.000' },
        { brand: 'OTHER', count: 3, amount: '3.00', share: '3.000' },
        { brand: 'AMEX', count: 1, amount: '-2.00', share: '-2.000' },
        { brand: null, count: 1, amount: '50.00', share: '50.000' },
      ],
    });
  });

  it('shares: three decimals, half away from zero, "0.000" when the total is zero, may be negative or above 100 (Receipts-by-payment-method response; DECISIONS)', async () => {
    const { full } = await seed(t);
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        receipt('S1', { amount: '1.00' }),
        receipt('S2', { payment_method: 'pos', amount: '2.00' }),
        // 1/3 = 33.333..., 2/3 = 66.666... → 66.667.
      ],
    });
    const thirds = (await ok(t, full.key, day())) as { data: { share: string }[] };
    expect(thirds.data.map((d) => d.share)).toEqual(['33.333', '66.667']);

    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        receipt('S1', { amount: '5.00', occurred_at: '2026-11-21T12:00:00-03:00' }),
        receipt('S2', { payment_method: 'pos', amount: '-5.00', occurred_at: '2026-11-21T12:00:00-03:00' }),
        receipt('S3', { amount: '3.00', occurred_at: '2026-11-22T12:00:00-03:00' }),
        receipt('S4', { payment_method: 'pos', amount: '-1.00', occurred_at: '2026-11-22T12:00:00-03:00' }),
      ],
    });
    const zero = await ok(
      t,
      full.key,
      sales('place=P1&from=2026-11-21T00:00:00-03:00&to=2026-11-22T00:00:00-03:00'),
    );
    expect(zero).toMatchObject({
      total: { count: 2, amount: '0.00' },
      data: [
        { payment_method: 'cash', share: '0.000' },
        { payment_method: 'pos', share: '0.000' },
      ],
    });
    const negative = await ok(
      t,
      full.key,
      sales('place=P1&from=2026-11-22T00:00:00-03:00&to=2026-11-23T00:00:00-03:00'),
    );
    expect(negative).toMatchObject({
      total: { count: 2, amount: '2.00' },
      data: [
        { payment_method: 'cash', share: '150.000' },
        { payment_method: 'pos', share: '-50.000' },
      ],
    });
  });

  it('event: only receipts recorded with that event count, and event is echoed (What counts toward the total)', async () => {
    const { full } = await seed(t);
    await t.admin('POST', `${ADMIN}/acme/receipts`, {
      receipts: [
        receipt('E1a', { event: 'E1', amount: '10.00' }),
        receipt('E1b', { event: 'E1', amount: '1.00', occurred_at: '2025-01-01T00:00:00Z' }),
        receipt('E2a', { event: 'E2', amount: '20.00' }),
        receipt('N1', { amount: '40.00' }),
      ],
    });
    expect(await ok(t, full.key, day('&event=E1'))).toMatchObject({
      event: 'E1',
      total: { count: 1, amount: '10.00' },
    });
    expect(await ok(t, full.key, day())).toMatchObject({ event: null, total: { count: 3, amount: '70.00' } });
  });
});

// ---------------------------------------------------------------------------------------------------
// The property the issue asks for, at route level: random receipts ingested through the admin API,
// random periods queried with random UTC offsets (URL-encoded), the route's figures equal the
// independent computation of figures-reference.ts from the raw receipts.

const LOCATIONS: [Location, Location, Location] = [
  { account: 'acme', place: 'P1', events: ['E1', 'E2'] },
  { account: 'acme', place: 'P2', events: ['E3'] },
  { account: 'other', place: 'P1', events: [] },
];
const generatedArb = generatedReceipt(LOCATIONS);

/** A query of acme's places: a period with offsets of its own for each bound, maybe an event of the place. */
const queryArb = fc.constantFrom(LOCATIONS[0], LOCATIONS[1]).chain((location) =>
  fc.record({
    place: fc.constant(location.place),
    event: fc.option(fc.constantFrom(...location.events), { freq: 3 }),
    bounds,
    fromOffset: offset,
    toOffset: offset,
    zulu: fc.boolean(),
  }),
);

const wireTimeOf = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

describeEachDialect('POS API data: sales figures property at route level', (dialect) => {
  const t = useTestApp(dialect);

  it('figures of GET sales/by-payment-method equal the independent reference of the raw receipts, for random receipts and periods with random offsets (Receipts-by-payment-method response; What counts toward the total; Brand rules)', async () => {
    const { full } = await seed(t);
    let withFigures = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(generatedArb, { minLength: 1, maxLength: 30 }),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        async (receipts, queries) => {
          await t.db.deleteFrom('pos_receipts').execute();
          const stored = receipts.map((r, i) => ({ id: `r${i}`, r }));
          for (const account of ['acme', 'other']) {
            const mine = stored.filter(({ r }) => r.location.account === account);
            if (mine.length === 0) continue;
            await t.admin('POST', `${ADMIN}/${account}/receipts`, {
              receipts: mine.map(({ id, r }) => receiptBody(id, r)),
            });
          }
          for (const q of queries) {
            const [from, to] = q.bounds;
            const fromText = encodeURIComponent(isoAt(from, q.fromOffset, q.zulu));
            const toText = encodeURIComponent(isoAt(to, q.toOffset, q.zulu));
            const url = sales(
              `place=${q.place}&from=${fromText}&to=${toText}${q.event === null ? '' : `&event=${q.event}`}`,
            );
            // `get` advances the clock 61 s: every query meets an empty rate window.
            const body = await ok(t, full.key, url);
            const start = Math.ceil(from / 1000) * 1000;
            const end = Math.ceil(to / 1000) * 1000;
            const counted = countedReceipts(
              stored.map(({ r }) => r),
              { account: 'acme', place: q.place, event: q.event, start, end },
            );
            if (counted.length > 0) withFigures += 1;
            expect(body).toEqual({
              from: wireTimeOf(start),
              to: wireTimeOf(end),
              place: q.place,
              event: q.event,
              currency: 'USD',
              ...referenceFigures(counted),
            });
          }
        },
      ),
      { numRuns: 25 },
    );
    // The runs are not all empty periods.
    expect(withFigures).toBeGreaterThan(5);
  }, 120_000);
});

describeEachDialect('POS API data: planned routes', (dialect) => {
  const t = useTestApp(dialect);

  const PLANNED_SALES = ['sales/summary', 'sales/by-day', 'sales/by-product', 'sales/by-place'];
  const notImplemented = async (key: string, url: string) => {
    const body = await problem(t, key, url, 501, 'not_implemented');
    expect(body.param).toBeUndefined();
  };

  it('planned sales routes: from and to required, 120 days at most, place a comma list of at most 100 ids, 404 param place outside the key, then 501 (Planned routes; DECISIONS)', async () => {
    const { full, p1Only } = await seed(t);
    const hundred = Array.from({ length: 100 }, (_, i) => `P${i}`);
    for (const route of PLANNED_SALES) {
      const url = (query: string) => `${API}/${route}?${query}`;
      expect((await invalid(t, full.key, url(''))).param).toBe('from');
      expect((await invalid(t, full.key, url(`from=${DAY_F}`))).param).toBe('to');
      expect((await invalid(t, full.key, url(`to=${DAY_T}`))).param).toBe('from');
      expect((await invalid(t, full.key, url(`from=${DAY_T}&to=${DAY_F}`))).param).toBe('from');
      expect(
        (await invalid(t, full.key, url('from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:01Z'))).param,
      ).toBe('to');
      expect((await invalid(t, full.key, url(`from=2026-01-01T00:00:00&to=${DAY_T}`))).param).toBe('from');
      expect((await invalid(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&place=P1,P-2`))).param).toBe('place');
      expect(
        (await invalid(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&place=${[...hundred, 'P100'].join(',')}`)))
          .param,
      ).toBe('place');
      expect((await invalid(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&place=P1&place=P2`))).param).toBe(
        'place',
      );
      expect((await invalid(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&x=1`))).param).toBe('x');
      // 100 identifiers is a valid list; P0..P99 are not all places of the key: 404.
      expect(
        (await notFound(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&place=${hundred.join(',')}`))).param,
      ).toBe('place');
      expect((await notFound(t, full.key, url(`from=${DAY_F}&to=${DAY_T}&place=P1,P9`))).param).toBe('place');
      expect((await notFound(t, p1Only.key, url(`from=${DAY_F}&to=${DAY_T}&place=P2`))).param).toBe('place');
      await notImplemented(full.key, url('from=2026-01-01T00:00:00Z&to=2026-05-01T00:00:00Z'));
      await notImplemented(full.key, url(`from=${DAY_F}&to=${DAY_T}&place=P1,P2,P3`));
      await notImplemented(p1Only.key, url(`from=${DAY_F}&to=${DAY_T}&place=P1`));
      // No place: all places of the key; a deactivated place remains queryable.
      await notImplemented(p1Only.key, url(`from=${DAY_F}&to=${DAY_T}`));
      await notImplemented(full.key, url(`from=${DAY_F}&to=${DAY_T}&place=P3`));
    }
  });

  it('orders: at least one pair of dates, each at most 31 days, place as a list, cursor and limit, then 501 (Planned routes)', async () => {
    const { full, p1Only } = await seed(t);
    const url = (query: string) => `${API}/orders?${query}`;
    const F = '2026-10-01T00:00:00Z';
    expect((await invalid(t, full.key, url(''))).param).toBe('created_from');
    expect((await invalid(t, full.key, url('place=P1'))).param).toBe('created_from');
    expect((await invalid(t, full.key, url(`created_from=${F}`))).param).toBe('created_to');
    expect((await invalid(t, full.key, url(`updated_to=${F}`))).param).toBe('updated_from');
    expect((await invalid(t, full.key, url(`created_from=${F}&created_to=2026-11-01T00:00:01Z`))).param).toBe(
      'created_to',
    );
    expect((await invalid(t, full.key, url(`updated_from=${F}&updated_to=2026-11-01T00:00:01Z`))).param).toBe(
      'updated_to',
    );
    expect((await invalid(t, full.key, url(`created_from=${DAY_T}&created_to=${DAY_F}`))).param).toBe(
      'created_from',
    );
    const pair = `created_from=${F}&created_to=2026-11-01T00:00:00Z`;
    expect((await invalid(t, full.key, url(`${pair}&limit=0`))).param).toBe('limit');
    expect((await invalid(t, full.key, url(`${pair}&limit=101`))).param).toBe('limit');
    expect((await invalid(t, full.key, url(`${pair}&cursor=`))).param).toBe('cursor');
    expect((await invalid(t, full.key, url(`${pair}&place=P_1`))).param).toBe('place');
    expect((await notFound(t, p1Only.key, url(`${pair}&place=P1,P2`))).param).toBe('place');
    await notImplemented(full.key, url(pair));
    await notImplemented(
      full.key,
      url(`updated_from=${F}&updated_to=2026-11-01T00:00:00Z&limit=100&cursor=abc`),
    );
    await notImplemented(full.key, url(`${pair}&updated_from=${DAY_F}&updated_to=${DAY_T}&place=P1,P2`));
  });

  it('orders/{order_id} answers 501 and takes no parameters (Planned routes)', async () => {
    const { full } = await seed(t);
    await notImplemented(full.key, `${API}/orders/O123`);
    expect((await invalid(t, full.key, `${API}/orders/O123?place=P1`)).param).toBe('place');
  });

  it('products: place as a list, cursor, limit 1 to 100, then 501 (Planned routes)', async () => {
    const { full, p1Only } = await seed(t);
    const url = (query: string) => `${API}/products?${query}`;
    expect((await invalid(t, full.key, url('limit=0'))).param).toBe('limit');
    expect((await invalid(t, full.key, url('limit=101'))).param).toBe('limit');
    expect((await invalid(t, full.key, url('from=2026-10-01T00:00:00Z'))).param).toBe('from');
    expect((await notFound(t, full.key, url('place=P9'))).param).toBe('place');
    expect((await notFound(t, p1Only.key, url('place=P2'))).param).toBe('place');
    await notImplemented(full.key, url(''));
    await notImplemented(full.key, url('place=P1,P2&limit=100&cursor=x'));
    await notImplemented(p1Only.key, url('place=P1'));
  });

  it('planned routes answer 501 not_implemented to any valid key, without permission (Planned routes; DECISIONS)', async () => {
    const { bare } = await seed(t);
    for (const route of PLANNED_SALES) {
      await notImplemented(bare.key, `${API}/${route}?from=${DAY_F}&to=${DAY_T}`);
    }
    await notImplemented(bare.key, `${API}/orders?created_from=${DAY_F}&created_to=${DAY_T}`);
    await notImplemented(bare.key, `${API}/orders/A1`);
    await notImplemented(bare.key, `${API}/products`);
    // The routes in service still require theirs.
    expect(
      (await problem(t, bare.key, `${API}/events?place=P1`, 403, 'forbidden_permission')) as unknown,
    ).toMatchObject({ required_permission: 'event.view' });
  });
});
