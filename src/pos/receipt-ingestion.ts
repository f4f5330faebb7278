import type { Readable } from 'node:stream';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { Problem } from '../errors/problem.js';
import { eventPlacePairs } from './event-repository.js';
import { ndjsonLines } from './ndjson-lines.js';
import { existingPlaceIds } from './place-repository.js';
import type { PosDataService } from './pos-data-service.js';
import { receiptInput } from './receipt-input.js';
import { findReceipts, sameReceipt, writeReceipts, type ReceiptData } from './receipt-repository.js';

// The receipts that store devices send (admin-api.md, Point of sale: POST receipts), as a JSON batch or
// an NDJSON stream of any length: upserted by id, a later state replacing the earlier one. A bad receipt
// refuses its whole call, naming its position.

/** Receipts validated, compared and written together, inside the one transaction of a call. */
const RECEIPT_CHUNK = 1_000;
/** An NDJSON line longer than this cannot be a receipt (whose fields are at most a few hundred characters). */
const NDJSON_LINE_MAX = 65_536;

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

/** The receipts service: the account is checked first (404), then every receipt. */
export function createReceiptIngestion(deps: {
  db: Db;
  clock: Clock;
  posData: Pick<PosDataService, 'account'>;
}) {
  const { db, clock, posData } = deps;

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
    await posData.account(accountId);
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
    /** POST receipts as JSON: `receipts` already checked to hold at most RECEIPTS_PER_CALL items. */
    importBatch: (accountId: string, receipts: readonly unknown[]) =>
      importReceipts(accountId, batchItems(receipts)),

    /** POST receipts as NDJSON, read from the stream line by line (any length). */
    importLines: (accountId: string, stream: Readable) => importReceipts(accountId, lineItems(stream)),
  };
}

export type ReceiptIngestion = ReturnType<typeof createReceiptIngestion>;
