import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemCatalogue } from '../../src/errors/problem-catalogue.js';
import { POS_QUERY_ROUTES, readQuery, type PosRoute } from '../../src/pos/api/query-params.js';

// The query parameters of the POS data API (docs/pos-api.md, "Conventions", "Endpoints", the planned
// routes table, "Errors" and its `param` choice; docs/pos-api.md, Settled details): one test per rule, named
// after it, then properties. Expected instants are written as Date.UTC values, not through the module.

const ROUTES = Object.keys(POS_QUERY_ROUTES) as PosRoute[];
const SALES = 'sales/by-payment-method';
const PLANNED_SALES = ['sales/summary', 'sales/by-day', 'sales/by-product', 'sales/by-place'] as const;
const DAY = 86_400_000;

const F = '2026-10-01T00:00:00Z';
const T = '2026-10-02T00:00:00Z';
const F_MS = Date.UTC(2026, 9, 1);
const T_MS = Date.UTC(2026, 9, 2);

/** The values of an accepted query (fails the test when refused). */
function values(route: PosRoute, query: string): Record<string, unknown> {
  const result = readQuery(route, query);
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result.problem.toJSON())}`);
  return result.values;
}

/** The `param` and `detail` of a refused query (fails the test when accepted). */
function refusal(route: PosRoute, query: string): { param: unknown; detail: string } {
  const result = readQuery(route, query);
  if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.values)}`);
  const body = result.problem.toJSON();
  expect(result.problem.status).toBe(422);
  expect(body.code).toBe('invalid_parameter');
  return { param: body.param, detail: result.problem.detail };
}

const paramOf = (route: PosRoute, query: string): unknown => refusal(route, query).param;

const sales = (extra: string, from = F, to = T) => `from=${from}&to=${to}&place=P1${extra}`;

describe('catalogue (Errors)', () => {
  it('invalid_parameter is a 422 of the one catalogue (Errors)', () => {
    expect(problemCatalogue.invalid_parameter.status).toBe(422);
  });
});

describe('decoding (Conventions)', () => {
  it('a raw + in an offset decodes to a space and is refused (Conventions)', () => {
    expect(refusal(SALES, sales('', '2026-10-01T00:00:00+03:00'))).toEqual({
      param: 'from',
      detail: `"from" has a space where its offset's sign should be: send "+" as %2B.`,
    });
  });

  it('%2B is the plus of an offset (Conventions)', () => {
    expect(values(SALES, sales('', '2026-10-01T03:00:00%2B03:00')).from).toBe(F_MS);
  });

  it('+ is a space and %XX is UTF-8, in names and values (Conventions, form decoding)', () => {
    expect(values('events', 'pl%61ce=P1&search=caf%C3%A9+bar').search).toBe('café bar');
  });

  it('percent-decoding errors are invalid values of that parameter (Conventions)', () => {
    for (const bad of ['%zz', '%', '%E2%82', '%C3', '%ED%A0%80']) {
      expect(refusal('events', `place=P1&search=${bad}`)).toEqual({
        param: 'search',
        detail: '"search" is not correctly percent-encoded (UTF-8).',
      });
    }
    expect(paramOf(SALES, sales('', '2026-10-01T00:00:00%ZZ'))).toBe('from');
  });

  it('empty pairs are skipped and a pair without "=" has an empty value (Conventions, form decoding)', () => {
    expect(values('events', '&place=P1&&limit=7&')).toEqual({
      place: 'P1',
      search: null,
      limit: 7,
      cursor: null,
    });
    expect(paramOf('events', 'place=P1&search')).toBe('search');
    expect(values('ping', '')).toEqual({});
  });

  it('%2C is a comma: a percent-encoded list is still a list (Conventions, form decoding)', () => {
    expect(paramOf(SALES, sales('').replace('place=P1', 'place=A%2CB'))).toBe('place');
  });
});

describe('dates (Conventions)', () => {
  it('a date without offset gives 422 naming it (Conventions)', () => {
    expect(refusal(SALES, sales('', F, '2026-10-02T00:00:00'))).toEqual({
      param: 'to',
      detail: '"to" must include a time zone offset or Z, as in 2026-10-01T00:00:00-03:00.',
    });
  });

  it('Z and an offset name the instant they say (Conventions)', () => {
    expect(values(SALES, sales('', '2026-09-30T21:00:00-03:00', '2026-10-02T05:30:00%2B05:30'))).toEqual({
      from: F_MS,
      to: T_MS,
      place: 'P1',
      event: null,
    });
  });

  it('only the shape YYYY-MM-DDThh:mm:ss[.fraction](Z|±hh:mm) is read (Conventions)', () => {
    const shape =
      '"from" must be an ISO 8601 date and time with an offset, shaped YYYY-MM-DDThh:mm:ss-03:00 or YYYY-MM-DDThh:mm:ssZ.';
    for (const bad of [
      '2026-10-01',
      '2026-10-01T00:00Z',
      '2026-10-01T00:00:00-0300',
      '2026-10-01T00:00:00-03',
      '2026-10-01t00:00:00Z',
      '2026-10-01T00:00:00z',
      '2026-10-01%2000:00:00Z',
      '2026-10-01T00:00:00.Z',
      '26-10-01T00:00:00Z',
      '+02026-10-01T00:00:00Z',
      '1790812800',
      '%EF%BC%92026-10-01T00:00:00Z',
    ]) {
      expect(refusal(SALES, sales('', bad))).toEqual({ param: 'from', detail: shape });
    }
  });

  it('a date or time that does not exist is refused (Conventions)', () => {
    for (const bad of [
      '2026-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-01T00:00:00Z',
      '2026-10-00T00:00:00Z',
      '2026-10-01T24:00:00Z',
      '2026-10-01T00:60:00Z',
      '2026-10-01T00:00:60Z',
      '2026-10-01T00:00:00-24:00',
      '2026-10-01T00:00:00-03:60',
    ]) {
      expect(refusal(SALES, sales('', bad))).toEqual({
        param: 'from',
        detail: '"from" is not a valid date and time.',
      });
    }
    expect(values(SALES, sales('', '2028-02-29T00:00:00Z', '2028-03-01T00:00:00Z')).from).toBe(
      Date.UTC(2028, 1, 29),
    );
  });

  it('fractions of a second are rounded up to whole seconds; zeros only stay (Receipts-by-payment-method response)', () => {
    const read = (from: string) => values(SALES, sales('', from)).from;
    expect(read('2026-10-01T00:00:00.000000Z')).toBe(F_MS);
    expect(read('2026-10-01T00:00:00.000000001Z')).toBe(F_MS + 1000);
    expect(read('2026-10-01T00:00:00.999Z')).toBe(F_MS + 1000);
    expect(read('2026-10-01T00:00:59.5Z')).toBe(F_MS + 60_000);
  });

  it('from without to or the reverse names the missing one (Endpoints, sales/by-payment-method)', () => {
    expect(refusal(SALES, `from=${F}&place=P1`)).toEqual({ param: 'to', detail: '"to" is required.' });
    expect(refusal(SALES, `to=${T}&place=P1`)).toEqual({ param: 'from', detail: '"from" is required.' });
    expect(refusal(SALES, `from=&to=${T}&place=P1`)).toEqual({
      param: 'from',
      detail: '"from" is required; it was sent empty.',
    });
  });

  it('from after to names from; from equal to to is an empty period and allowed (Errors, param choice)', () => {
    expect(refusal(SALES, sales('', T, F))).toEqual({
      param: 'from',
      detail: '"from" must not be after "to".',
    });
    expect(values(SALES, sales('', F, F))).toMatchObject({ from: F_MS, to: F_MS });
    // Compared after rounding: both bounds are the same whole second.
    expect(values(SALES, sales('', '2026-10-01T00:00:00.7Z', '2026-10-01T00:00:00.2Z'))).toMatchObject({
      from: F_MS + 1000,
      to: F_MS + 1000,
    });
  });

  it('a period above 120 days after rounding names to; exactly 120 days is allowed (Endpoints, Limits)', () => {
    expect(values(SALES, sales('', F, '2027-01-29T00:00:00Z')).to).toBe(F_MS + 120 * DAY);
    expect(refusal(SALES, sales('', F, '2027-01-29T00:00:00.001Z'))).toEqual({
      param: 'to',
      detail: '"to" must be at most 120 days after "from" when "event" is not sent.',
    });
  });

  it('with event on the sales route there is no period limit (Endpoints, sales/by-payment-method)', () => {
    expect(values(SALES, sales('&event=E1', '2020-01-01T00:00:00Z'))).toMatchObject({
      from: Date.UTC(2020, 0, 1),
      event: 'E1',
    });
  });
});

describe('unknown parameters (Endpoints; Errors, param choice)', () => {
  it('unknown parameters are always refused; param is the first unknown in the order sent (Endpoints)', () => {
    expect(refusal('events', 'place=P1&zeta=1&alpha=2')).toEqual({
      param: 'zeta',
      detail:
        'Unknown parameters: "zeta", "alpha". This route accepts: "place", "search", "limit", "cursor".',
    });
  });

  it('unknown: detail names at most 5, cut to 40 characters, with the count of the rest (Errors, param choice)', () => {
    const long = 'x'.repeat(45);
    expect(refusal('places', `a=1&b&${long}=3&c=4&a=5&d=6&e=7&f=8&g=9`)).toEqual({
      param: 'a',
      detail: `Unknown parameters: "a", "b", "${'x'.repeat(40)}", "c", "d" and 3 more. This route accepts no query parameters.`,
    });
  });

  it('unknown: a single unknown is singular, names are listed once, quotes and invisibles are escaped (Errors)', () => {
    expect(refusal('ping', 'x=1&x=2').detail).toBe(
      'Unknown parameter: "x". This route accepts no query parameters.',
    );
    expect(refusal('ping', 'a%22b%E2%80%AE=1').detail).toBe(
      'Unknown parameter: "a\\"b\\u202e". This route accepts no query parameters.',
    );
    // Cut by code points: a 41st character never splits a surrogate pair.
    expect(refusal('ping', `${'%F0%9F%98%80'.repeat(41)}=1`).detail).toBe(
      `Unknown parameter: "${'😀'.repeat(40)}". This route accepts no query parameters.`,
    );
  });

  it('unknown: every route without parameters refuses any (ping, places, orders/{order_id})', () => {
    for (const route of ['ping', 'places', 'orders/{order_id}'] as const) {
      expect(paramOf(route, 'place=P1')).toBe('place');
      expect(values(route, '')).toEqual({});
    }
  });

  it('unknown: a parameter of another route, another case or another bracket form is unknown (Endpoints)', () => {
    expect(paramOf('events', 'place=P1&event=E1')).toBe('event');
    expect(paramOf('events', 'Place=P1')).toBe('Place');
    expect(paramOf('events', 'place[0]=P1')).toBe('place[0]');
    expect(paramOf('events', 'place=P1&event[]=E1')).toBe('event[]');
    expect(paramOf('events', 'place=P1&=x')).toBe('');
  });

  it('unknown: a name that cannot be decoded is unknown and shown as sent (Conventions, Endpoints)', () => {
    expect(refusal('events', 'place=P1&%zz=1')).toEqual({
      param: '%zz',
      detail: 'Unknown parameter: "%zz". This route accepts: "place", "search", "limit", "cursor".',
    });
  });
});

describe('repeated parameters (Endpoints; Errors, param choice)', () => {
  it('a parameter sent more than once gives 422 with that param (Errors, param choice)', () => {
    expect(refusal('events', 'place=P1&limit=5&limit=5')).toEqual({
      param: 'limit',
      detail: 'Parameter "limit" was sent more than once.',
    });
    expect(paramOf('events', 'place=P1&place=')).toBe('place');
  });

  it('place[]=A&place[]=B is place sent twice, as is place=A&place[]=B (Endpoints)', () => {
    for (const query of ['place[]=A&place[]=B', 'place=A&place[]=B', 'place%5B%5D=A&place=B']) {
      expect(refusal('events', query)).toEqual({
        param: 'place',
        detail: 'Parameter "place" was sent more than once.',
      });
    }
  });

  it('repeated: param is the parameter whose second occurrence comes first (order of problems)', () => {
    expect(paramOf('events', 'cursor=a&place=P1&place=P2&cursor=b')).toBe('place');
  });
});

describe('list forms and identifiers (Errors, param choice; docs/pos-api.md, Settled details)', () => {
  it('a list form sent once is an invalid value; for place the detail is quoted (Errors, param choice)', () => {
    for (const route of ['events', SALES, 'sales/summary', 'products'] as const) {
      const query = route === 'events' || route === 'products' ? 'place[]=A' : `from=${F}&to=${T}&place[]=A`;
      expect(refusal(route, query)).toEqual({
        param: 'place',
        detail: '"place" must be a place identifier.',
      });
    }
    expect(refusal(SALES, sales('&event[]=E1'))).toEqual({
      param: 'event',
      detail: '"event" must be an event identifier.',
    });
    expect(refusal('events', 'place=P1&limit[]=5')).toEqual({
      param: 'limit',
      detail: '"limit" must be sent once as limit=<value>, not as a list.',
    });
  });

  it('identifiers are 1 to 64 ASCII letters and digits (Conventions; docs/pos-api.md, Settled details)', () => {
    expect(values('events', `place=${'A9'.repeat(32)}`).place).toBe('A9'.repeat(32));
    for (const bad of ['A'.repeat(65), 'a-b', 'a_b', 'a+b', '%C3%A9', 'a%00', '%EF%BC%A1']) {
      expect(refusal('events', `place=${bad}`)).toEqual({
        param: 'place',
        detail: '"place" must be a place identifier.',
      });
    }
    expect(refusal(SALES, sales('&event=e.1'))).toEqual({
      param: 'event',
      detail: '"event" must be an event identifier.',
    });
  });

  it('absent or empty required place gives 422 naming place (Endpoints, events and sales)', () => {
    expect(refusal('events', '')).toEqual({ param: 'place', detail: '"place" is required.' });
    expect(refusal('events', 'place=')).toEqual({
      param: 'place',
      detail: '"place" is required; it was sent empty.',
    });
    expect(refusal(SALES, `from=${F}&to=${T}`)).toEqual({ param: 'place', detail: '"place" is required.' });
  });

  it('a comma list of places or events on the events and sales routes is invalid (Endpoints)', () => {
    expect(refusal('events', 'place=A,B')).toEqual({
      param: 'place',
      detail: '"place" must be one place identifier, not a list; call once per place.',
    });
    expect(paramOf(SALES, sales('').replace('P1', 'A,B'))).toBe('place');
    expect(refusal(SALES, sales('&event=E1,E2'))).toEqual({
      param: 'event',
      detail: '"event" must be one event identifier, not a list.',
    });
  });

  it('event is optional on the sales route; sent empty it is invalid (Endpoints, sales/by-payment-method)', () => {
    expect(values(SALES, sales('')).event).toBeNull();
    expect(paramOf(SALES, sales('&event='))).toBe('event');
  });
});

describe('GET /events parameters (Endpoints; Limits)', () => {
  it('events: a full query is read into typed values, limit defaults to 50 (Endpoints, events)', () => {
    expect(values('events', 'place=P1')).toEqual({ place: 'P1', search: null, limit: 50, cursor: null });
    expect(values('events', 'cursor=abc.DEF_-&limit=100&search=Show&place=P1')).toEqual({
      place: 'P1',
      search: 'Show',
      limit: 100,
      cursor: 'abc.DEF_-',
    });
  });

  it('limit is an integer 1 to 100 in digits only (Endpoints, events; Limits)', () => {
    expect(values('events', 'place=P1&limit=1').limit).toBe(1);
    expect(values('events', 'place=P1&limit=007').limit).toBe(7);
    for (const bad of [
      '0',
      '101',
      '',
      '-1',
      '%2B5',
      '5.0',
      '1e2',
      '0x10',
      '+5',
      ' 5',
      '5 ',
      '9'.repeat(400),
    ]) {
      expect(refusal('events', `place=P1&limit=${bad}`)).toEqual({
        param: 'limit',
        detail: '"limit" must be an integer from 1 to 100.',
      });
    }
  });

  it('search is 1 to 100 characters, counted in code points, kept as sent (Endpoints, events; Limits)', () => {
    expect(values('events', `place=P1&search=${'%F0%9F%98%80'.repeat(100)}`).search).toBe('😀'.repeat(100));
    expect(values('events', 'place=P1&search=+50%25_off%5C+').search).toBe(' 50%_off\\ ');
    expect(refusal('events', `place=P1&search=${'a'.repeat(101)}`)).toEqual({
      param: 'search',
      detail: '"search" must be at most 100 characters.',
    });
  });

  it('search: empty gives 422 search (Endpoints, events)', () => {
    expect(refusal('events', 'place=P1&search=')).toEqual({
      param: 'search',
      detail: '"search" must not be empty; leave it out to list every event.',
    });
  });

  it('search: a control or invisible character anywhere gives 422 search (Endpoints, events; docs/pos-api.md, Settled details)', () => {
    for (const bad of [
      '%00',
      '%09',
      '%0A',
      '%7F',
      '%C2%85',
      '%C2%AD',
      '%E2%80%8B',
      '%E2%80%A8',
      '%E2%80%A9',
      '%EF%BB%BF',
    ]) {
      expect(refusal('events', `place=P1&search=ab${bad}cd`)).toEqual({
        param: 'search',
        detail: '"search" must not contain control or invisible characters.',
      });
    }
    // ZWNJ and ZWJ are not invisible characters for this API (docs/api-conventions.md).
    expect(values('events', 'place=P1&search=a%E2%80%8Cb%E2%80%8Dc').search).toBe('a\u200Cb\u200Dc');
  });

  it('cursor is any non-empty text, decoded; its verification is elsewhere (Endpoints, events)', () => {
    expect(values('events', 'place=P1&cursor=%E2%9C%93+x').cursor).toBe('✓ x');
    expect(refusal('events', 'place=P1&cursor=')).toEqual({
      param: 'cursor',
      detail: '"cursor" must not be empty; leave it out for the first page.',
    });
  });
});

describe('planned routes (Endpoints, planned routes table)', () => {
  it('planned sales routes: from and to required, place an optional comma list, 120 days', () => {
    for (const route of PLANNED_SALES) {
      expect(values(route, `from=${F}&to=${T}`)).toEqual({ from: F_MS, to: T_MS, places: null });
      expect(values(route, `place=B,A&to=${T}&from=${F}`).places).toEqual(['B', 'A']);
      expect(paramOf(route, `to=${T}`)).toBe('from');
      expect(paramOf(route, `from=${F}&to=2027-01-29T00:00:01Z`)).toBe('to');
      expect(paramOf(route, `from=${F}&to=${T}&event=E1`)).toBe('event');
    }
  });

  it('planned place list: at most 100 distinct identifiers, no empty item (planned routes table)', () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `P${i}`).join(',');
    expect(values('products', `place=${ids(100)}`).places).toHaveLength(100);
    expect(refusal('products', `place=${ids(101)}`)).toEqual({
      param: 'place',
      detail: '"place" must list at most 100 place identifiers.',
    });
    for (const bad of ['', 'A,', ',A', 'A,,B', 'A,b-c', 'A%2C%20B']) {
      expect(refusal('products', `place=${bad}`)).toEqual({
        param: 'place',
        detail: '"place" must be a comma-separated list of 1 to 100 place identifiers.',
      });
    }
    expect(refusal('products', 'place=A,B,A')).toEqual({
      param: 'place',
      detail: '"place" lists "A" more than once.',
    });
  });

  it('orders: at least one pair of dates is required (planned routes table)', () => {
    expect(refusal('orders', 'limit=5')).toEqual({
      param: 'created_from',
      detail:
        'At least one pair of dates is required: "created_from" and "created_to", or "updated_from" and "updated_to".',
    });
  });

  it('orders: a date without its pair names the missing one (planned routes table)', () => {
    expect(refusal('orders', `created_to=${T}`)).toEqual({
      param: 'created_from',
      detail: '"created_from" is required when "created_to" is sent.',
    });
    expect(paramOf('orders', `updated_from=${F}`)).toBe('updated_to');
    expect(paramOf('orders', `created_from=${F}&created_to=${T}&updated_to=${T}`)).toBe('updated_from');
  });

  it('orders: each pair at most 31 days, either or both pairs, cursor and limit (planned routes table)', () => {
    expect(values('orders', `created_from=${F}&created_to=2026-11-01T00:00:00Z`)).toEqual({
      places: null,
      createdFrom: F_MS,
      createdTo: F_MS + 31 * DAY,
      updatedFrom: null,
      updatedTo: null,
      cursor: null,
      limit: 50,
    });
    expect(refusal('orders', `updated_from=${F}&updated_to=2026-11-01T00:00:01Z`)).toEqual({
      param: 'updated_to',
      detail: '"updated_to" must be at most 31 days after "updated_from".',
    });
    expect(
      values(
        'orders',
        `place=A&created_from=${F}&created_to=${T}&updated_from=${F}&updated_to=${F}&cursor=c&limit=9`,
      ),
    ).toMatchObject({ places: ['A'], updatedTo: F_MS, cursor: 'c', limit: 9 });
    expect(paramOf('orders', `created_from=${T}&created_to=${F}`)).toBe('created_from');
  });

  it('products: place list, cursor and limit (planned routes table)', () => {
    expect(values('products', '')).toEqual({ places: null, cursor: null, limit: 50 });
    expect(paramOf('products', 'limit=0')).toBe('limit');
    expect(paramOf('products', `from=${F}`)).toBe('from');
  });
});

describe('order of problems (src/pos/api/query-params.ts, top)', () => {
  it('unknown comes before repeated, missing and invalid', () => {
    expect(paramOf(SALES, 'limit=0&from=x&from=y&zz=1')).toBe('limit');
  });

  it('repeated comes before missing and invalid', () => {
    expect(paramOf(SALES, 'event=a,b&event=c')).toBe('event');
  });

  it('missing comes before invalid, across the whole table', () => {
    expect(paramOf(SALES, `from=bad&to=bad`)).toBe('place');
    expect(paramOf(SALES, `from=bad&place=P1`)).toBe('to');
  });

  it('invalid values follow the order of the table, and periods come last', () => {
    expect(paramOf(SALES, `place=A,B&to=bad&from=bad`)).toBe('from');
    expect(paramOf(SALES, `event=a-b&place=P1&to=${F}&from=${T}`)).toBe('event');
    expect(paramOf('orders', `created_from=${T}&created_to=${F}&limit=0`)).toBe('limit');
  });
});

// Properties ---------------------------------------------------------------------------------------------

/** Pieces that make queries look real: names, brackets, separators and escapes. */
const queryish = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'place',
        'event',
        'from',
        'to',
        'search',
        'limit',
        'cursor',
        'created_from',
        'updated_to',
        '[]',
        '=',
        '&',
        '+',
        ',',
        '%',
        '%2B',
        '%2C',
        '%C3',
        '%A9',
        '%00',
        '%E2%80%8B',
        '2026-10-01T00:00:00',
        'Z',
        '-03:00',
        '.5',
        '100',
      ),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('properties', () => {
  it('no input ever throws: always values or a 422 invalid_parameter with param and detail', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ROUTES),
        fc.oneof(queryish, fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        (route, query) => {
          const result = readQuery(route, query);
          if (result.ok) {
            expect(typeof result.values).toBe('object');
          } else {
            expect(result.problem.status).toBe(422);
            expect(result.problem.code).toBe('invalid_parameter');
            expect(typeof result.problem.extras.param).toBe('string');
            expect(result.problem.detail.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  /** Invisible or control (docs/api-conventions.md), by code point, without the module's regex. */
  const isInvisible = (cp: number) =>
    cp !== 0x200c &&
    cp !== 0x200d &&
    (cp <= 0x1f ||
      (cp >= 0x7f && cp <= 0x9f) ||
      cp === 0x2028 ||
      cp === 0x2029 ||
      /^\p{Cf}$/u.test(String.fromCodePoint(cp)));
  const id = fc.stringMatching(/^[A-Za-z0-9]{1,64}$/);
  const search = fc
    .string({ unit: 'binary', minLength: 1, maxLength: 100 })
    .filter(
      (text) => text.isWellFormed() && !Array.from(text).some((char) => isInvisible(char.codePointAt(0)!)),
    );

  /** A written instant and the whole second it means once rounded up. */
  const instantNear = (base: number) =>
    fc
      .record({
        seconds: fc.integer({ min: base - 200 * 86_400, max: base + 200 * 86_400 }),
        fraction: fc.stringMatching(/^[0-9]{0,12}$/),
        offsetMinutes: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        z: fc.boolean(),
      })
      .map(({ seconds, fraction, offsetMinutes, z }) => {
        const useZ = z || offsetMinutes === 0;
        const shift = useZ ? 0 : offsetMinutes;
        const local = new Date((seconds + shift * 60) * 1000).toISOString().slice(0, 19);
        const abs = Math.abs(shift);
        const offset = useZ
          ? 'Z'
          : `${shift < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
        const text = `${local}${fraction === '' ? '' : `.${fraction}`}${offset}`;
        return { text, ms: (seconds + (/[1-9]/.test(fraction) ? 1 : 0)) * 1000 };
      });

  /** Form-encodes pairs, spaces sometimes as `+`, in a generated order. */
  const encode = (pairs: [string, string][], plus: boolean) =>
    pairs
      .map(([name, value]) => {
        const encoded = encodeURIComponent(value);
        return `${name}=${plus ? encoded.replaceAll('%20', '+') : encoded}`;
      })
      .join('&');

  const ordered = <T>(items: T[]) => fc.shuffledSubarray(items, { minLength: items.length });

  it('valid generated events queries round-trip', () => {
    fc.assert(
      fc.property(
        fc.record({
          place: id,
          search: fc.option(search, { nil: undefined }),
          limit: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
          cursor: fc.option(
            fc.string({ unit: 'binary', minLength: 1 }).filter((c) => c.isWellFormed()),
            {
              nil: undefined,
            },
          ),
        }),
        fc.boolean(),
        fc.nat(),
        (query, plus, seed) => {
          const pairs = Object.entries(query)
            .filter(([, value]) => value !== undefined)
            .map(([name, value]) => [name, String(value)] as [string, string]);
          const shuffled = fc.sample(ordered(pairs), { seed, numRuns: 1 })[0]!;
          expect(readQuery('events', encode(shuffled, plus))).toEqual({
            ok: true,
            values: {
              place: query.place,
              search: query.search ?? null,
              limit: query.limit ?? 50,
              cursor: query.cursor ?? null,
            },
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('valid generated sales queries round-trip, refused exactly as the rounded period requires', () => {
    const base = Math.floor(Date.UTC(2026, 9, 1) / 1000);
    fc.assert(
      fc.property(
        instantNear(base),
        instantNear(base),
        id,
        fc.option(id, { nil: undefined }),
        fc.nat(),
        (from, to, place, event, seed) => {
          const pairs: [string, string][] = [
            ['from', from.text],
            ['to', to.text],
            ['place', place],
          ];
          if (event !== undefined) pairs.push(['event', event]);
          const shuffled = fc.sample(ordered(pairs), { seed, numRuns: 1 })[0]!;
          const result = readQuery(SALES, encode(shuffled, false));
          if (from.ms > to.ms) {
            expect(result.ok ? null : result.problem.extras.param).toBe('from');
          } else if (event === undefined && to.ms - from.ms > 120 * DAY) {
            expect(result.ok ? null : result.problem.extras.param).toBe('to');
          } else {
            expect(result).toEqual({
              ok: true,
              values: { from: from.ms, to: to.ms, place, event: event ?? null },
            });
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('valid generated planned-route place lists round-trip', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(id, { minLength: 1, maxLength: 100 }),
        fc.constantFrom('products', 'orders', ...PLANNED_SALES),
        (ids, route) => {
          const dates =
            route === 'products'
              ? ''
              : route === 'orders'
                ? `&created_from=${F}&created_to=${T}`
                : `&from=${F}&to=${T}`;
          const result = readQuery(route, `place=${ids.join(',')}${dates}`);
          expect(result.ok && (result.values as { places: unknown }).places).toEqual(ids);
        },
      ),
      { numRuns: 300 },
    );
  });
});
