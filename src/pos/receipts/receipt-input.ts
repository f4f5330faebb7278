import { z } from 'zod';
import { storedText } from '../../lib/input-text.js';
import { parseInstant } from '../../lib/instant.js';
import { codePointLength } from '../../lib/unicode-text.js';
import { parseMoney } from './money.js';
import { identifier, instant } from '../places/pos-data-input.js';
import { POS_IDENTIFIER } from '../pos-identifier.js';
import { RECEIPT_KINDS, RECEIPT_STATUSES } from './receipt-rules.js';

// What store devices send through the operator (docs/admin-rules.md, Point of sale: POST receipts): a JSON
// batch of receipts or NDJSON, each receipt checked on its own so that an error names its position.

/** Receipts per JSON call; longer uploads go as NDJSON (docs/admin-rules.md, Point of sale). */
export const RECEIPTS_PER_CALL = 10_000;

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

const text = storedText;

const KIND_RULE = `one of ${RECEIPT_KINDS.join(', ')}, or null (no transaction type)`;
const MONEY_RULE =
  'must be money text with a dot and at most two decimals, such as "12.50" (a JSON number is refused: amounts must be exact)';

/** An example receipt for the OpenAPI document. */
const receiptExample = {
  id: 'R1',
  place: 'SP01',
  occurred_at: '2026-11-20T21:30:00-03:00',
  payment_method: 'tef_credit',
  brand: 'VISA',
  amount: '12.50',
  kind: 'sale',
};

/** One receipt, of a batch or a line of NDJSON. */
export const receiptInput = z
  .strictObject({
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
      })
      .meta({
        description: `Money text with a dot and at most two decimals, such as "12.50" (never a JSON number).`,
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
  })
  .meta({
    id: 'ReceiptInput',
    description: `A receipt as a store device reports it; \`kind\` is ${KIND_RULE}. Upserted by \`id\`: a later state replaces the earlier one.`,
    examples: [receiptExample],
  });

/**
 * The JSON form of POST receipts as the OpenAPI document shows it: each item a receipt. The call itself
 * is read by `receiptBatchInput`, which checks the receipts one by one so that an error names its index.
 */
export const receiptBatchDocument = z
  .strictObject({ receipts: z.array(receiptInput).max(RECEIPTS_PER_CALL) })
  .meta({ examples: [{ receipts: [receiptExample] }] });

/** A receipt as `receiptInput` reads it. */
export type ReceiptInput = z.output<typeof receiptInput>;

const RECEIPT_FIELDS = new Set(Object.keys(receiptInput.shape));
const KINDS = new Set<string>(RECEIPT_KINDS);
const STATUSES = new Set<string>(RECEIPT_STATUSES);
const LONE_SURROGATE = /\p{Cs}/gu;

/** `storedText(max)` of a string, or undefined where it would refuse it; empty refused when `filled`. */
function fastText(value: unknown, max: number, filled: boolean): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.replace(LONE_SURROGATE, '\uFFFD');
  // A string of at most `max` UTF-16 units has at most `max` code points; only longer ones are counted.
  if (text.includes('\u0000') || (text.length > max && codePointLength(text) > max)) return undefined;
  if (filled && text === '') return undefined;
  return text;
}

/**
 * `receiptInput` without the schema library, for the receipts an upload sends by the hundred thousand:
 * the same receipt when it is good (the property test holds it to that), undefined otherwise, and then
 * `receiptInput` reads it again to say why. Checking with the schema cost about four times parsing the
 * JSON of the receipt.
 */
export function quickReceiptInput(value: unknown): ReceiptInput | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (!RECEIPT_FIELDS.has(key)) return undefined;
  const { id, place, event, occurred_at, payment_method, brand, amount, kind, status, demo } = fields;
  if (typeof id !== 'string' || !POS_IDENTIFIER.test(id)) return undefined;
  if (typeof place !== 'string' || !POS_IDENTIFIER.test(place)) return undefined;
  if (event !== undefined && event !== null && (typeof event !== 'string' || !POS_IDENTIFIER.test(event)))
    return undefined;
  const occurredAt = typeof occurred_at === 'string' ? parseInstant(occurred_at) : null;
  if (occurredAt === null) return undefined;
  const method = fastText(payment_method, 64, true);
  if (method === undefined) return undefined;
  const storedBrand = brand === undefined || brand === null ? null : fastText(brand, 200, false);
  if (storedBrand === undefined) return undefined;
  const cents = typeof amount === 'string' ? parseMoney(amount) : null;
  if (cents === null) return undefined;
  if (kind !== null && (typeof kind !== 'string' || !KINDS.has(kind))) return undefined;
  if (status !== undefined && (typeof status !== 'string' || !STATUSES.has(status))) return undefined;
  if (demo !== undefined && typeof demo !== 'boolean') return undefined;
  return {
    id,
    place,
    event: typeof event === 'string' ? event : null,
    occurred_at: occurredAt,
    payment_method: method,
    brand: storedBrand,
    amount: cents,
    kind: kind as ReceiptInput['kind'],
    status: (status ?? 'paid') as ReceiptInput['status'],
    demo: demo ?? false,
  };
}
