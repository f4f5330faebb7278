import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import { API, DAY_F, DAY_T, invalid, notFound, problem, seedDataAccounts } from './fixtures.js';

// The planned routes of the point-of-sale API through HTTP (docs/pos-api.md, "Planned routes";
// docs/pos-api.md, Settled details): their parameters are validated and places outside the key refused, then
// 501. Everything is seeded through the admin API and read through the public listener, each read one rate
// window after the previous one (fixtures.ts, the data suites).

describeEachDialect('POS API data: planned routes', (dialect) => {
  const t = useTestApp(dialect);

  const PLANNED_SALES = ['sales/summary', 'sales/by-day', 'sales/by-product', 'sales/by-place'];
  const notImplemented = async (key: string, url: string) => {
    const body = await problem(t, key, url, 501, 'not_implemented');
    expect(body.param).toBeUndefined();
  };

  it('planned sales routes: from and to required, 120 days at most, place a comma list of at most 100 ids, 404 param place outside the key, then 501 (Planned routes; docs/pos-api.md, Settled details)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
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
    const { full, p1Only } = await seedDataAccounts(t);
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
    const { full } = await seedDataAccounts(t);
    await notImplemented(full.key, `${API}/orders/O123`);
    expect((await invalid(t, full.key, `${API}/orders/O123?place=P1`)).param).toBe('place');
  });

  it('products: place as a list, cursor, limit 1 to 100, then 501 (Planned routes)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
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

  it('planned routes answer 501 not_implemented to any valid key, without permission (Planned routes; docs/pos-api.md, Settled details)', async () => {
    const { bare } = await seedDataAccounts(t);
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
