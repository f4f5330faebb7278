import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Clock } from '../../clock.js';
import type { Db } from '../../db/database.js';
import { isPostgres } from '../../db/dialect.js';
import { Problem } from '../../errors/problem.js';
import { createSemaphore } from '../../lib/semaphore.js';
import { eventPlacePairs } from '../places/event-repository.js';
import { NDJSON_LINE_MAX, ndjsonLineBatches, type NdjsonLine } from './ndjson-lines.js';
import { existingPlaceIds } from '../places/place-repository.js';
import type { PosDataService } from '../places/pos-data-service.js';
import { applyStagedReceipts, type ReceiptCounts } from './receipt-apply.js';
import { quickReceiptInput, receiptInput } from './receipt-input.js';
import { receiptBatchEvents } from './receipt-json-stream.js';
import { writeReceipts, type ReceiptData } from './receipt-repository.js';
import { openReceiptStaging, type ReceiptStaging, type UploadedReceipt } from './receipt-staging.js';

// The receipts that store devices send (docs/admin-rules.md, Point of sale: POST receipts), as a JSON batch
// or an NDJSON stream of any length: upserted by id, a later state replacing the earlier one. A bad receipt
// refuses its whole call, naming its position.
//
// An upload goes in two steps, so that it never stops the public APIs: while its body arrives, each
// receipt is parsed and checked (its place and event with short reads) and staged outside the service's
// database (receipt-staging.ts), holding no connection; once the body is whole and good, the staged
// receipts are written in one short transaction (receipt-apply.ts), at most UPLOADS_WRITING_AT_ONCE
// uploads at a time, under the write step's own time limit (UPLOAD_WRITE_TIMEOUT_MS).

export type { ReceiptCounts };

/**
 * Receipts parsed, then checked against the places and events, and staged together. A chunk waits for
 * the event loop's turns while it fills, so the young-generation collections meanwhile move its receipts
 * to the old generation, where they stay as garbage until a full collection: with 1,000 a chunk, a
 * million-receipt upload's server held 130 MiB of heap instead of 50 in some runs (a peak of 380 MiB
 * instead of 270). With 250, none of 8 runs did (BENCHMARKS.md, issue 23).
 */
const RECEIPT_CHUNK = 250;
/** Receipts parsed between two turns of the event loop, so that other requests are served meanwhile. */
const RECEIPTS_PER_TURN = 250;
/**
 * Uploads writing their staged receipts at once. Each holds a database connection (on SQLite, the one
 * writer) for its last step; the others wait without one, so that the pool keeps room for the public APIs.
 * On PostgreSQL the server opens a pool of this size for that step (src/server.ts).
 */
export const UPLOADS_WRITING_AT_ONCE = 2;

/** How an upload numbers its receipts: by 0-based index in the JSON batch, or by 1-based NDJSON line. */
type UploadForm = 'batch' | 'lines';

/** Where a receipt sits in its call, as errors name it. */
interface Position {
  /** `receipts[12]` (0-based index in the JSON batch) or `line[37]` (1-based NDJSON line number). */
  param: string;
  /** The same in words, for the detail. */
  words: string;
  extras: { index: number } | { line: number };
}

function positionOf(form: UploadForm, at: number): Position {
  return form === 'batch'
    ? {
        param: `receipts[${at}]`,
        words: `receipt at index ${at}, 0-based position in the batch`,
        extras: { index: at },
      }
    : {
        param: `line[${at}]`,
        words: `line ${at} of the NDJSON body, 1-based, blank lines counted`,
        extras: { line: at },
      };
}

/** One receipt of a call, not parsed yet: `read` throws a Problem naming its position. */
interface ReceiptItem {
  position: number;
  read(): unknown;
}

/** What an upload's body yields: receipts, or (JSON only) the news that `receipts` started again. */
type UploadItem = ReceiptItem | { restart: true };

/**
 * The items of an upload's body, several at a time where the body gives them so (the lines of one chunk
 * of NDJSON): each turn of an async iteration costs as much as reading a short receipt's line.
 */
type UploadItems = AsyncIterable<readonly UploadItem[]>;

/** A refused receipt: the param names the receipt and its field; the detail says where and why. */
function badReceipt(form: UploadForm, at: number, field: string, reason: string): Problem {
  const position = positionOf(form, at);
  const param = field === '' ? position.param : `${position.param}.${field}`;
  return Problem.of('validation_failed', {
    detail: `${param}: ${reason} (${position.words}). Nothing of this call was stored.`,
    param,
    ...position.extras,
  });
}

const noPlace = (placeId: string, accountId: string) =>
  `there is no place "${placeId}" in account "${accountId}"`;
const noEvent = (eventId: string, placeId: string) => `there is no event "${eventId}" in place "${placeId}"`;

function parseReceipt(form: UploadForm, item: ReceiptItem): ReceiptData {
  const value = item.read();
  const quick = quickReceiptInput(value);
  const parsed =
    quick === undefined ? receiptInput.safeParse(value) : { success: true as const, data: quick };
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = (issue?.path ?? []).map(String);
    const reason =
      issue?.code === 'unrecognized_keys'
        ? `unknown field(s) ${issue.keys.join(', ')}`
        : path.length === 0
          ? 'must be a receipt object'
          : (issue?.message ?? 'invalid');
    throw badReceipt(form, item.position, path.join('.'), reason);
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

async function* jsonItems(
  stream: Readable,
  declaredLength: string | undefined,
): AsyncGenerator<UploadItem[]> {
  for await (const event of receiptBatchEvents(stream, declaredLength)) {
    if (event.kind === 'restart') yield [{ restart: true }];
    else yield [{ position: event.index, read: () => event.value }];
  }
}

/** A line of an NDJSON body as a receipt to read. */
function lineItem(line: NdjsonLine): ReceiptItem {
  const form = 'lines';
  return {
    position: line.number,
    read() {
      if ('tooLong' in line) {
        throw badReceipt(form, line.number, '', `is longer than ${NDJSON_LINE_MAX} characters`);
      }
      if ('notUtf8' in line) {
        throw badReceipt(form, line.number, '', 'is not valid UTF-8 (NDJSON is UTF-8 text)');
      }
      try {
        return JSON.parse(line.text) as unknown;
      } catch (error) {
        throw badReceipt(
          form,
          line.number,
          '',
          `is not valid JSON (${error instanceof Error ? error.message : 'parse error'})`,
        );
      }
    },
  };
}

async function* lineItems(stream: Readable): AsyncGenerator<ReceiptItem[]> {
  for await (const lines of ndjsonLineBatches(stream, NDJSON_LINE_MAX)) yield lines.map(lineItem);
}

const eventKey = (placeId: string, eventId: string) => `${placeId}/${eventId}`;

/** The refusal of an upload whose last step could not finish; nothing of it was stored. */
function unfinished(reason: 'time_limit' | 'database_unavailable', writeTimeoutMs: number): Problem {
  // Sent again, an upload stores each receipt once (upserts by id): it is always safe to resend.
  const headers = { 'retry-after': String(UNFINISHED_RETRY_AFTER_SECONDS) };
  return reason === 'time_limit'
    ? Problem.of(
        'upload_write_timeout',
        {
          detail: `Writing the receipts took longer than UPLOAD_WRITE_TIMEOUT_MS (${writeTimeoutMs} ms), the time limit of an upload's last step; it was rolled back and nothing of this upload was stored. Send it again in smaller parts (by period, say), or ask the operator to raise UPLOAD_WRITE_TIMEOUT_MS.`,
        },
        headers,
      )
    : Problem.of('upload_interrupted', {}, headers);
}

/** Retry-After of an upload that could not finish: the database's outage or load may be over by then. */
const UNFINISHED_RETRY_AFTER_SECONDS = 60;

/**
 * Parses, checks and stages the receipts of one call, RECEIPT_CHUNK at a time: each chunk's places
 * and events are checked with short reads, then it is staged. The first bad receipt (by position) is
 * thrown at once when `onBadReceipt` is `stop`; with `finish`, the body is read to its end first (the
 * JSON form: what the whole body decides comes first) and the problem returned, as is `refused` (the
 * account's 404, which also comes after the whole body's problems).
 */
async function stageReceipts(
  db: Db,
  accountId: string,
  form: UploadForm,
  items: UploadItems,
  staging: ReceiptStaging,
  onBadReceipt: 'stop' | 'finish',
  refused: Problem | undefined,
): Promise<{ problem: Problem | undefined; received: number }> {
  const knownPlaces = new Set<string>();
  const knownEvents = new Set<string>();

  /** Throws for the first receipt of the chunk whose place or event is not the account's. */
  async function checkReferences(chunk: readonly UploadedReceipt[]) {
    const places = new Set<string>();
    const events = new Set<string>();
    for (const { receipt } of chunk) {
      if (!knownPlaces.has(receipt.placeId)) places.add(receipt.placeId);
      if (receipt.eventId !== null && !knownEvents.has(eventKey(receipt.placeId, receipt.eventId)))
        events.add(receipt.eventId);
    }
    if (places.size > 0) {
      for (const id of await existingPlaceIds(db, accountId, [...places])) knownPlaces.add(id);
    }
    if (events.size > 0) {
      for (const pair of await eventPlacePairs(db, accountId, [...events]))
        knownEvents.add(eventKey(pair.placeId, pair.eventId));
    }
    for (const { receipt, position } of chunk) {
      if (!knownPlaces.has(receipt.placeId))
        throw badReceipt(form, position, 'place', noPlace(receipt.placeId, accountId));
      if (receipt.eventId !== null && !knownEvents.has(eventKey(receipt.placeId, receipt.eventId)))
        throw badReceipt(form, position, 'event', noEvent(receipt.eventId, receipt.placeId));
    }
  }

  async function flush(chunk: readonly UploadedReceipt[]) {
    await checkReferences(chunk);
    staging.add(chunk);
  }

  let problem = refused;
  let chunk: UploadedReceipt[] = [];
  let sinceTurn = 0;
  let received = 0;
  for await (const batch of items) {
    for (const item of batch) {
      // Parsing and checking are work too: a long upload lets the other requests in between.
      sinceTurn += 1;
      if (sinceTurn >= RECEIPTS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
      }
      if ('restart' in item) {
        staging.clear();
        chunk = [];
        problem = refused;
        received = 0;
        continue;
      }
      received += 1;
      if (problem !== undefined) continue; // reading on to the end of a JSON body
      try {
        let receipt: ReceiptData;
        try {
          receipt = parseReceipt(form, item);
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
      } catch (error) {
        if (onBadReceipt === 'stop' || !(error instanceof Problem)) throw error;
        problem = error;
        chunk = [];
      }
    }
  }
  if (problem !== undefined) return { problem, received };
  try {
    await flush(chunk);
  } catch (error) {
    if (onBadReceipt === 'stop' || !(error instanceof Problem)) throw error;
    return { problem: error, received };
  }
  return { problem: undefined, received };
}

/** The receipts service: the account is checked first (404), then every receipt. */
export function createReceiptIngestion(deps: {
  db: Db;
  /**
   * Where the last step writes: on PostgreSQL a pool of its own whose client-side limit is the step's
   * (src/server.ts), not the one meant for the API's reads; default `db`.
   */
  writeDb?: Db;
  /** The longest the last step may take (UPLOAD_WRITE_TIMEOUT_MS). */
  writeTimeoutMs: number;
  clock: Clock;
  posData: Pick<PosDataService, 'account'>;
}) {
  const { db, clock, posData, writeTimeoutMs } = deps;
  const writeDb = deps.writeDb ?? db;
  const applying = createSemaphore(UPLOADS_WRITING_AT_ONCE);

  /**
   * Stages the receipts of one call, then applies them in one transaction. Receipts are counted as if
   * applied one after another: a receipt id that comes again in the same call is compared with its
   * earlier version in the call (the later one wins).
   */
  async function importReceipts(
    accountId: string,
    form: UploadForm,
    items: UploadItems,
    onBadReceipt: 'stop' | 'finish',
  ): Promise<ReceiptCounts> {
    let refused: Problem | undefined;
    try {
      await posData.account(accountId);
    } catch (error) {
      if (onBadReceipt === 'stop' || !(error instanceof Problem)) throw error;
      refused = error;
    }
    const now = clock.now();
    const staging = openReceiptStaging({ sumHours: !isPostgres(writeDb) });
    try {
      const { problem, received } = await stageReceipts(
        db,
        accountId,
        form,
        items,
        staging,
        onBadReceipt,
        refused,
      );
      if (problem !== undefined) throw problem;
      // An empty body (`curl --data-binary @missing-file` sends one) or an empty list is a mistake, never
      // an import of nothing that reads as success.
      if (received === 0) throw Problem.of('no_receipts');
      const outcome = await applying.run(() =>
        applyStagedReceipts(writeDb, accountId, staging, now, writeTimeoutMs),
      );
      if (outcome.ok) return outcome.counts;
      if ('unfinished' in outcome) throw unfinished(outcome.unfinished, writeTimeoutMs);
      throw outcome.missing === 'place'
        ? badReceipt(form, outcome.position, 'place', noPlace(outcome.placeId, accountId))
        : badReceipt(form, outcome.position, 'event', noEvent(outcome.eventId ?? '', outcome.placeId));
    } finally {
      staging.close();
    }
  }

  return {
    /**
     * POST receipts as JSON (`{receipts: [...]}`), read from the stream: the body's own problems (not
     * JSON, wrong shape, more than 10,000 receipts) come first, then the account's 404, then the first
     * bad receipt.
     */
    importJson: (accountId: string, stream: Readable, declaredLength?: string) =>
      importReceipts(accountId, 'batch', jsonItems(stream, declaredLength), 'finish'),

    /** POST receipts as NDJSON, read a chunk's lines at a time (any length); stops at the first bad line. */
    importLines: (accountId: string, stream: Readable) =>
      importReceipts(accountId, 'lines', lineItems(stream), 'stop'),

    /**
     * A bulk load into a new account (the demo's): its sales buckets are built once from all its
     * receipts, in a few seconds less than keeping them by deltas batch after batch. `now`: when they
     * are received (default: the clock's now).
     */
    async loadIntoNewAccount(
      accountId: string,
      receipts: readonly ReceiptData[],
      now: number = clock.now(),
    ): Promise<void> {
      await db
        .transaction()
        .execute((trx) => writeReceipts(trx, accountId, receipts, now, { buckets: 'rebuild' }));
    },
  };
}

export type ReceiptIngestion = ReturnType<typeof createReceiptIngestion>;
