import type { Readable } from 'node:stream';
import { z } from 'zod';
import { displayName, storedText } from '../lib/input-text.js';
import { parseInstant } from '../lib/instant.js';
import { isIanaTimeZone } from '../lib/time-zone.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { POS_IDENTIFIER } from './pos-identifier.js';
import { Problem } from '../errors/problem.js';
import { wireTime } from '../lib/wire-time.js';
import { findAccount, listAccounts, putAccount, type PosAccount } from './account-repository.js';
import {
  deleteEvent,
  eventPlacePairs,
  findEvent,
  listEvents,
  putEvent,
  type PosEvent,
} from './event-repository.js';
import { parseMoney } from './money.js';
import { ndjsonLines } from './ndjson-lines.js';
import { existingPlaceIds, findPlace, listPlaces, putPlace, type PosPlace } from './place-repository.js';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from './receipt-rules.js';
import { findReceipts, sameReceipt, writeReceipts, type ReceiptData } from './receipt-repository.js';

// The point-of-sale data half of the back office (admin-api.md, Point of sale): accounts, places, events
// and the receipts that store devices send. The schemas of what the operator sends and the service the
// admin API, a CLI or a web panel call. Bad input is refused before anything is written; a bad receipt
// refuses its whole call.

/** Receipts per JSON call; longer uploads go as NDJSON (admin-api.md, Point of sale). */
export const RECEIPTS_PER_CALL = 10_000;
/** Receipts validated, compared and written together, inside the one transaction of a call. */
const RECEIPT_CHUNK = 1_000;
/** An NDJSON line longer than this cannot be a receipt (whose fields are at most a few hundred characters). */
const NDJSON_LINE_MAX = 65_536;

export const identifier = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be text') })
  .regex(POS_IDENTIFIER, 'must be 1 to 64 letters or digits (A-Z, a-z, 0-9)');

const text = storedText;
const name = displayName;

const INSTANT_RULE =
  'must be an ISO 8601 instant with a mandatory offset or Z, such as "2026-11-20T21:30:00-03:00"';

const instant = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : INSTANT_RULE) })
  .transform((value, context) => {
    const ms = parseInstant(value);
    if (ms === null) {
      context.issues.push({ code: 'custom', message: INSTANT_RULE, input: value });
      return z.NEVER;
    }
    return ms;
  });

export const accountInput = z.strictObject({
  name,
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be 3 uppercase letters (an ISO 4217 code such as "BRL")')
    .default('BRL'),
  active: z.boolean().default(true),
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

/** The JSON form of POST receipts: the receipts are checked one by one, so that errors name the index. */
export const receiptBatchInput = z.strictObject({
  receipts: z
    .array(z.unknown(), {
      error: (issue) => (issue.input === undefined ? 'is required' : 'must be an array'),
    })
    .max(
      RECEIPTS_PER_CALL,
      `must hold at most ${RECEIPTS_PER_CALL} receipts; send more as NDJSON (Content-Type: application/x-ndjson)`,
    ),
});

const KIND_RULE = `one of ${RECEIPT_KINDS.join(', ')}, or null (no transaction type)`;
const MONEY_RULE =
  'must be money text with a dot and at most two decimals, such as "12.50" (a JSON number is refused: amounts must be exact)';

export const receiptInput = z.strictObject({
  id: identifier,
  place: identifier,
  event: identifier.nullable().default(null),
  occurred_at: instant,
  payment_method: text(64, 'a payment method code').refine((code) => code !== '', 'must not be empty'),
  brand: text(200).nullable().default(null),
  amount: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : MONEY_RULE) })
    .transform((value, context) => {
      const cents = parseMoney(value);
      if (cents === null) {
        context.issues.push({ code: 'custom', message: MONEY_RULE, input: value });
        return z.NEVER;
      }
      return cents;
    }),
  kind: z
    .enum(RECEIPT_KINDS, {
      error: (issue) => (issue.input === undefined ? `is required: ${KIND_RULE}` : `must be ${KIND_RULE}`),
    })
    .nullable(),
  status: z
    .enum(RECEIPT_STATUSES, { error: () => `must be one of ${RECEIPT_STATUSES.join(', ')}` })
    .default('paid'),
  demo: z.boolean({ error: () => 'must be true or false' }).default(false),
});

/** Counts of a receipts call. */
export interface ReceiptCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** Where a receipt sits in its call, as errors name it. */
interface Position {
  /** `receipts[12]` (0-based index in the JSON batch) or `line[37]` (1-based NDJSON line number). */
  param: string;
  /** The same in words, for the detail. */
  words: string;
  extras: { index: number } | { line: number };
}

/** One receipt of a call, not parsed yet: `read` throws a Problem naming its position. */
interface ReceiptItem {
  position: Position;
  read(): unknown;
}

export function accountView(account: PosAccount) {
  return {
    id: account.id,
    name: account.name,
    currency: account.currency,
    active: account.active,
    created_at: wireTime(account.createdAt),
    updated_at: wireTime(account.updatedAt),
  };
}

export function placeView(place: PosPlace) {
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

export function eventView(event: PosEvent) {
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

function notFound(what: string): Problem {
  return Problem.of('not_found', { detail: `There is no ${what}.` });
}

/** A refused receipt: the param names the receipt and its field; the detail says where and why. */
function badReceipt(position: Position, field: string, reason: string): Problem {
  const param = field === '' ? position.param : `${position.param}.${field}`;
  return Problem.of('validation_failed', {
    detail: `${param}: ${reason} (${position.words}). Nothing of this call was stored.`,
    param,
    ...position.extras,
  });
}

function parseReceipt(item: ReceiptItem): ReceiptData {
  const parsed = receiptInput.safeParse(item.read());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).map(String);
    const reason =
      issue?.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.join(', ')}`
        : path.length === 0
          ? 'must be a receipt object'
          : (issue?.message ?? 'invalid');
    throw badReceipt(item.position, path.join('.'), reason);
  }
  const receipt = parsed.data;
  return {
    id: receipt.id,
    placeId: receipt.place,
    eventId: receipt.event,
    occurredAt: receipt.occurred_at,
    paymentMethod: receipt.payment_method,
    brand: receipt.brand,
    amountCents: receipt.amount,
    kind: receipt.kind,
    status: receipt.status,
    demo: receipt.demo,
  };
}

function* batchItems(receipts: readonly unknown[]): Generator<ReceiptItem> {
  for (const [index, receipt] of receipts.entries()) {
    yield {
      position: {
        param: `receipts[${index}]`,
        words: `receipt at index ${index}, 0-based position in the batch`,
        extras: { index },
      },
      read: () => receipt,
    };
  }
}

async function* lineItems(stream: Readable): AsyncGenerator<ReceiptItem> {
  for await (const line of ndjsonLines(stream, NDJSON_LINE_MAX)) {
    const position: Position = {
      param: `line[${line.number}]`,
      words: `line ${line.number} of the NDJSON body, 1-based, blank lines counted`,
      extras: { line: line.number },
    };
    yield {
      position,
      read() {
        if ('tooLong' in line) {
          throw badReceipt(position, '', `is longer than ${NDJSON_LINE_MAX} characters`);
        }
        try {
          return JSON.parse(line.text) as unknown;
        } catch (error) {
          throw badReceipt(
            position,
            '',
            `is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
          );
        }
      },
    };
  }
}

const eventKey = (placeId: string, eventId: string) => `${placeId}/${eventId}`;

/** The back office's point-of-sale data service. Methods throw a Problem for input they refuse. */
export function createPosAdmin(deps: { db: Db; clock: Clock }) {
  const { db, clock } = deps;

  async function account(id: string): Promise<PosAccount> {
    const found = await findAccount(db, id);
    if (found === undefined) throw notFound(`account "${id}"`);
    return found;
  }

  async function place(accountId: string, id: string): Promise<PosPlace> {
    await account(accountId);
    const found = await findPlace(db, accountId, id);
    if (found === undefined) throw notFound(`place "${id}" in account "${accountId}"`);
    return found;
  }

  /**
   * Upserts the receipts of one call in one transaction, RECEIPT_CHUNK at a time: each chunk's places
   * and events are checked, its stored receipts read, compared and written. A bad receipt throws and
   * rolls the whole call back. Receipts are counted as if applied one after another: a receipt id that
   * comes again in the same call is compared with its earlier version in the call (the later one wins).
   */
  async function importReceipts(
    accountId: string,
    items: AsyncIterable<ReceiptItem> | Iterable<ReceiptItem>,
  ): Promise<ReceiptCounts> {
    await account(accountId);
    const now = clock.now();
    const counts: ReceiptCounts = { inserted: 0, updated: 0, unchanged: 0 };
    await db.transaction().execute(async (trx) => {
      const knownPlaces = new Set<string>();
      const knownEvents = new Set<string>();

      /** Throws for the first receipt of the chunk whose place or event is not the account's. */
      async function checkReferences(chunk: { receipt: ReceiptData; position: Position }[]) {
        const places = new Set<string>();
        const events = new Set<string>();
        for (const { receipt } of chunk) {
          if (!knownPlaces.has(receipt.placeId)) places.add(receipt.placeId);
          if (receipt.eventId !== null && !knownEvents.has(eventKey(receipt.placeId, receipt.eventId)))
            events.add(receipt.eventId);
        }
        for (const id of await existingPlaceIds(trx, accountId, [...places])) knownPlaces.add(id);
        for (const pair of await eventPlacePairs(trx, accountId, [...events]))
          knownEvents.add(eventKey(pair.placeId, pair.eventId));
        for (const { receipt, position } of chunk) {
          if (!knownPlaces.has(receipt.placeId))
            throw badReceipt(
              position,
              'place',
              `there is no place "${receipt.placeId}" in account "${accountId}"`,
            );
          if (receipt.eventId !== null && !knownEvents.has(eventKey(receipt.placeId, receipt.eventId)))
            throw badReceipt(
              position,
              'event',
              `there is no event "${receipt.eventId}" in place "${receipt.placeId}"`,
            );
        }
      }

      async function flush(chunk: { receipt: ReceiptData; position: Position }[]) {
        await checkReferences(chunk);
        const current: Map<string, ReceiptData> = await findReceipts(trx, accountId, [
          ...new Set(chunk.map(({ receipt }) => receipt.id)),
        ]);
        const changed = new Map<string, ReceiptData>();
        for (const { receipt } of chunk) {
          const before = current.get(receipt.id);
          if (before === undefined) counts.inserted += 1;
          else if (sameReceipt(before, receipt)) {
            counts.unchanged += 1;
            continue;
          } else counts.updated += 1;
          current.set(receipt.id, receipt);
          changed.set(receipt.id, receipt);
        }
        await writeReceipts(trx, accountId, [...changed.values()], now);
      }

      let chunk: { receipt: ReceiptData; position: Position }[] = [];
      for await (const item of items) {
        let receipt: ReceiptData;
        try {
          receipt = parseReceipt(item);
        } catch (error) {
          // An earlier receipt of the pending chunk may be bad too: the first bad one is reported.
          await checkReferences(chunk);
          throw error;
        }
        chunk.push({ receipt, position: item.position });
        if (chunk.length >= RECEIPT_CHUNK) {
          await flush(chunk);
          chunk = [];
        }
      }
      await flush(chunk);
    });
    return counts;
  }

  return {
    account,
    listAccounts: () => listAccounts(db),

    async putAccount(id: string, input: z.infer<typeof accountInput>) {
      const created = await putAccount(db, id, input, clock.now());
      return { created, account: await account(id) };
    },

    place,

    async listPlaces(accountId: string): Promise<PosPlace[]> {
      await account(accountId);
      return listPlaces(db, accountId);
    },

    async putPlace(accountId: string, id: string, input: z.infer<typeof placeInput>) {
      await account(accountId);
      const created = await putPlace(db, accountId, id, input, clock.now());
      return { created, place: await place(accountId, id) };
    },

    async listEvents(accountId: string, placeId: string): Promise<PosEvent[]> {
      await place(accountId, placeId);
      return listEvents(db, accountId, placeId);
    },

    async putEvent(accountId: string, placeId: string, id: string, input: z.infer<typeof eventInput>) {
      await place(accountId, placeId);
      const before = await findEvent(db, accountId, placeId, id);
      const created = await putEvent(db, accountId, placeId, id, {
        name: input.name,
        startsAt: input.starts_at,
        endsAt: input.ends_at,
        active: input.active,
        registeredAt: input.registered_at ?? before?.registeredAt ?? clock.now(),
      });
      const event = await findEvent(db, accountId, placeId, id);
      if (event === undefined) throw notFound(`event "${id}" in place "${placeId}"`);
      return { created, event };
    },

    /** Deletes an event; receipts recorded with it keep its id (they still count without `event`). */
    async deleteEvent(accountId: string, placeId: string, id: string): Promise<void> {
      await place(accountId, placeId);
      if (!(await deleteEvent(db, accountId, placeId, id)))
        throw notFound(`event "${id}" in place "${placeId}" of account "${accountId}"`);
    },

    /** POST receipts as JSON: `receipts` already checked to hold at most RECEIPTS_PER_CALL items. */
    importReceiptBatch: (accountId: string, receipts: readonly unknown[]) =>
      importReceipts(accountId, batchItems(receipts)),

    /** POST receipts as NDJSON, read from the stream line by line (any length). */
    importReceiptLines: (accountId: string, stream: Readable) => importReceipts(accountId, lineItems(stream)),
  };
}

export type PosAdmin = ReturnType<typeof createPosAdmin>;
