import type { Db } from '../src/db/database.js';
import { countsTowardFigures } from '../src/pos/receipts/receipt-rules.js';
import type { ReceiptData } from '../src/pos/receipts/receipt-repository.js';

// The receipts of the sales benchmark: one busy place over 365 days, generated deterministically (the
// same seed gives the same receipts), and loaded straight into the tables with multi-row inserts, not
// through the admin API, so that a million receipts load in seconds. The buckets are rebuilt afterwards
// (src/pos/sales/sales-bucket-audit.ts), as after any bulk load.

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The place's offset: America/Sao_Paulo, UTC-03:00 all year. */
const OFFSET = -3 * HOUR;

/** The benchmark's account, place and last day. */
export const BENCH_ACCOUNT = 'bench';
export const BENCH_PLACE = 'P1';
/** Local midnight (-03:00) that ends the 365 days of receipts. */
export const BENCH_END = Date.UTC(2026, 10, 20) - OFFSET;
export const BENCH_DAYS = 365;

/** An event of the place: two evenings a week, 18:00 to 02:00 local. */
export interface BenchEvent {
  id: string;
  name: string;
  startsAt: number;
  endsAt: number;
}

/** The place's events: every Friday and Saturday evening of the 365 days (104 or so). */
export function benchEvents(): BenchEvent[] {
  const events: BenchEvent[] = [];
  for (let day = 0; day < BENCH_DAYS; day += 1) {
    const midnight = BENCH_END - (BENCH_DAYS - day) * DAY;
    const weekday = new Date(midnight + OFFSET).getUTCDay();
    if (weekday !== 5 && weekday !== 6) continue;
    const startsAt = midnight + 18 * HOUR;
    events.push({
      id: `EV${String(day).padStart(3, '0')}`,
      name: `Noite ${day}`,
      startsAt,
      endsAt: startsAt + 8 * HOUR,
    });
  }
  return events;
}

/** A small deterministic generator (the demo's). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

/** Picks from weighted choices. */
function weighted<T>(next: () => number, choices: readonly (readonly [T, number])[]): () => T {
  const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
  return () => {
    let point = next() * total;
    for (const [value, weight] of choices) {
      point -= weight;
      if (point < 0) return value;
    }
    return choices[choices.length - 1]![0];
  };
}

const CARD_BRANDS = [
  ['VISA', 30],
  ['Visa', 4],
  ['MASTERCARD', 25],
  ['MASTER  CARD', 2],
  [' ELO ', 10],
  ['ELO CRÉDITO', 2],
  ['AMEX', 4],
  ['HIPERCARD', 3],
  ['Cielo/Visa', 2],
  [null, 3],
] as const;
const VOUCHER_BRANDS = [
  ['VR BENEFICIOS', 10],
  ['SODEXO*REFEIÇÃO', 8],
  ['ALELO', 8],
  ['TICKET', 6],
  [null, 1],
] as const;
const WALLET_BRANDS = [
  ['PICPAY', 5],
  ['MERCADO PAGO', 5],
  ['GOOGLE PAY', 2],
  [null, 1],
] as const;

/** A generated receipt of the bench's one place: a device's receipt without its place. */
export type BenchReceipt = Omit<ReceiptData, 'placeId'>;

/**
 * `count` receipts of the place over the 365 days before BENCH_END: 30% during an event and recorded
 * with it, the others at the hours a bar is busy; every payment method (two unknown codes too), brand
 * spellings as terminals record them, every kind and status in realistic shares.
 */
export function* benchReceipts(
  count: number,
  events: readonly BenchEvent[],
  seed = 20261120,
): Generator<BenchReceipt> {
  const next = random(seed);
  const method = weighted(next, [
    ['tef_credit', 30],
    ['tef_debit', 22],
    ['tef_pix', 14],
    ['cash', 10],
    ['tef_virtual_wallet', 5],
    ['tef_voucher', 4],
    ['tef_voucher_2', 1],
    ['tef_others', 1],
    ['tef_unspecified', 1],
    ['pos', 4],
    ['voucher', 3],
    ['not_identified', 1],
    ['other', 1],
    ['legacy_card', 1],
    ['PIX', 1],
  ] as const);
  const card = weighted(next, CARD_BRANDS);
  const voucher = weighted(next, VOUCHER_BRANDS);
  const wallet = weighted(next, WALLET_BRANDS);
  const kind = weighted(next, [
    ['sale', 80],
    ['tab', 6],
    ['cashless_topup', 4],
    ['cashless_activation', 1],
    ['cashless_consumption', 4],
    ['withdrawal', 0.5],
    ['supply', 0.5],
    ['refund_item', 1],
    ['refund_product', 0.5],
    ['refund_cashless', 0.5],
    ['cashless_return', 0.5],
    [null, 1.5],
  ] as const);
  const status = weighted(next, [
    ['paid', 94],
    ['cancelled', 4],
    ['unpaid', 2],
  ] as const);
  // Local hour of a receipt outside events: lunch and evening peaks.
  const hour = weighted(
    next,
    Array.from({ length: 24 }, (_, h) => [h, h < 10 ? 0.3 : h < 15 ? 4 : h < 18 ? 2 : 6] as const),
  );
  const firstDay = BENCH_END - BENCH_DAYS * DAY;
  for (let index = 0; index < count; index += 1) {
    let occurredAt: number;
    let eventId: string | null = null;
    if (next() < 0.3 && events.length > 0) {
      const event = events[Math.floor(next() * events.length)]!;
      eventId = event.id;
      occurredAt = event.startsAt + Math.floor(next() * (event.endsAt - event.startsAt));
    } else {
      const day = Math.floor(next() * BENCH_DAYS);
      occurredAt = firstDay + day * DAY + hour() * HOUR + Math.floor(next() * HOUR);
    }
    const code = method();
    const brand =
      code === 'tef_voucher' || code === 'tef_voucher_2'
        ? voucher()
        : code === 'tef_virtual_wallet'
          ? wallet()
          : code.startsWith('tef_') && code !== 'tef_pix'
            ? card()
            : null;
    yield {
      id: `B${String(index).padStart(8, '0')}`,
      eventId,
      occurredAt,
      paymentMethod: code,
      brand,
      amountCents: Math.round(Math.exp(7 + next() * 3.5)),
      kind: kind(),
      status: status(),
      demo: next() < 0.003,
    };
  }
}

/** The receipt as POST receipts takes it (docs/admin-rules.md, Point of sale). */
export function receiptBody(r: BenchReceipt): Record<string, unknown> {
  const cents = String(r.amountCents).padStart(3, '0');
  return {
    id: r.id,
    place: BENCH_PLACE,
    event: r.eventId,
    occurred_at: new Date(r.occurredAt).toISOString(),
    payment_method: r.paymentMethod,
    brand: r.brand,
    amount: `${cents.slice(0, -2)}.${cents.slice(-2)}`,
    kind: r.kind,
    status: r.status,
    demo: r.demo,
  };
}

/** Rows per INSERT: 14 parameters each, within SQLite's and PostgreSQL's limits. */
const LOAD_BATCH = 1_000;

/** Inserts the receipts into pos_receipts with multi-row statements (no buckets: rebuild them after). */
export async function loadReceipts(db: Db, receipts: Iterable<BenchReceipt>, now: number): Promise<number> {
  let loaded = 0;
  let batch: BenchReceipt[] = [];
  const flush = async (trx: Db) => {
    if (batch.length === 0) return;
    await trx
      .insertInto('pos_receipts')
      .values(
        batch.map((r) => ({
          account_id: BENCH_ACCOUNT,
          id: r.id,
          place_id: BENCH_PLACE,
          event_id: r.eventId,
          occurred_at: r.occurredAt,
          payment_method: r.paymentMethod,
          brand: r.brand,
          amount_cents: r.amountCents,
          kind: r.kind,
          status: r.status,
          demo: r.demo ? 1 : 0,
          counted: countsTowardFigures(r) ? 1 : 0,
          received_at: now,
          updated_at: now,
        })),
      )
      .execute();
    loaded += batch.length;
    batch = [];
  };
  await db.transaction().execute(async (trx) => {
    for (const receipt of receipts) {
      batch.push(receipt);
      if (batch.length >= LOAD_BATCH) await flush(trx);
    }
    await flush(trx);
  });
  return loaded;
}
