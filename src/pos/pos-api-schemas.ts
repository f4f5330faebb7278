import { z } from 'zod';
import { wireTimeText } from '../lib/wire-time.js';
import { PAYMENT_METHODS } from './payment-methods.js';
import { POS_PERMISSIONS } from './pos-permissions.js';

// The bodies the point-of-sale data API answers with (pos-data-api.md, the response of each route), as
// schemas: the route table names them, the tests hold every answer to them, and the OpenAPI document is
// generated from them.

/** Money as decimal text with two decimals, never a number (Conventions). */
const money = z.string().regex(/^-?\d+\.\d{2}$/);
/** A share of the period's total, as a percentage with three decimals. */
const share = z.string().regex(/^-?\d+\.\d{3}$/);
const paymentMethodCodes = PAYMENT_METHODS.map((method) => method.code) as [string, ...string[]];

/** 200 of GET ping: the key, its account and the limits it is measured against. */
export const pingBody = z.strictObject({
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
});

/** 200 of GET places: the places the key reaches, and whether it reaches all of them. */
export const placesBody = z.strictObject({
  all: z.boolean(),
  data: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string().nullable(),
      timezone: z.string(),
      /** Null when the operator never said (admin-api.md: a place's `active` may be null). */
      active: z.boolean().nullable(),
    }),
  ),
});

/** 200 of GET events: one page, most recently registered first. */
export const eventsBody = z.strictObject({
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
});

/** 200 of GET sales/by-payment-method: the period queried and the figures by method and brand. */
export const salesByPaymentMethodBody = z.strictObject({
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
});
