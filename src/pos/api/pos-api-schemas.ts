import { z } from 'zod';
import { wireTimeText } from '../../lib/wire-time.js';
import { PAYMENT_METHODS } from '../receipts/payment-methods.js';
import { POS_PERMISSIONS } from './pos-permissions.js';

// The bodies the point-of-sale data API answers with (docs/pos-api.md, the response of each route), as
// schemas: the route table names them, the tests hold every answer to them, and the OpenAPI document is
// generated from them, with the examples given here.

/** Money as decimal text with two decimals, never a number (Conventions). */
const money = z.string().regex(/^-?\d+\.\d{2}$/);
/** A share of the period's total, as a percentage with three decimals. */
const share = z.string().regex(/^-?\d+\.\d{3}$/);
const paymentMethodCodes = PAYMENT_METHODS.map((method) => method.code) as [string, ...string[]];

/** 200 of GET ping: the key, its account and the limits it is measured against. */
export const pingBody = z
  .strictObject({
    credential: z.strictObject({
      id: z.string(),
      name: z.string(),
      permissions: z.array(z.enum(POS_PERMISSIONS)),
      expires_at: wireTimeText,
      superseded: z.boolean(),
      superseded_until: wireTimeText.nullable(),
    }),
    account: z.strictObject({ id: z.string(), name: z.string() }),
    /** Null when the shared store was unreachable and the call went on unmeasured. */
    rate_limit: z
      .strictObject({ default_per_minute: z.number().int(), heavy_per_minute: z.number().int() })
      .nullable(),
    server_time: wireTimeText,
    api_version: z.literal('v1'),
  })
  .meta({
    id: 'Ping',
    description:
      '`credential.id` identifies the credential, not the secret: it stays the same when the key is rotated and differs on a newly created key. `rate_limit` is null when no limit is being applied at the moment (do not rely on it).',
    examples: [
      {
        credential: {
          id: 'k7Qm2Xa9',
          name: 'ERP',
          permissions: ['event.view', 'sale-by-payment-method.view'],
          expires_at: '2027-06-01T02:59:59Z',
          superseded: false,
          superseded_until: null,
        },
        account: { id: 'acme', name: 'ACME Comércio' },
        rate_limit: { default_per_minute: 60, heavy_per_minute: 10 },
        server_time: '2026-11-20T12:00:00Z',
        api_version: 'v1',
      },
    ],
  });

/** 200 of GET places: the places the key reaches, and whether it reaches all of them. */
export const placesBody = z
  .strictObject({
    all: z.boolean(),
    data: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string().nullable(),
        timezone: z.string(),
        /** Null when the operator never said (docs/admin-rules.md: a place's `active` may be null). */
        active: z.boolean().nullable(),
      }),
    ),
  })
  .meta({
    id: 'Places',
    description:
      '`all`: true means the key covers all places of the account, including future ones. Deactivated places (`active: false`) are listed and remain queryable. Not paginated.',
    examples: [
      {
        all: true,
        data: [
          { id: 'SP01', name: 'Loja Paulista', timezone: 'America/Sao_Paulo', active: true },
          { id: 'REC01', name: 'Arena Recife', timezone: 'America/Recife', active: null },
        ],
      },
    ],
  });

/** 200 of GET events: one page, most recently registered first. */
export const eventsBody = z
  .strictObject({
    place: z.string(),
    search: z.string().nullable(),
    data: z.array(
      z.strictObject({
        id: z.string(),
        name: z.string(),
        starts_at: wireTimeText.nullable(),
        ends_at: wireTimeText.nullable(),
        active: z.boolean(),
      }),
    ),
    next_cursor: z.string().nullable(),
  })
  .meta({
    id: 'Events',
    description:
      'One page, ordered from most recently registered to oldest; deactivated events are included. `starts_at` is null when the event has no date, `ends_at` when it has no valid end. `next_cursor` null: no more pages.',
    examples: [
      {
        place: 'REC01',
        search: 'arena',
        data: [
          {
            id: 'FREVO',
            name: 'Frevo na Arena',
            starts_at: '2026-02-14T18:00:00Z',
            ends_at: '2026-02-15T06:00:00Z',
            active: true,
          },
        ],
        next_cursor: null,
      },
    ],
  });

/** 200 of GET sales/by-payment-method: the period queried and the figures by method and brand. */
export const salesByPaymentMethodBody = z
  .strictObject({
    from: wireTimeText,
    to: wireTimeText,
    place: z.string(),
    event: z.string().nullable(),
    currency: z.string().regex(/^[A-Z]{3}$/),
    total: z.strictObject({ count: z.number().int(), amount: money }),
    data: z.array(
      z.strictObject({
        payment_method: z.enum(paymentMethodCodes),
        label: z.string(),
        count: z.number().int(),
        amount: money,
        share,
        brands: z.array(
          z.strictObject({ brand: z.string().nullable(), count: z.number().int(), amount: money, share }),
        ),
      }),
    ),
  })
  .meta({
    id: 'SalesByPaymentMethod',
    description:
      "`from` and `to`: the period actually queried, in whole seconds (fractions rounded up). Money is text with a dot and two decimals (may be negative): convert to a decimal type, never floating point. `share` is the percentage of the period's total amount with three decimals (a brand's share too); the sum may differ from 100.000 by rounding. `data` lists only methods that had receipts, in the order of the payment-method table; `label` is a Portuguese display name (do not compare). `brands` is empty outside TEF methods; `brand: null` groups receipts without a brand, `OTHER` brands recorded outside the format. The total is gross of refunds.",
    examples: [
      {
        from: '2026-10-01T03:00:00Z',
        to: '2026-11-01T03:00:00Z',
        place: 'SP01',
        event: null,
        currency: 'BRL',
        total: { count: 3, amount: '150.00' },
        data: [
          {
            payment_method: 'cash',
            label: 'Dinheiro',
            count: 1,
            amount: '50.00',
            share: '33.333',
            brands: [],
          },
          {
            payment_method: 'tef_credit',
            label: 'TEF - Crédito',
            count: 2,
            amount: '100.00',
            share: '66.667',
            brands: [{ brand: 'VISA', count: 2, amount: '100.00', share: '66.667' }],
          },
        ],
      },
    ],
  });
