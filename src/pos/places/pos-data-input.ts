import { z } from 'zod';
import { displayName } from '../../lib/input-text.js';
import { parseInstant } from '../../lib/instant.js';
import { isIanaTimeZone } from '../../lib/time-zone.js';
import { POS_IDENTIFIER } from '../pos-identifier.js';

// What the operator sends to write a merchant's accounts, places and events (docs/admin-rules.md, Point of
// sale): the bodies of the PUTs and the identifiers of the paths. Bad input is refused before anything is
// written.

/** An identifier of an account, place, event or receipt (docs/admin-rules.md, intro). */
export const identifier = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .regex(POS_IDENTIFIER, 'must be 1 to 64 letters or digits (A-Z, a-z, 0-9)');

const name = displayName;

const INSTANT_RULE =
  'must be an ISO 8601 instant with a mandatory offset or Z, such as "2026-11-20T21:30:00-03:00"';

/** An instant the operator sends, read as milliseconds since the epoch. */
export const instant = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : INSTANT_RULE) })
  .transform((value, context) => {
    const ms = parseInstant(value);
    if (ms === null) {
      context.issues.push({ code: 'custom', message: INSTANT_RULE, input: value });
      return z.NEVER;
    }
    return ms;
  })
  .meta({ description: `An instant: ${INSTANT_RULE.replace(/^must be /, '')}.` });

export const accountInput = z.strictObject({
  name,
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be 3 uppercase letters (an ISO 4217 code such as "BRL")')
    .default('BRL'),
  active: z.boolean().default(true),
  /** Where the merchant's e-mail goes; null (the default) sends none (docs/back-office.md, E-mail to merchants). */
  email: z
    .email({ error: 'must be an e-mail address such as "financeiro@example.com.br"' })
    .max(254, 'must be at most 254 characters')
    .nullable()
    .default(null)
    .meta({
      description:
        'Where the merchant’s e-mail goes: a key created, rotated, or edited to reach more. Null (the default) sends none.',
    }),
});

export const placeInput = z.strictObject({
  name: name.nullable().default(null),
  timezone: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
    .refine(isIanaTimeZone, 'must be an IANA time-zone name, such as "America/Sao_Paulo"'),
  active: z.boolean().nullable().default(null),
});

export const eventInput = z
  .strictObject({
    name,
    starts_at: instant.nullable().default(null),
    ends_at: instant.nullable().default(null),
    active: z.boolean().default(true),
    /** Defaults to now for a new event; a replaced event keeps its registration instant. */
    registered_at: instant.optional(),
  })
  .refine((event) => event.starts_at === null || event.ends_at === null || event.ends_at >= event.starts_at, {
    message: 'must not be before starts_at',
    path: ['ends_at'],
  });

export type AccountInput = z.infer<typeof accountInput>;
export type PlaceInput = z.infer<typeof placeInput>;
export type EventInput = z.infer<typeof eventInput>;

/** The path of one account. */
export const accountIdPath = z.strictObject({ id: identifier });
/** The path of an account's collections (places, receipts). */
export const accountPath = z.strictObject({ account: identifier });
/** The path of one place. */
export const placeIdPath = z.strictObject({ account: identifier, id: identifier });
/** The path of a place's events. */
export const placePath = z.strictObject({ account: identifier, place: identifier });
/** The path of one event. */
export const eventIdPath = z.strictObject({ account: identifier, place: identifier, id: identifier });
