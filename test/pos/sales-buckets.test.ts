import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { seedPosDemo } from '../../src/pos/demo.js';
import { writeReceipts, type ReceiptData } from '../../src/pos/receipts/receipt-repository.js';
import { checkSalesBuckets } from '../../src/pos/sales/sales-bucket-audit.js';
import { SLOT_LENGTHS } from '../../src/pos/sales/sales-bucket-layout.js';
import { bucketDeltas, type BucketedReceipt, type BucketDelta } from '../../src/pos/sales/sales-buckets.js';
import { ADMIN_TOKEN, describeEachDialect, describePostgres, useTestApp, type TestApp } from '../helper.js';
import {
  correction,
  generatedReceipt,
  wideInstant,
  writeReceiptHistory,
  type Location,
} from './random-receipts.js';

// The sales buckets kept by deltas (src/pos/sales/sales-buckets.ts): every write of receipts subtracts what the
// old states counted and adds what the new ones count, in its own transaction, so that the buckets always
// equal the sums of the counted receipts (docs/pos-api.md, "What counts toward the total": a late receipt
// enters its period, a cancelled one leaves it). The sums the buckets are compared with are computed from
// the raw receipts in SQL by the check (src/pos/sales/sales-bucket-audit.ts, tested on its own).

const AT = Date.parse('2026-11-20T21:37:12.345Z');

function receipt(fields: Partial<BucketedReceipt> = {}): BucketedReceipt {
  return {
    placeId: 'P1',
    eventId: null,
    occurredAt: AT,
    paymentMethod: 'tef_credit',
    brand: 'VISA',
    amountCents: 1250,
    counted: true,
    ...fields,
  };
}

/** The deltas as `slot length → delta` for one event key. */
const byLength = (deltas: BucketDelta[], eventKey: string) =>
  new Map(deltas.filter((d) => d.eventKey === eventKey).map((d) => [d.slotMs, d]));

describe('sales bucket deltas', () => {
  it('a new counted receipt adds one receipt and its cents to one bucket a slot length, for every receipt of the place and again for its event', () => {
    const deltas = bucketDeltas('acme', [{ before: undefined, after: receipt({ eventId: 'E1' }) }]);
    expect(deltas).toHaveLength(2 * SLOT_LENGTHS.length);
    for (const eventKey of ['', 'E1']) {
      const slots = byLength(deltas, eventKey);
      for (const length of SLOT_LENGTHS) {
        const delta = slots.get(length)!;
        expect(delta).toMatchObject({
          accountId: 'acme',
          placeId: 'P1',
          paymentMethod: 'tef_credit',
          branded: 1,
          brand: 'VISA',
          receipts: 1,
          amountCents: 1250n,
        });
        expect(delta.slotStart <= AT && AT < delta.slotStart + length).toBe(true);
        expect(delta.slotStart % length).toBe(0);
      }
      // The hour and the 4 hours of 21:37:12 UTC, by hand; no slot is shorter than an hour.
      expect(slots.has(15 * 60_000)).toBe(false);
      expect(slots.get(3_600_000)!.slotStart).toBe(Date.parse('2026-11-20T21:00:00Z'));
      expect(slots.get(4 * 3_600_000)!.slotStart).toBe(Date.parse('2026-11-20T20:00:00Z'));
    }
  });

  it('a receipt that stops counting (cancelled afterwards) takes its receipt and cents out of every bucket it was in', () => {
    const deltas = bucketDeltas('acme', [{ before: receipt(), after: receipt({ counted: false }) }]);
    expect(deltas).toHaveLength(SLOT_LENGTHS.length);
    for (const delta of deltas)
      expect(delta).toMatchObject({ eventKey: '', receipts: -1, amountCents: -1250n });
  });

  it('a corrected amount changes the cents of its buckets and not their count', () => {
    const deltas = bucketDeltas('acme', [{ before: receipt(), after: receipt({ amountCents: 1000 }) }]);
    for (const delta of deltas) expect(delta).toMatchObject({ receipts: 0, amountCents: -250n });
  });

  it('a receipt moved in time, to another place or event leaves its old buckets and enters the new ones', () => {
    const moved = receipt({ placeId: 'P2', eventId: 'E3', occurredAt: AT + 86_400_000 * 400 });
    const deltas = bucketDeltas('acme', [{ before: receipt({ eventId: 'E1' }), after: moved }]);
    const out = deltas.filter((d) => d.receipts === -1);
    const into = deltas.filter((d) => d.receipts === 1);
    expect(out.map((d) => `${d.placeId}/${d.eventKey}`).sort()).toEqual(
      [...SLOT_LENGTHS.map(() => 'P1/'), ...SLOT_LENGTHS.map(() => 'P1/E1')].sort(),
    );
    expect(into.map((d) => `${d.placeId}/${d.eventKey}`).sort()).toEqual(
      [...SLOT_LENGTHS.map(() => 'P2/'), ...SLOT_LENGTHS.map(() => 'P2/E3')].sort(),
    );
  });

  it('a receipt without brand and one whose recorded brand is empty go to different buckets (reported under different lines)', () => {
    const deltas = bucketDeltas('acme', [
      { before: undefined, after: receipt({ brand: null }) },
      { before: undefined, after: receipt({ brand: '' }) },
    ]);
    expect(deltas).toHaveLength(2 * SLOT_LENGTHS.length);
    expect(deltas.filter((d) => d.branded === 0 && d.brand === '')).toHaveLength(SLOT_LENGTHS.length);
    expect(deltas.filter((d) => d.branded === 1 && d.brand === '')).toHaveLength(SLOT_LENGTHS.length);
  });

  it('receipts that count neither before nor after, and receipts written again unchanged, change no bucket', () => {
    expect(
      bucketDeltas('acme', [
        { before: undefined, after: receipt({ counted: false }) },
        { before: receipt({ counted: false }), after: receipt({ counted: false, amountCents: 5 }) },
        { before: receipt(), after: receipt() },
      ]),
    ).toEqual([]);
  });

  it('the deltas of a batch are summed per bucket and those that cancel out are left out, in one order of buckets whatever the order of the receipts', () => {
    const changes = [
      { before: undefined, after: receipt() },
      { before: undefined, after: receipt({ amountCents: 50, occurredAt: AT + 1 }) },
      { before: receipt({ paymentMethod: 'cash', brand: null }), after: undefined },
      { before: undefined, after: receipt({ paymentMethod: 'cash', brand: null }) },
    ];
    const deltas = bucketDeltas('acme', changes);
    expect(deltas).toHaveLength(SLOT_LENGTHS.length);
    for (const delta of deltas) expect(delta).toMatchObject({ receipts: 2, amountCents: 1300n });
    expect(bucketDeltas('acme', [...changes].reverse())).toEqual(deltas);
  });

  it('any changes sum, bucket by bucket, to what adding them up one by one gives: many slots, times before 1970, sums past 2^53 cents, in the order of the buckets’ key', () => {
    const state = fc.record({
      placeId: fc.constantFrom('P1', 'P10'),
      eventId: fc.constantFrom(null, 'E1'),
      // Within a day (many receipts in each bucket), or up to 8 years either side of 1970 (many slots of
      // each length, instants before 1970 too).
      occurredAt: fc.oneof(
        fc.integer({ min: AT - 86_400_000, max: AT + 86_400_000 }),
        fc.integer({ min: -(2 ** 38), max: 2 ** 38 }),
      ),
      paymentMethod: fc.constantFrom('cash', 'pix'),
      brand: fc.constantFrom(null, '', 'VISA'),
      amountCents: fc.oneof(fc.integer({ min: -5_000, max: 500_000 }), fc.constant(Number.MAX_SAFE_INTEGER)),
      counted: fc.boolean(),
    });
    const change = fc.record({
      before: fc.option(state, { nil: undefined }),
      after: fc.option(state, { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(change, { maxLength: 400 }), (changes) => {
        // The reference: one map entry a bucket, summed with bigints.
        const expected = new Map<string, { delta: BucketDelta; order: (string | number)[] }>();
        const put = (r: BucketedReceipt, sign: number, eventKey: string) => {
          SLOT_LENGTHS.forEach((length, index) => {
            const start = r.occurredAt - (((r.occurredAt % length) + length) % length);
            const combo =
              r.brand === null ? `${r.paymentMethod}\u0000` : `${r.paymentMethod}\u0000\u0000${r.brand}`;
            const group = `${r.placeId}\u0000${eventKey}`;
            const key = JSON.stringify([group, index, start, combo]);
            const held = expected.get(key) ?? {
              order: [group, index, start, combo],
              delta: {
                accountId: 'acme',
                placeId: r.placeId,
                eventKey,
                slotMs: length,
                slotStart: start,
                paymentMethod: r.paymentMethod,
                branded: r.brand === null ? 0 : 1,
                brand: r.brand ?? '',
                receipts: 0,
                amountCents: 0n,
              },
            };
            held.delta.receipts += sign;
            held.delta.amountCents += BigInt(r.amountCents * sign);
            expected.set(key, held);
          });
        };
        const add = (r: BucketedReceipt | undefined, sign: number) => {
          if (r?.counted !== true) return;
          put(r, sign, '');
          if (r.eventId !== null) put(r, sign, r.eventId);
        };
        for (const { before, after } of changes) {
          add(before, -1);
          add(after, 1);
        }
        const compare = (a: (string | number)[], b: (string | number)[]) => {
          for (let i = 0; i < a.length; i += 1) {
            const [x, y] = [a[i] ?? 0, b[i] ?? 0];
            if (x !== y) return x < y ? -1 : 1;
          }
          return 0;
        };
        const reference = [...expected.values()]
          .filter(({ delta }) => delta.receipts !== 0 || delta.amountCents !== 0n)
          .sort((a, b) => compare(a.order, b.order))
          .map(({ delta }) => delta);
        expect(bucketDeltas('acme', changes)).toEqual(reference);
      }),
      { numRuns: 200 },
    );
  });
});

/** Where the generated receipts are recorded. */
const LOCATIONS: [Location, Location, Location] = [
  { account: 'acme', place: 'p1', events: ['e1', 'e2'] },
  { account: 'acme', place: 'p2', events: ['e3'] },
  { account: 'other', place: 'p1', events: ['e1'] },
];

async function seed(t: TestApp): Promise<void> {
  for (const account of ['acme', 'other']) {
    await t.admin('PUT', `/admin/v1/pos/accounts/${account}`, { name: account });
  }
  for (const { account, place, events } of LOCATIONS) {
    await t.admin('PUT', `/admin/v1/pos/accounts/${account}/places/${place}`, { timezone: 'America/Recife' });
    for (const event of events) {
      await t.admin('PUT', `/admin/v1/pos/accounts/${account}/places/${place}/events/${event}`, {
        name: event,
      });
    }
  }
}

const bucketCount = async (t: TestApp) =>
  Number(
    (
      await t.db
        .selectFrom('pos_sales_buckets')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** A receipt as the write path takes it. */
function data(id: string, fields: Partial<ReceiptData> = {}): ReceiptData {
  return {
    id,
    placeId: 'p1',
    eventId: null,
    occurredAt: AT,
    paymentMethod: 'tef_credit',
    brand: 'VISA',
    amountCents: 1250,
    kind: 'sale',
    status: 'paid',
    demo: false,
    ...fields,
  };
}

/** What a later upload does to a receipt of the multi-page upload tests. */
type Change = 'none' | 'cancel' | 'move' | 'amount';

/** An NDJSON receipt line of those tests: `n` picks its method and brand; a move goes to p2, no event. */
function changedLine(id: string, n: number, at: number, event: string | null, change: Change): string {
  return JSON.stringify({
    id,
    place: change === 'move' ? 'p2' : 'p1',
    event: change === 'move' ? null : event,
    occurred_at: new Date(at).toISOString(),
    payment_method: n % 2 === 0 ? 'tef_credit' : 'cash',
    brand: n % 2 === 0 ? 'VISA' : null,
    amount: change === 'amount' ? '1.00' : '12.50',
    kind: 'sale',
    status: change === 'cancel' ? 'cancelled' : 'paid',
  });
}

/** Uploads the lines as NDJSON into account acme; the answer (200 expected). */
async function uploadLines(t: TestApp, lines: string[]): Promise<unknown> {
  const response = await t.app.admin.inject({
    method: 'POST',
    url: '/admin/v1/pos/accounts/acme/receipts',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson' },
    payload: lines.join('\n'),
  });
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as unknown;
}

describeEachDialect('sales buckets kept by the write path', (dialect) => {
  const t = useTestApp(dialect);

  it('after any history of writes through the admin API (new and late receipts, corrections, cancellations, moves to another place or event, a receipt twice in one call, receipts sent again unchanged) the buckets equal the sums of the counted receipts', async () => {
    await seed(t);
    await fc.assert(
      fc.asyncProperty(
        fc.array(generatedReceipt(LOCATIONS, wideInstant), { minLength: 1, maxLength: 30, size: 'max' }),
        fc.array(fc.array(correction, { minLength: 1, maxLength: 3 }), { maxLength: 5 }),
        async (receipts, calls) => {
          // A fresh start around the write path: receipts and buckets emptied together.
          await t.db.deleteFrom('pos_receipts').execute();
          await t.db.deleteFrom('pos_sales_buckets').execute();
          await writeReceiptHistory(t, receipts, calls, LOCATIONS);
          expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
        },
      ),
      { numRuns: 30 },
    );
  });

  // The last step takes 5,000 staged receipts a statement and sums their deltas over all pages before it
  // writes the buckets (src/pos/receipts/receipt-apply-postgres.ts). On PostgreSQL only: SQLite's check of
  // 40,000 buckets in memory takes minutes, and its last step is the same SQL as every other test here.
  it.runIf(dialect.name === 'postgres')(
    'an upload of several pages of the last step (14,000 receipts, over 40,000 buckets), and a second one that cancels, moves and corrects its receipts too: the buckets equal the sums',
    async () => {
      await seed(t);
      const HOUR = 3_600_000;
      // 14,000 receipts an hour apart (a year and a half), two thirds with an event: over 40,000 buckets.
      const line = (n: number, change: Change) =>
        changedLine(`R${n}`, n, AT - n * HOUR, n % 3 === 0 ? 'e1' : n % 3 === 1 ? 'e2' : null, change);
      const upload = (lines: string[]) => uploadLines(t, lines);
      const ids = Array.from({ length: 14_000 }, (_, n) => n);
      expect(await upload(ids.map((n) => line(n, 'none')))).toEqual({
        inserted: 14_000,
        updated: 0,
        unchanged: 0,
      });
      expect(await bucketCount(t)).toBeGreaterThan(40_000);
      expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
      const changes = ['none', 'cancel', 'move', 'amount'] as const;
      expect(await upload(ids.map((n) => line(n, changes[n % 4] ?? 'none')))).toEqual({
        inserted: 0,
        updated: 10_500,
        unchanged: 3500,
      });
      expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
    },
    120_000,
  );

  it('an upload whose first page of the last step (5,000 receipts by id) is all new and whose second holds stored receipts, cancelled, moved, corrected or sent again: the counts, and the buckets equal the sums', async () => {
    await seed(t);
    const HOUR = 3_600_000;
    // A day of receipts: few buckets, so that the check stays quick on SQLite too.
    const line = (id: string, n: number, change: Change) =>
      changedLine(id, n, AT - (n % 24) * HOUR - n, n % 3 === 0 ? 'e1' : null, change);
    const upload = (lines: string[]) => uploadLines(t, lines);
    const id = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;
    const stored = Array.from({ length: 1_000 }, (_, n) => n);
    expect(await upload(stored.map((n) => line(id('B', n), n, 'none')))).toEqual({
      inserted: 1_000,
      updated: 0,
      unchanged: 0,
    });
    const changes = ['none', 'cancel', 'move', 'amount'] as const;
    const fresh = Array.from({ length: 6_000 }, (_, n) => line(id('A', n), n, 'none'));
    const again = stored.map((n) => line(id('B', n), n, changes[n % 4] ?? 'none'));
    expect(await upload([...again, ...fresh])).toEqual({ inserted: 6_000, updated: 750, unchanged: 250 });
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  }, 60_000);

  it('a bucket whose receipts all left is deleted, not kept at zero', async () => {
    await seed(t);
    const post = (status: string) =>
      t.admin('POST', '/admin/v1/pos/accounts/acme/receipts', {
        receipts: [
          {
            id: 'R1',
            place: 'p1',
            event: 'e1',
            occurred_at: '2026-11-20T18:37:12-03:00',
            payment_method: 'cash',
            amount: '12.50',
            kind: 'sale',
            status,
          },
        ],
      });
    await post('paid');
    expect(await bucketCount(t)).toBe(2 * SLOT_LENGTHS.length);
    await post('cancelled');
    expect(await bucketCount(t)).toBe(0);
  });

  it('the demo seed keeps the buckets: they equal the sums of its receipts', async () => {
    await seedPosDemo(t.services, { receipts: 3000 });
    expect(await bucketCount(t)).toBeGreaterThan(3000);
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });

  it('a bulk write that rebuilds the account’s buckets instead of keeping them by deltas leaves them equal to the sums of its receipts, new and replaced', async () => {
    await seed(t);
    const write = (receipts: ReceiptData[], options?: { buckets: 'rebuild' }) =>
      t.db.transaction().execute((trx) => writeReceipts(trx, 'acme', receipts, AT, options));
    await write([data('R1'), data('R2', { eventId: 'e1' }), data('R3', { placeId: 'p2' })]);
    // R1 cancelled, R2 moved to another hour and event, R4 new; R3 as it was.
    await write(
      [
        data('R1', { status: 'cancelled' }),
        data('R2', { eventId: 'e2', occurredAt: AT + 3_600_000 }),
        data('R4', { amountCents: 7 }),
      ],
      { buckets: 'rebuild' },
    );
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });

  it('receipts are written only inside a transaction, which their buckets change with', async () => {
    await seed(t);
    await expect(writeReceipts(t.db, 'acme', [data('R1')], AT)).rejects.toThrow(/inside a transaction/);
    expect(await t.db.selectFrom('pos_receipts').selectAll().execute()).toEqual([]);
    expect(await bucketCount(t)).toBe(0);
  });

  it('a bucket beyond 2^63 - 1 cents: exact on PostgreSQL (numeric); on SQLite the write fails and nothing of it is stored, never a rounded sum', async () => {
    await seed(t);
    const max = Number.MAX_SAFE_INTEGER;
    const write = (from: number, count: number) =>
      t.db.transaction().execute((trx) =>
        writeReceipts(
          trx,
          'acme',
          Array.from({ length: count }, (_, i) => data(`R${from + i}`, { amountCents: max })),
          AT,
        ),
      );
    // 1,000 receipts of 2^53 - 1 cents in one bucket: about 9.007 * 10^18 cents, below 2^63 - 1.
    await write(0, 1000);
    // 100 more pass it.
    const more = write(1000, 100);
    const stored = () => t.db.selectFrom('pos_receipts').select('id').execute();
    if (dialect.name === 'sqlite') {
      await expect(more).rejects.toThrow(/CHECK constraint failed/);
      expect(await stored()).toHaveLength(1000);
    } else {
      await more;
      expect(await stored()).toHaveLength(1100);
    }
    const { rows } = await sql<{ cents: string }>`
      select cast(amount_cents as text) as cents from pos_sales_buckets where event_id = '' limit 1`.execute(
      t.db,
    );
    const receipts = dialect.name === 'sqlite' ? 1000n : 1100n;
    expect(rows[0]?.cents).toBe((receipts * BigInt(max)).toString());
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });
});

describePostgres('sales buckets under concurrent writes', (dialect) => {
  const t = useTestApp(dialect);

  it('two transactions writing one new receipt id at once leave the buckets equal to the receipts: the receipt writes of an account wait for each other', async () => {
    await seed(t);
    let written!: () => void;
    const firstWritten = new Promise<void>((resolve) => (written = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const first = t.db.transaction().execute(async (trx) => {
      await writeReceipts(trx, 'acme', [data('R1', { amountCents: 100 })], AT);
      written();
      await released;
    });
    await firstWritten;
    // The same id, another state, while the first transaction is still open: it must wait, then
    // replace the first's state (subtracting it), not take the receipt for new.
    const later = data('R1', { amountCents: 700, occurredAt: AT + 86_400_000 });
    const second = t.db.transaction().execute((trx) => writeReceipts(trx, 'acme', [later], AT));
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await Promise.all([first, second]);
    expect(await checkSalesBuckets(t.db)).toEqual({ differing: 0, differences: [] });
  });
});
