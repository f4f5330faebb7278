import { z } from 'zod';
import { wireTime, wireTimeText } from '../../lib/wire-time.js';
import type { PosAccount } from './account-repository.js';
import type { PosEvent } from './event-repository.js';
import type { PosPlace } from './place-repository.js';

// What the operator reads of a merchant's accounts, places and events (docs/admin-rules.md, Point of sale).

export const accountBody = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    currency: z.string(),
    active: z.boolean(),
    email: z
      .string()
      .nullable()
      .meta({ description: 'Where the merchant’s e-mail about keys goes; null: none is sent.' }),
    created_at: wireTimeText,
    updated_at: wireTimeText,
  })
  .meta({
    id: 'Account',
    examples: [
      {
        id: 'acme',
        name: 'ACME Comércio',
        currency: 'BRL',
        active: true,
        email: 'financeiro@acme.example',
        created_at: '2026-11-01T12:00:00Z',
        updated_at: '2026-11-20T12:00:00Z',
      },
    ],
  });

export const placeBody = z
  .strictObject({
    account: z.string(),
    id: z.string(),
    name: z.string().nullable(),
    timezone: z.string(),
    /** Null when the operator never said. */
    active: z.boolean().nullable(),
    created_at: wireTimeText,
    updated_at: wireTimeText,
  })
  .meta({
    id: 'Place',
    examples: [
      {
        account: 'acme',
        id: 'SP01',
        name: 'Loja Paulista',
        timezone: 'America/Sao_Paulo',
        active: null,
        created_at: '2026-11-01T12:00:00Z',
        updated_at: '2026-11-20T12:00:00Z',
      },
    ],
  });

export const eventBody = z
  .strictObject({
    account: z.string(),
    place: z.string(),
    id: z.string(),
    name: z.string(),
    starts_at: wireTimeText.nullable(),
    ends_at: wireTimeText.nullable(),
    active: z.boolean(),
    registered_at: wireTimeText,
  })
  .meta({
    id: 'Event',
    examples: [
      {
        account: 'acme',
        place: 'REC01',
        id: 'FREVO',
        name: 'Frevo na Arena',
        starts_at: '2026-02-14T18:00:00Z',
        ends_at: '2026-02-15T06:00:00Z',
        active: true,
        registered_at: '2026-01-10T12:00:00Z',
      },
    ],
  });

export function accountView(account: PosAccount): z.infer<typeof accountBody> {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    active: account.active,
    email: account.email,
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
