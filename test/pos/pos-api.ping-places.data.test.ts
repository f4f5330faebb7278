import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import {
  ACCOUNTS,
  API,
  createAccountKey,
  DAY_F,
  DAY_T,
  invalid,
  ok,
  salesUrl,
  seedDataAccounts,
  WHOLE_SECONDS_UTC,
} from './fixtures.js';

// The ping and places routes of the point-of-sale API through HTTP (docs/pos-api.md, "Ping response",
// "Places response", "Endpoints"; docs/pos-api.md, Settled details).
// Everything is seeded through the admin API and read through the public listener, each read one rate
// window after the previous one (fixtures.ts, the data suites).

describeEachDialect('POS API data: ping and places', (dialect) => {
  const t = useTestApp(dialect);

  it('ping: credential, account, rate_limit, server_time and api_version v1 (Ping response)', async () => {
    const { full } = await seedDataAccounts(t);
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

  it('ping: expires_at is UTC with Z in whole seconds, 23:59:59 of the chosen date in UTC-03:00 (Ping response; docs/pos-api.md, Settled details)', async () => {
    await seedDataAccounts(t);
    const chosen = await createAccountKey(t, 'acme', { name: 'Dated', expires_on: '2027-01-15' });
    const body = (await ok(t, chosen.key, `${API}/ping`)) as { credential: { expires_at: string } };
    expect(body.credential.expires_at).toBe('2027-01-16T02:59:59Z');
  });

  it('ping: credential.id is stable across rotations and new for a newly created key; the previous key sees superseded (Ping response; docs/pos-api.md, Settled details)', async () => {
    const { full } = await seedDataAccounts(t);
    const rotated = await t.admin('POST', `${ACCOUNTS}/acme/keys/${full.id}/rotate`, {});
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

    const again = await t.admin('POST', `${ACCOUNTS}/acme/keys/${full.id}/rotate`, {});
    const third = (await ok(
      t,
      (JSON.parse(again.body) as { key: string }).key,
      `${API}/ping`,
    )) as typeof current;
    expect(third.credential.id).toBe(full.id);

    const fresh = await createAccountKey(t, 'acme', { name: 'ERP' });
    const other = (await ok(t, fresh.key, `${API}/ping`)) as typeof current;
    expect(other.credential.id).toBe(fresh.id);
    expect(other.credential.id).not.toBe(full.id);
    expect(other.credential.id).toMatch(/^[A-Za-z0-9]{1,64}$/);
  });

  it('ping: a permission removed from the key is no longer listed (States and transitions)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('PATCH', `${ACCOUNTS}/acme/keys/${full.id}`, { permissions: ['event.view'] });
    const body = (await ok(t, full.key, `${API}/ping`)) as { credential: { permissions: string[] } };
    expect(body.credential.permissions).toEqual(['event.view']);
  });

  it('places: all true for an all-places key, every place of the account with active, deactivated ones listed (Places response)', async () => {
    const { full } = await seedDataAccounts(t);
    const body = (await ok(t, full.key, `${API}/places`)) as { all: boolean; data: { id: string }[] };
    expect(body.all).toBe(true);
    expect([...body.data].sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual([
      { id: 'P1', name: 'Centro', timezone: 'America/Sao_Paulo', active: null },
      { id: 'P2', name: 'Praia', timezone: 'America/Recife', active: null },
      { id: 'P3', name: 'Fechado', timezone: 'America/Manaus', active: false },
    ]);
  });

  it('places: a key with a place list sees only those places and all false (Places response)', async () => {
    const { p1Only } = await seedDataAccounts(t);
    const body = await ok(t, p1Only.key, `${API}/places`);
    expect(body).toEqual({
      all: false,
      data: [{ id: 'P1', name: 'Centro', timezone: 'America/Sao_Paulo', active: null }],
    });
  });

  it('places: a deactivated place remains queryable (Places response)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('PUT', `${ACCOUNTS}/acme/places/P3/events/E9`, { name: 'Último' });
    const events = (await ok(t, full.key, `${API}/events?place=P3`)) as { data: { id: string }[] };
    expect(events.data.map((e) => e.id)).toEqual(['E9']);
    const figures = await ok(t, full.key, salesUrl(`place=P3&from=${DAY_F}&to=${DAY_T}`));
    expect(figures).toMatchObject({ place: 'P3', total: { count: 0, amount: '0.00' }, data: [] });
  });

  it('ping and places take no parameters: an unknown one is refused (Endpoints)', async () => {
    const { full } = await seedDataAccounts(t);
    expect((await invalid(t, full.key, `${API}/ping?verbose=1`)).param).toBe('verbose');
    expect((await invalid(t, full.key, `${API}/places?place=P1`)).param).toBe('place');
  });
});
