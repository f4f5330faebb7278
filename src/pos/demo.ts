import { SERVICE_ACTOR } from '../audit/actor.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { keyOutcomeValue } from './keys/merchant-key-problem.js';
import type { KeyCreateInput } from './keys/merchant-key-input.js';
import type { MerchantKeyService } from './keys/merchant-key-service.js';
import { PAYMENT_METHODS } from './receipts/payment-methods.js';
import type { PosDataService } from './places/pos-data-service.js';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from './receipts/receipt-rules.js';
import type { ReceiptIngestion } from './receipts/receipt-ingestion.js';
import type { ReceiptData } from './receipts/receipt-repository.js';
import { posDataOutcomeValue } from './places/pos-data-refusal.js';

/** The demo merchant account created on a first start. */
export const DEMO_ACCOUNT = 'demo';

/** How many receipts the demo writes (about 1,000 a day over 200 days). */
export const DEMO_RECEIPTS = 200_000;

/** The demo merchant's key: what the first start creates, and `partner-gateway demo credentials` again. */
export const DEMO_KEY = {
  name: 'Demo integration',
  permissions: ['sale-by-payment-method.view', 'event.view'],
  places: 'all',
} as const satisfies KeyCreateInput;

const DAY_MS = 86_400_000;

/** True when no merchant account exists yet (a first start). */
export async function posIsEmpty(db: Db): Promise<boolean> {
  return (await db.selectFrom('pos_accounts').select('id').limit(1).executeTakeFirst()) === undefined;
}

/** A small deterministic generator, so that every demo database holds the same figures. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

/** Brand spellings as terminals record them: extra spaces, case, acquirer names, text outside the format. */
const BRANDS = [
  'VISA',
  'Visa',
  'MASTERCARD',
  'MASTER  CARD',
  ' ELO ',
  'AMEX',
  'HIPERCARD',
  'VR BENEFICIOS',
  'Cielo/Visa',
  'ELO CRÉDITO',
  'SODEXO*REFEIÇÃO',
  null,
];

/**
 * Creates the demo merchant: an account, three places in different time zones, events, about 200,000
 * receipts over the last 200 days covering every payment method, kind and status (odd brand spellings
 * and late offline sales included), and one key with every permission. Returns the key.
 */
export async function seedPosDemo(
  services: {
    clock: Clock;
    receipts: Pick<ReceiptIngestion, 'loadIntoNewAccount'>;
    posData: Pick<PosDataService, 'putAccount' | 'putPlace' | 'putEvent'>;
    merchantKeys: Pick<MerchantKeyService, 'create'>;
  },
  options: {
    /** How many receipts to write (tests write fewer). */
    receipts?: number;
  } = {},
): Promise<{ key: string }> {
  const { clock, posData, merchantKeys } = services;
  const count = options.receipts ?? DEMO_RECEIPTS;
  const now = clock.now();
  await posData.putAccount(DEMO_ACCOUNT, {
    name: 'Demo Bares e Eventos',
    currency: 'BRL',
    active: true,
    email: null,
  });
  const places = [
    { id: 'SP01', name: 'Bar Paulista', timezone: 'America/Sao_Paulo' },
    { id: 'MAN01', name: 'Quiosque Manaus', timezone: 'America/Manaus' },
    { id: 'REC01', name: 'Arena Recife', timezone: 'America/Recife' },
  ];
  for (const place of places) {
    posDataOutcomeValue(
      await posData.putPlace(DEMO_ACCOUNT, place.id, {
        name: place.name,
        timezone: place.timezone,
        active: true,
      }),
    );
  }
  const events = [
    { place: 'SP01', id: 'SJ2026', name: 'Festa de São João', daysAgo: 150 },
    { place: 'REC01', id: 'FREVO', name: 'Noite do Frevo', daysAgo: 90 },
    { place: 'REC01', id: 'REVEILLON', name: 'Réveillon na Arena', daysAgo: 20 },
  ];
  for (const event of events) {
    const startsAt = now - event.daysAgo * DAY_MS;
    posDataOutcomeValue(
      await posData.putEvent(DEMO_ACCOUNT, event.place, event.id, {
        name: event.name,
        starts_at: startsAt,
        ends_at: startsAt + 8 * 3_600_000,
        active: true,
        registered_at: now - (event.daysAgo + 30) * DAY_MS,
      }),
    );
  }

  const next = random(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const methods = [...PAYMENT_METHODS.map((method) => method.code), 'legacy_card'];
  const receipts: ReceiptData[] = [];
  for (let index = 0; index < count; index += 1) {
    const place = pick(places).id;
    const method = pick(methods);
    // Mostly paid sales; every other kind and status appears too.
    const kind = next() < 0.8 ? 'sale' : next() < 0.95 ? pick(RECEIPT_KINDS) : null;
    const status = next() < 0.9 ? 'paid' : pick(RECEIPT_STATUSES);
    // Every receipt arrives now for a moment in the past, as sales of offline devices do.
    const daysAgo = next() * 200;
    const occurredAt = Math.floor(now - daysAgo * DAY_MS);
    const event = events.find(
      (e) => e.place === place && Math.abs(e.daysAgo - daysAgo) < 0.5 && next() < 0.9,
    );
    receipts.push({
      id: `D${String(index).padStart(7, '0')}`,
      placeId: place,
      eventId: event?.id ?? null,
      occurredAt,
      paymentMethod: method,
      brand: method.startsWith('tef_') ? pick(BRANDS) : null,
      amountCents: Math.floor(next() * 30_000) + 100,
      kind,
      status,
      demo: next() < 0.01,
    });
  }
  await services.receipts.loadIntoNewAccount(DEMO_ACCOUNT, receipts, now);

  const created = keyOutcomeValue(
    await merchantKeys.create(
      DEMO_ACCOUNT,
      { ...DEMO_KEY, permissions: [...DEMO_KEY.permissions] },
      SERVICE_ACTOR,
    ),
  );
  return { key: created.key };
}
