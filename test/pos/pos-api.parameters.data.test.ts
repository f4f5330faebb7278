import { expect, it } from 'vitest';
import { describeEachDialect, useTestApp } from '../helper.js';
import {
  ACCOUNTS,
  API,
  DAY_F,
  DAY_T,
  daySalesUrl,
  invalid,
  notFound,
  ok,
  salesUrl,
  seedDataAccounts,
} from './fixtures.js';

// The query parameters of the point-of-sale API through HTTP (docs/pos-api.md, "Conventions", "Errors" and
// its `param` choice, receipts-by-payment-method's place, event, from and to; Limits, 120 days).
// Everything is seeded through the admin API and read through the public listener, each read one rate
// window after the previous one (fixtures.ts, the data suites).

describeEachDialect('POS API data: parameter rules through HTTP', (dialect) => {
  const t = useTestApp(dialect);

  it('an unknown parameter is refused: the first unknown in param, at most 5 names in the detail, each cut to 40 characters (Errors, param choice)', async () => {
    const { full } = await seedDataAccounts(t);
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
    expect((await invalid(t, full.key, salesUrl('place=P1&place=P2&extra=1'))).param).toBe('extra');
  });

  it('a repeated parameter gives 422 with that param and the fixed detail (Errors, param choice)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(await invalid(t, full.key, `${API}/events?place=P1&place=P1`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
    expect(await invalid(t, full.key, daySalesUrl(`&from=${DAY_F}`))).toMatchObject({
      param: 'from',
      detail: 'Parameter "from" was sent more than once.',
    });
  });

  it('place[]=A is an invalid value: "place" must be a place identifier. (Errors, param choice)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(await invalid(t, full.key, `${API}/events?place[]=P1`)).toMatchObject({
      param: 'place',
      detail: '"place" must be a place identifier.',
    });
    expect(await invalid(t, full.key, salesUrl(`place%5B%5D=P1&from=${DAY_F}&to=${DAY_T}`))).toMatchObject({
      param: 'place',
      detail: '"place" must be a place identifier.',
    });
  });

  it('place[]=A&place[]=B is a repeated place (Endpoints; Errors, param choice)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(await invalid(t, full.key, `${API}/events?place[]=P1&place[]=P2`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
    expect(
      await invalid(t, full.key, salesUrl(`place[]=P1&place[]=P2&from=${DAY_F}&to=${DAY_T}`)),
    ).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
  });

  it('place=A&place[]=B is a repeated place too (Endpoints)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(await invalid(t, full.key, `${API}/events?place=P1&place[]=P2`)).toMatchObject({
      param: 'place',
      detail: 'Parameter "place" was sent more than once.',
    });
  });

  it('a comma list of places or events gives 422 with that param (by-payment-method, place and event)', async () => {
    const { full } = await seedDataAccounts(t);
    expect((await invalid(t, full.key, salesUrl(`place=P1,P2&from=${DAY_F}&to=${DAY_T}`))).param).toBe(
      'place',
    );
    expect((await invalid(t, full.key, salesUrl(`place=P1%2CP2&from=${DAY_F}&to=${DAY_T}`))).param).toBe(
      'place',
    );
    expect((await invalid(t, full.key, daySalesUrl('&event=E1,E2'))).param).toBe('event');
  });

  it('an identifier of another shape gives 422 with that param (docs/pos-api.md, Settled details: ^[A-Za-z0-9]{1,64}$)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const bad of ['P-1', 'P_1', 'P%201', 'P%C3%A1', 'x'.repeat(65)]) {
      expect((await invalid(t, full.key, `${API}/events?place=${bad}`)).param, bad).toBe('place');
      expect((await invalid(t, full.key, daySalesUrl(`&event=${bad}`))).param, bad).toBe('event');
    }
    // 64 characters is an identifier: unknown, so 404.
    expect((await notFound(t, full.key, `${API}/events?place=${'x'.repeat(64)}`)).param).toBe('place');
  });

  it('a date without offset, or not a date, gives 422 with that param (Conventions)', async () => {
    const { full } = await seedDataAccounts(t);
    for (const bad of [
      '2026-11-19T00:00:00',
      '2026-11-19',
      '2026-11-19T00:00',
      '2026-02-30T00:00:00Z',
      'x',
    ]) {
      expect((await invalid(t, full.key, salesUrl(`place=P1&from=${bad}&to=${DAY_T}`))).param, bad).toBe(
        'from',
      );
      expect((await invalid(t, full.key, salesUrl(`place=P1&from=${DAY_F}&to=${bad}`))).param, bad).toBe(
        'to',
      );
    }
  });

  it('a raw + in an offset is refused while %2B works (Conventions)', async () => {
    const { full } = await seedDataAccounts(t);
    expect(
      (await invalid(t, full.key, salesUrl(`place=P1&from=2026-11-19T06:00:00+03:00&to=${DAY_T}`))).param,
    ).toBe('from');
    const body = await ok(
      t,
      full.key,
      salesUrl(`place=P1&from=2026-11-19T06:00:00%2B03:00&to=2026-11-20T03:00:00%2B00:00`),
    );
    expect(body).toMatchObject({ from: '2026-11-19T03:00:00Z', to: '2026-11-20T03:00:00Z' });
  });

  it('fractions of a second are rounded up and from/to echoed in whole UTC seconds (Receipts-by-payment-method response)', async () => {
    const { full } = await seedDataAccounts(t);
    await t.admin('POST', `${ACCOUNTS}/acme/receipts`, {
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
      salesUrl('place=P1&from=2026-11-19T07:00:00.000001-03:00&to=2026-11-19T11:59:59.1Z'),
    );
    expect(body).toMatchObject({
      from: '2026-11-19T10:00:01Z',
      to: '2026-11-19T12:00:00Z',
      total: { count: 2, amount: '6.00' },
    });
    // Zeros in the fraction change nothing.
    expect(
      await ok(t, full.key, salesUrl('place=P1&from=2026-11-19T10:00:00.000Z&to=2026-11-19T12:00:00.0Z')),
    ).toMatchObject({
      from: '2026-11-19T10:00:00Z',
      to: '2026-11-19T12:00:00Z',
      total: { count: 3, amount: '7.00' },
    });
  });

  it('from after to gives 422 param from; from equal to to is an empty period (by-payment-method, to)', async () => {
    const { full } = await seedDataAccounts(t);
    expect((await invalid(t, full.key, salesUrl(`place=P1&from=${DAY_T}&to=${DAY_F}`))).param).toBe('from');
    expect(
      (await invalid(t, full.key, daySalesUrl('&event=E1').replace(DAY_F, '2026-12-01T00:00:00Z'))).param,
    ).toBe('from');
    // After rounding: the same second, sent with a fraction, is not after.
    expect(
      await ok(t, full.key, salesUrl('place=P1&from=2026-11-19T10:00:00.5Z&to=2026-11-19T10:00:01Z')),
    ).toMatchObject({ from: '2026-11-19T10:00:01Z', to: '2026-11-19T10:00:01Z', data: [] });
  });

  it('from without to, or the reverse, gives 422 naming the missing one; place missing is named (by-payment-method)', async () => {
    const { full } = await seedDataAccounts(t);
    expect((await invalid(t, full.key, salesUrl(`place=P1&from=${DAY_F}`))).param).toBe('to');
    expect((await invalid(t, full.key, salesUrl(`place=P1&to=${DAY_T}`))).param).toBe('from');
    expect((await invalid(t, full.key, salesUrl(`from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await invalid(t, full.key, salesUrl(`place=&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
  });

  it('a period above 120 days gives 422 param to, judged on the rounded period; with event there is no limit (Limits; by-payment-method)', async () => {
    const { full } = await seedDataAccounts(t);
    // Both bounds rounded up by a second: the rounded period is exactly 120 days.
    expect(
      await ok(t, full.key, salesUrl('place=P1&from=2026-01-01T00:00:00.5Z&to=2026-05-01T00:00:00.5Z')),
    ).toMatchObject({ from: '2026-01-01T00:00:01Z', to: '2026-05-01T00:00:01Z' });
    const F = '2026-01-01T00:00:00Z';
    expect(await ok(t, full.key, salesUrl(`place=P1&from=${F}&to=2026-05-01T00:00:00Z`))).toMatchObject({
      to: '2026-05-01T00:00:00Z',
    });
    expect((await invalid(t, full.key, salesUrl(`place=P1&from=${F}&to=2026-05-01T00:00:01Z`))).param).toBe(
      'to',
    );
    expect(
      (await invalid(t, full.key, salesUrl(`place=P1&from=${F}&to=2026-05-01T00:00:00.001Z`))).param,
    ).toBe('to');
    expect((await invalid(t, full.key, salesUrl(`place=P1&from=${F}&to=2026-12-01T00:00:00Z`))).param).toBe(
      'to',
    );
    expect(
      await ok(t, full.key, salesUrl(`place=P1&from=2020-01-01T00:00:00Z&to=2026-12-01T00:00:00Z&event=E1`)),
    ).toMatchObject({ event: 'E1', from: '2020-01-01T00:00:00Z' });
  });

  it('an event of another place or nonexistent gives 404 param event; with both wrong, place is reported (by-payment-method, event)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
    expect((await notFound(t, full.key, daySalesUrl('&event=E3'))).param).toBe('event');
    expect((await notFound(t, full.key, daySalesUrl('&event=E99'))).param).toBe('event');
    expect(
      (await notFound(t, full.key, salesUrl(`place=P9&from=${DAY_F}&to=${DAY_T}&event=E99`))).param,
    ).toBe('place');
    expect(
      (await notFound(t, p1Only.key, salesUrl(`place=P2&from=${DAY_F}&to=${DAY_T}&event=E1`))).param,
    ).toBe('place');
    // A place of another account with the same id is not this key's event either.
    await t.admin('PUT', `${ACCOUNTS}/other/places/P1/events/X1`, { name: 'Alheio' });
    expect((await notFound(t, full.key, daySalesUrl('&event=X1'))).param).toBe('event');
  });

  it('an empty event is refused with param event; a deleted event gives 404 param event (by-payment-method, event)', async () => {
    const { full } = await seedDataAccounts(t);
    expect((await invalid(t, full.key, daySalesUrl('&event='))).param).toBe('event');
    expect((await invalid(t, full.key, daySalesUrl('&event[]=E1'))).param).toBe('event');
    await t.admin('DELETE', `${ACCOUNTS}/acme/places/P1/events/E1`);
    expect((await notFound(t, full.key, daySalesUrl('&event=E1'))).param).toBe('event');
  });

  it('a place outside the key or nonexistent gives 404 param place (by-payment-method, place)', async () => {
    const { full, p1Only } = await seedDataAccounts(t);
    // Identifiers are compared as text, case included.
    expect((await notFound(t, full.key, salesUrl(`place=p1&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
    expect((await notFound(t, full.key, daySalesUrl('&event=e1'))).param).toBe('event');
    expect((await notFound(t, p1Only.key, salesUrl(`place=P2&from=${DAY_F}&to=${DAY_T}`))).param).toBe(
      'place',
    );
    expect((await notFound(t, full.key, salesUrl(`place=P9&from=${DAY_F}&to=${DAY_T}`))).param).toBe('place');
  });
});
