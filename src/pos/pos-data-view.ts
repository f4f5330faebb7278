import { z } from 'zod';
import { wireTime, wireTimeText } from '../lib/wire-time.js';
import type { PosAccount } from './account-repository.js';
import type { PosEvent } from './event-repository.js';
import type { PosPlace } from './place-repository.js';

// What the operator reads of a merchant's accounts, places and events (admin-api.md, Point of sale).

export const accountBody = z.strictObject({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  active: z.boolean(),
  created_at: wireTimeText,
  updated_at: wireTimeText,
});

export const placeBody = z.strictObject({
  account: z.string(),
  id: z.string(),
  name: z.string().nullable(),
  timezone: z.string(),
  /** Null when the operator never said. */
  active: z.boolean().nullable(),
  created_at: wireTimeText,
  updated_at: wireTimeText,
});

export const eventBody = z.strictObject({
  account: z.string(),
  place: z.string(),
  id: z.string(),
  name: z.string(),
  starts_at: wireTimeText.nullable(),
  ends_at: wireTimeText.nullable(),
  active: z.boolean(),
  registered_at: wireTimeText,
});

export function accountView(account: PosAccount): z.infer<typeof accountBody> {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    active: account.active,
    created_at: wireTime(account.createdAt),
    updated_at: wireTime(account.updatedAt),
  };
}

export function placeView(place: PosPlace): z.infer<typeof placeBody> {
  return {
    account: place.accountId,
    id: place.id,
    name: place.name,
    timezone: place.timezone,
    active: place.active,
    created_at: wireTime(place.createdAt),
    updated_at: wireTime(place.updatedAt),
  };
}

export function eventView(event: PosEvent): z.infer<typeof eventBody> {
  return {
    account: event.accountId,
    place: event.placeId,
    id: event.id,
    name: event.name,
    starts_at: event.startsAt === null ? null : wireTime(event.startsAt),
    ends_at: event.endsAt === null ? null : wireTime(event.endsAt),
    active: event.active,
    registered_at: wireTime(event.registeredAt),
  };
}
